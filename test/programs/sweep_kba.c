/* A KBA-style wavefront sweep, as discrete-ordinates transport codes pipeline it: a non-periodic
 * 2-D process grid over x and y (z is not decomposed but cut into chunks that pipeline); for
 * each of the four sweep directions a rank waits for the faces of the current z chunk from its
 * upstream x and y neighbours (MPI_PROC_NULL at the domain's inflow boundary, whose ghost cells
 * keep the boundary value 0), computes the chunk and sends its outflow faces downstream.
 *  - the faces are an hvector of a y column (x face) and a vector of x rows (y face) of a
 *    chunk work array, from `#define`s and a `static const` plane size; the 16 requests (4
 *    directions x recv/send x 2 faces) are persistent, made once with MPI_Recv_init (source
 *    computed by MPI_Cart_shift, MPI_ANY_TAG) and MPI_Send_init (tag computed from the
 *    direction index) in a loop, and restarted for every chunk while the work array changes;
 *    the receives of a chunk are completed by an MPI_Waitany loop (until it returns
 *    MPI_UNDEFINED) that checks each face's status (the source, the tag its sender computed,
 *    MPI_Get_count of the face type) as it arrives;
 *  - at the end every rank packs its east and north outflow faces of the summed flux with
 *    MPI_Pack_size / MPI_Pack (two derived types into one buffer) and sends the bytes to rank 0,
 *    which posts MPI_ANY_SOURCE / MPI_ANY_TAG receives of MPI_PACKED, completes them with
 *    MPI_Waitany and MPI_Unpack's each message as it comes, naming the sender from the status.
 * Every rank recomputes the whole sweep serially and checks every cell it owns or receives.
 * NP: 6
 * CFLAGS: -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror -Wno-stringop-overflow */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NX 4  /* cells per rank in x */
#define NY 3  /* cells per rank in y */
#define NZ 8  /* cells in z (not decomposed) */
#define CH 2  /* z cells per pipelined chunk */
#define NCH (NZ / CH)
#define MOD 1000003.0
#define MAXG 64
#define TAG_FACE(o, dim) (20 + 2 * (o) + (dim))
#define TAG_OUT(r) (500 + (r))
static const int PLANE = (NY + 2) * (NX + 2);

static double work[CH][NY + 2][NX + 2];
static double phi[NZ][NY + 2][NX + 2], stage[NZ][NY + 2][NX + 2];
static double ref[4][MAXG][MAXG][NZ]; /* the serial sweep per direction: [o][gx][gy][z] */

static double source(int o, int gx, int gy, int z) { return (double)((o * 7 + gx * 3 + gy * 5 + z) % 11); }

/* The recurrence of direction o: inflow from x - sx and y - sy, zero outside the domain. */
static void serial_sweep(int gnx, int gny) {
  int o, i, j, z;
  for (o = 0; o < 4; ++o) {
    int sx = (o & 1) ? -1 : 1, sy = (o & 2) ? -1 : 1;
    for (z = 0; z < NZ; ++z)
      for (i = 0; i < gnx; ++i)
        for (j = 0; j < gny; ++j) {
          int gx = sx > 0 ? i : gnx - 1 - i, gy = sy > 0 ? j : gny - 1 - j;
          int ux = gx - sx, uy = gy - sy;
          double in_x = (ux >= 0 && ux < gnx) ? ref[o][ux][gy][z] : 0.0;
          double in_y = (uy >= 0 && uy < gny) ? ref[o][gx][uy][z] : 0.0;
          ref[o][gx][gy][z] = fmod(3.0 * in_x + 5.0 * in_y + source(o, gx, gy, z), MOD);
        }
  }
}

static double phi_ref(int gx, int gy, int z) {
  return fmod(ref[0][gx][gy][z] + ref[1][gx][gy][z] + ref[2][gx][gy][z] + ref[3][gx][gy][z], MOD);
}

static void make_faces(MPI_Datatype *xface, MPI_Datatype *yface) {
  MPI_Datatype col;
  MPI_Type_vector(NY, 1, NX + 2, MPI_DOUBLE, &col);
  MPI_Type_create_hvector(CH, 1, (MPI_Aint)PLANE * (MPI_Aint)sizeof(double), col, xface);
  MPI_Type_commit(xface);
  MPI_Type_free(&col);
  MPI_Type_vector(CH, NX, PLANE, MPI_DOUBLE, yface);
  MPI_Type_commit(yface);
}

int main(int argc, char **argv) {
  int rank, size, dims[2] = {0, 0}, periods[2] = {0, 0}, c[2], o, k, x, y, z, n, errs = 0, all = 0;
  int up[4][2], down[4][2], gnx, gny, bufsize, sz1, sz2, received = 0, null_returned = 0;
  double sum = 0.0, *sums = NULL;
  MPI_Comm cart;
  MPI_Datatype xface, yface, xfull, yfull, col;
  MPI_Request rreq[4][2], sreq[4][2];
  char *packbuf;

  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 2, c);
  gnx = dims[0] * NX;
  gny = dims[1] * NY;
  if (gnx > MAXG || gny > MAXG) MPI_Abort(MPI_COMM_WORLD, 2);
  serial_sweep(gnx, gny);

  make_faces(&xface, &yface);
  /* Persistent requests of every direction: receive into the upstream ghost face, send the
   * downstream interior face, each with the tag of its direction and dimension. */
  for (o = 0; o < 4; ++o) {
    int sx = (o & 1) ? -1 : 1, sy = (o & 2) ? -1 : 1;
    int xin = sx > 0 ? 0 : NX + 1, xout = sx > 0 ? NX : 1;
    int yin = sy > 0 ? 0 : NY + 1, yout = sy > 0 ? NY : 1;
    MPI_Cart_shift(cart, 0, sx, &up[o][0], &down[o][0]);
    MPI_Cart_shift(cart, 1, sy, &up[o][1], &down[o][1]);
    MPI_Recv_init(&work[0][1][xin], 1, xface, up[o][0], MPI_ANY_TAG, cart, &rreq[o][0]);
    MPI_Recv_init(&work[0][yin][1], 1, yface, up[o][1], MPI_ANY_TAG, cart, &rreq[o][1]);
    MPI_Send_init(&work[0][1][xout], 1, xface, down[o][0], TAG_FACE(o, 0), cart, &sreq[o][0]);
    MPI_Send_init(&work[0][yout][1], 1, yface, down[o][1], TAG_FACE(o, 1), cart, &sreq[o][1]);
  }

  for (z = 0; z < NZ; ++z)
    for (y = 0; y < NY + 2; ++y)
      for (x = 0; x < NX + 2; ++x) phi[z][y][x] = 0.0;
  for (o = 0; o < 4; ++o) {
    int sx = (o & 1) ? -1 : 1, sy = (o & 2) ? -1 : 1;
    for (k = 0; k < NCH; ++k) {
      /* Boundary value 0 in every ghost cell (an inflow from MPI_PROC_NULL keeps it). */
      for (z = 0; z < CH; ++z)
        for (y = 0; y < NY + 2; ++y)
          for (x = 0; x < NX + 2; ++x)
            if (x == 0 || x == NX + 1 || y == 0 || y == NY + 1) work[z][y][x] = 0.0;
      MPI_Startall(2, rreq[o]);
      /* Until MPI_Waitany has no active request left: MPICH 4.0.2 never returns a started
       * persistent receive from MPI_PROC_NULL here (it counts as inactive; the standard says it
       * completes with the empty status), so the loop does not count on two completions, and
       * the number of MPI_PROC_NULL completions it did return is printed. */
      for (n = 0; n < 3; ++n) {
        int which, cnt = -1;
        MPI_Status st;
        MPI_Waitany(2, rreq[o], &which, &st);
        if (which == MPI_UNDEFINED) break;
        if (which < 0 || which > 1 || n == 2) {
          ++errs;
          break;
        }
        if (up[o][which] == MPI_PROC_NULL) {
          ++null_returned;
          continue;
        }
        MPI_Get_count(&st, which ? yface : xface, &cnt);
        errs += st.MPI_SOURCE != up[o][which] || st.MPI_TAG != TAG_FACE(o, which) || cnt != 1;
        ++received;
      }
      /* The previous chunk's sends read the interior: they must be done before it changes. */
      if (k > 0) MPI_Waitall(2, sreq[o], MPI_STATUSES_IGNORE);
      for (z = 0; z < CH; ++z) {
        int gz = k * CH + z, i, j;
        for (i = 0; i < NX; ++i)
          for (j = 0; j < NY; ++j) {
            int lx = sx > 0 ? 1 + i : NX - i, ly = sy > 0 ? 1 + j : NY - j;
            int gx = c[0] * NX + lx - 1, gy = c[1] * NY + ly - 1;
            double w = fmod(3.0 * work[z][ly][lx - sx] + 5.0 * work[z][ly - sy][lx] +
                                source(o, gx, gy, gz), MOD);
            work[z][ly][lx] = w;
            errs += w != ref[o][gx][gy][gz];
            phi[gz][ly][lx] = fmod(phi[gz][ly][lx] + w, MOD);
          }
      }
      MPI_Startall(2, sreq[o]);
    }
    MPI_Waitall(2, sreq[o], MPI_STATUSES_IGNORE);
  }
  for (o = 0; o < 4; ++o)
    for (k = 0; k < 2; ++k) {
      MPI_Request_free(&rreq[o][k]);
      MPI_Request_free(&sreq[o][k]);
    }
  for (z = 0; z < NZ; ++z)
    for (y = 1; y <= NY; ++y)
      for (x = 1; x <= NX; ++x) {
        double want = phi_ref(c[0] * NX + x - 1, c[1] * NY + y - 1, z);
        errs += phi[z][y][x] != want;
        sum += phi[z][y][x] * ((x + 2 * y + 3 * z) % 4 + 1);
      }

  /* Outflow faces of the flux to rank 0, packed. */
  MPI_Type_vector(NY, 1, NX + 2, MPI_DOUBLE, &col);
  MPI_Type_create_hvector(NZ, 1, (MPI_Aint)(sizeof(double) * (size_t)PLANE), col, &xfull);
  MPI_Type_commit(&xfull);
  MPI_Type_vector(NZ, NX, PLANE, MPI_DOUBLE, &yfull);
  MPI_Type_commit(&yfull);
  MPI_Pack_size(1, xfull, cart, &sz1);
  MPI_Pack_size(1, yfull, cart, &sz2);
  bufsize = sz1 + sz2;
  packbuf = malloc((size_t)bufsize * (size_t)size);
  {
    int pos = 0;
    MPI_Pack(&phi[0][1][NX], 1, xfull, packbuf, bufsize, &pos, cart);
    MPI_Pack(&phi[0][NY][1], 1, yfull, packbuf, bufsize, &pos, cart);
    errs += pos > bufsize;
  }
  if (rank != 0) {
    MPI_Send(packbuf, bufsize, MPI_PACKED, 0, TAG_OUT(rank), cart);
  } else {
    MPI_Request rq[MAXG];
    int r;
    for (r = 1; r < size && r <= MAXG; ++r)
      MPI_Irecv(packbuf + (size_t)r * (size_t)bufsize, bufsize, MPI_PACKED, MPI_ANY_SOURCE, MPI_ANY_TAG,
                cart, &rq[r - 1]);
    for (n = 0; n < size; ++n) {
      int which = 0, from = 0, pos = 0, cnt = -1, rc[2];
      MPI_Status st;
      if (n > 0) {
        MPI_Waitany(size - 1, rq, &which, &st);
        if (which == MPI_UNDEFINED) {
          ++errs;
          break;
        }
        ++which;
        from = st.MPI_SOURCE;
        MPI_Get_count(&st, MPI_PACKED, &cnt);
        errs += st.MPI_TAG != TAG_OUT(from) || cnt != bufsize || from <= 0 || from >= size;
        if (from <= 0 || from >= size) continue;
      }
      for (z = 0; z < NZ; ++z)
        for (y = 0; y < NY + 2; ++y)
          for (x = 0; x < NX + 2; ++x) stage[z][y][x] = -1.0;
      MPI_Unpack(packbuf + (size_t)which * (size_t)bufsize, bufsize, &pos, &stage[0][1][NX], 1, xfull, cart);
      MPI_Unpack(packbuf + (size_t)which * (size_t)bufsize, bufsize, &pos, &stage[0][NY][1], 1, yfull, cart);
      MPI_Cart_coords(cart, from, 2, rc);
      for (z = 0; z < NZ; ++z)
        for (y = 0; y < NY + 2; ++y)
          for (x = 0; x < NX + 2; ++x) {
            int face = (x == NX && y >= 1 && y <= NY) || (y == NY && x >= 1 && x <= NX);
            double want = face ? phi_ref(rc[0] * NX + x - 1, rc[1] * NY + y - 1, z) : -1.0;
            errs += stage[z][y][x] != want;
          }
    }
  }
  free(packbuf);

  if (rank == 0) sums = malloc((size_t)size * sizeof *sums);
  MPI_Gather(&sum, 1, MPI_DOUBLE, sums, 1, MPI_DOUBLE, 0, cart);
  MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, cart);
  MPI_Allreduce(MPI_IN_PLACE, &received, 1, MPI_INT, MPI_SUM, cart);
  MPI_Allreduce(MPI_IN_PLACE, &null_returned, 1, MPI_INT, MPI_SUM, cart);
  if (rank == 0) {
    printf("sweep over %d x %d ranks, %d x %d x %d cells, %d chunks, %d faces received\n", dims[0],
           dims[1], gnx, gny, NZ, NCH, received);
    printf("persistent receives from MPI_PROC_NULL returned by MPI_Waitany: %d\n", null_returned);
    for (o = 0; o < 4; ++o)
      printf("direction %d: corner flux %.0f\n", o, ref[o][(o & 1) ? 0 : gnx - 1][(o & 2) ? 0 : gny - 1][NZ - 1]);
    for (k = 0; k < size; ++k) printf("rank %d checksum %.0f\n", k, sums[k]);
    printf("pack size %d, errors %d: %s\n", bufsize, all, all ? "WRONG" : "ok");
    free(sums);
  }
  MPI_Type_free(&xface);
  MPI_Type_free(&yface);
  MPI_Type_free(&col);
  MPI_Type_free(&xfull);
  MPI_Type_free(&yfull);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return all ? 1 : 0;
}
