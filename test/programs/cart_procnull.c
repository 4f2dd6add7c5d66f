/* Non-periodic 2-D and 3-D Cartesian decompositions whose boundary ranks have MPI_PROC_NULL
 * neighbours, as finite-difference codes run them without special-casing the edges:
 *  - 2-D (3 x 2 ranks): a row (contiguous) and a column (vector from a builder helper returning
 *    the type, stride from a `const int`) in a local face array indexed by the direction; each
 *    step posts four MPI_Irecv with MPI_ANY_TAG, four MPI_Isend whose tag is computed from the
 *    step and the direction, then an MPI_Waitsome loop checks each face as it arrives: from a
 *    real neighbour the status names it, the tag is the one it computed and MPI_Get_count and
 *    MPI_Get_elements of the face type are 1 and the face's length; from MPI_PROC_NULL the
 *    ghost cells keep their sentinel and what the status holds is tallied and printed (MPICH
 *    4.0.2 does not give the empty status there: see check_nb_status);
 *  - blocking MPI_Sendrecv of columns, then of full-width rows (so the corners travel), and
 *    MPI_Send/MPI_Recv of a column to and from MPI_PROC_NULL: from MPI_PROC_NULL the status is
 *    the empty one (source MPI_PROC_NULL, tag MPI_ANY_TAG, count and elements 0), else it is
 *    checked as above;
 *  - 3-D (3 x 2 x 1 ranks, so the third dimension has MPI_PROC_NULL on both sides): a z plane
 *    (vector over rows), a y plane (vector over planes) and an x plane (hvector of a column
 *    vector) built by helpers with `MPI_Datatype *` outputs from enum sizes, sent from pointers
 *    into a static 3-D array; the six receives are completed one at a time by MPI_Waitany and
 *    each face is checked (status as in the 2-D case) and folded into a checksum on arrival;
 *    the edges and corners of the ghost shell, never sent, keep their sentinel.
 * Output does not depend on arrival order: rank 0 prints per-rank checksums and counts.
 * NP: 6 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NX 5 /* 2-D interior rows per rank */
#define NY 4 /* 2-D interior columns per rank */
enum { MZ = 3, MY = 4, MX = 5 }; /* 3-D interior cells per rank */
#define STEPS 3
#define TAG2(s, d) (16 * (s) + (d) + 1)
#define TAG3(s, d) (200 + 10 * (s) + (d))
#define V2(s, gi, gj) ((double)(((s) + 1) * 10000 + (gi) * 100 + (gj)))
#define V3(s, gz, gy, gx) ((double)(((s) + 1) * 1000000 + (gz) * 10000 + (gy) * 100 + (gx)))

static double g2[NX + 2][NY + 2];
static double g3[MZ + 2][MY + 2][MX + 2];

static MPI_Datatype column_type(void) {
  MPI_Datatype t;
  const int ld = NY + 2;
  MPI_Type_vector(NX, 1, ld, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

static void make_zplane(MPI_Datatype *t) {
  MPI_Type_vector(MY, MX, MX + 2, MPI_DOUBLE, t);
  MPI_Type_commit(t);
}

static void make_yplane(MPI_Datatype *t) {
  MPI_Type_vector(MZ, MX, (MY + 2) * (MX + 2), MPI_DOUBLE, t);
  MPI_Type_commit(t);
}

static void make_xplane(MPI_Datatype *t) {
  MPI_Datatype col;
  MPI_Type_vector(MY, 1, MX + 2, MPI_DOUBLE, &col);
  MPI_Type_create_hvector(MZ, 1, (MY + 2) * (MX + 2) * sizeof(double), col, t);
  MPI_Type_commit(t);
  MPI_Type_free(&col);
}

static void fill2(int s, const int c[2]) {
  int i, j;
  for (i = 0; i < NX + 2; ++i)
    for (j = 0; j < NY + 2; ++j)
      g2[i][j] = (i >= 1 && i <= NX && j >= 1 && j <= NY)
                     ? V2(s, c[0] * NX + i - 1, c[1] * NY + j - 1) : -1.0;
}

/* The ghost cells of 2-D face d (0 up, 1 down, 2 left, 3 right): wrong values counted. */
static int check_face2(int d, int s, const int c[2], int present, double *sum) {
  int k, errs = 0, n = d < 2 ? NY : NX;
  for (k = 0; k < n; ++k) {
    int i = d == 0 ? 0 : d == 1 ? NX + 1 : k + 1;
    int j = d == 2 ? 0 : d == 3 ? NY + 1 : k + 1;
    double want = present ? V2(s, c[0] * NX + i - 1, c[1] * NY + j - 1) : -1.0;
    errs += g2[i][j] != want;
    *sum += g2[i][j] * (k % 3 + 1 + d);
  }
  return errs;
}

/* The status of a receive from `from` completed by a blocking call: a real neighbour's names it,
 * carries the computed tag and one face; MPI_PROC_NULL's is the empty status. */
static int check_status(const MPI_Status *st, MPI_Datatype face, int from, int want_tag,
                        int want_elems) {
  int count = -1, elems = -1, errs = 0;
  MPI_Get_count(st, face, &count);
  MPI_Get_elements(st, face, &elems);
  if (from == MPI_PROC_NULL) {
    errs += st->MPI_SOURCE != MPI_PROC_NULL;
    errs += st->MPI_TAG != MPI_ANY_TAG;
    errs += count != 0;
    errs += elems != 0;
  } else {
    errs += st->MPI_SOURCE != from;
    errs += st->MPI_TAG != want_tag;
    errs += count != 1;
    errs += elems != want_elems;
  }
  return errs;
}

/* A status is filled with this byte before a completion call, so that one the MPI does not write
 * is seen as such. The MPI standard asks for the empty status (source MPI_PROC_NULL, tag
 * MPI_ANY_TAG, count 0) from a non-blocking receive from MPI_PROC_NULL too, but MPICH 4.0.2
 * completes it with a shared built-in request whose status reads source 0 and tag 0 until an
 * MPI_Sendrecv with MPI_PROC_NULL has set it to the empty one (then every later one is empty).
 * So the program tallies what it sees there, per phase, and prints the tally: deterministic for
 * one MPI, and a build that calls the MPI differently shows. */
#define UNSET 0x5A
static const int UNSET_INT = 0x5A5A5A5A;
static int null_seen[2][4]; /* per phase: empty status, source and tag 0, unwritten, other */

static int check_nb_status(const MPI_Status *st, MPI_Datatype face, int from, int want_tag,
                           int want_elems, int phase) {
  if (from != MPI_PROC_NULL) return check_status(st, face, from, want_tag, want_elems);
  if (st->MPI_SOURCE == MPI_PROC_NULL && st->MPI_TAG == MPI_ANY_TAG) {
    int count = -1;
    MPI_Get_count(st, face, &count);
    ++null_seen[phase][count == 0 ? 0 : 3];
  } else if (st->MPI_SOURCE == 0 && st->MPI_TAG == 0)
    ++null_seen[phase][1];
  else if (st->MPI_SOURCE == UNSET_INT && st->MPI_TAG == UNSET_INT)
    ++null_seen[phase][2];
  else
    ++null_seen[phase][3];
  return 0;
}

static void fill3(int s, const int c[3]) {
  int z, y, x;
  for (z = 0; z < MZ + 2; ++z)
    for (y = 0; y < MY + 2; ++y)
      for (x = 0; x < MX + 2; ++x) {
        int in = z >= 1 && z <= MZ && y >= 1 && y <= MY && x >= 1 && x <= MX;
        g3[z][y][x] = in ? V3(s, c[0] * MZ + z - 1, c[1] * MY + y - 1, c[2] * MX + x - 1) : -1.0;
      }
}

/* The ghost plane of 3-D face f (dimension f / 2, low side when f is even). */
static int check_face3(int f, int s, const int c[3], int present, double *sum) {
  int dim = f / 2, ghost = (f % 2 == 0) ? 0 : (dim == 0 ? MZ : dim == 1 ? MY : MX) + 1;
  int z, y, x, errs = 0;
  for (z = 1; z <= MZ; ++z)
    for (y = 1; y <= MY; ++y)
      for (x = 1; x <= MX; ++x) {
        int zz = dim == 0 ? ghost : z, yy = dim == 1 ? ghost : y, xx = dim == 2 ? ghost : x;
        double want;
        if ((dim == 0 && z != 1) || (dim == 1 && y != 1) || (dim == 2 && x != 1)) continue;
        want = present ? V3(s, c[0] * MZ + zz - 1, c[1] * MY + yy - 1, c[2] * MX + xx - 1) : -1.0;
        errs += g3[zz][yy][xx] != want;
        *sum += g3[zz][yy][xx] * ((zz + 2 * yy + 3 * xx) % 7 + 1);
      }
  return errs;
}

int main(int argc, char **argv) {
  int rank, size, s, d, k, errs = 0, all = 0, nullfaces = 0, arrivals = 0;
  int dims2[2] = {3, 2}, per2[2] = {0, 0}, c2[2], nbr2[4];
  int dims3[3] = {3, 2, 1}, per3[3] = {0, 0, 0}, c3[3], nbr3[6];
  double sum = 0.0, info[3], *all_info = NULL;
  MPI_Comm cart2, cart3;
  MPI_Datatype row, col, fullrow, zf, yf, xf;
  MPI_Request rreq[6], sreq[6];
  MPI_Status sts[6], st;

  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 6) {
    fprintf(stderr, "run with 6 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims2, per2, 0, &cart2);
  MPI_Comm_rank(cart2, &rank);
  MPI_Cart_coords(cart2, rank, 2, c2);
  MPI_Cart_shift(cart2, 0, 1, &nbr2[0], &nbr2[1]);
  MPI_Cart_shift(cart2, 1, 1, &nbr2[2], &nbr2[3]);

  MPI_Type_contiguous(NY, MPI_DOUBLE, &row);
  MPI_Type_commit(&row);
  col = column_type();
  MPI_Type_contiguous(NY + 2, MPI_DOUBLE, &fullrow);
  MPI_Type_commit(&fullrow);

  /* 2-D: non-blocking faces, ANY_TAG receives, MPI_Waitsome processing each face on arrival. */
  for (s = 0; s < STEPS; ++s) {
    MPI_Datatype face[4] = {row, row, col, col};
    double *sendp[4] = {&g2[1][1], &g2[NX][1], &g2[1][1], &g2[1][NY]};
    double *recvp[4] = {&g2[0][1], &g2[NX + 1][1], &g2[1][0], &g2[1][NY + 1]};
    int done = 0, outcount, idx[4];
    fill2(s, c2);
    for (d = 0; d < 4; ++d)
      MPI_Irecv(recvp[d], 1, face[d], nbr2[d], MPI_ANY_TAG, cart2, &rreq[d]);
    for (d = 0; d < 4; ++d)
      MPI_Isend(sendp[d], 1, face[d], nbr2[d], TAG2(s, d), cart2, &sreq[d]);
    while (done < 4) {
      memset(sts, UNSET, sizeof sts);
      MPI_Waitsome(4, rreq, &outcount, idx, sts);
      if (outcount == MPI_UNDEFINED) break;
      for (k = 0; k < outcount; ++k) {
        int dd = idx[k];
        errs += check_nb_status(&sts[k], face[dd], nbr2[dd], TAG2(s, dd ^ 1), dd < 2 ? NY : NX, 0);
        errs += check_face2(dd, s, c2, nbr2[dd] != MPI_PROC_NULL, &sum);
        nullfaces += nbr2[dd] == MPI_PROC_NULL;
        ++arrivals;
      }
      done += outcount;
    }
    errs += done != 4;
    MPI_Waitall(4, sreq, MPI_STATUSES_IGNORE);
  }

  /* 2-D blocking: columns left and right, then full-width rows up and down (so the corners
   * travel too), then a column to and from MPI_PROC_NULL explicitly. */
  fill2(STEPS, c2);
  MPI_Sendrecv(&g2[1][1], 1, col, nbr2[2], 40, &g2[1][NY + 1], 1, col, nbr2[3], 40, cart2, &st);
  errs += check_status(&st, col, nbr2[3], 40, NX);
  MPI_Sendrecv(&g2[1][NY], 1, col, nbr2[3], 41, &g2[1][0], 1, col, nbr2[2], 41, cart2, &st);
  errs += check_status(&st, col, nbr2[2], 41, NX);
  MPI_Sendrecv(&g2[1][0], 1, fullrow, nbr2[0], 42, &g2[NX + 1][0], 1, fullrow, nbr2[1], 42, cart2,
               &st);
  errs += check_status(&st, fullrow, nbr2[1], 42, NY + 2);
  MPI_Sendrecv(&g2[NX][0], 1, fullrow, nbr2[1], 43, &g2[0][0], 1, fullrow, nbr2[0], 43, cart2, &st);
  errs += check_status(&st, fullrow, nbr2[0], 43, NY + 2);
  {
    int i, j, gx = dims2[0] * NX, gy = dims2[1] * NY;
    for (i = 0; i < NX + 2; ++i)
      for (j = 0; j < NY + 2; ++j) {
        int gi = c2[0] * NX + i - 1, gj = c2[1] * NY + j - 1;
        double want = (gi < 0 || gi >= gx || gj < 0 || gj >= gy) ? -1.0 : V2(STEPS, gi, gj);
        errs += g2[i][j] != want;
        sum += g2[i][j] * ((i * 5 + j) % 4 + 1);
      }
  }
  MPI_Send(&g2[1][1], 1, col, MPI_PROC_NULL, 44, cart2);
  MPI_Recv(&g2[1][0], 1, col, MPI_PROC_NULL, 44, cart2, &st);
  errs += check_status(&st, col, MPI_PROC_NULL, 0, 0);
  errs += g2[1][0] != (c2[1] == 0 ? -1.0 : V2(STEPS, c2[0] * NX, c2[1] * NY - 1));

  /* 3-D: the third dimension has one rank, so both its neighbours are MPI_PROC_NULL. */
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims3, per3, 0, &cart3);
  MPI_Comm_rank(cart3, &k);
  MPI_Cart_coords(cart3, k, 3, c3);
  for (d = 0; d < 3; ++d) MPI_Cart_shift(cart3, d, 1, &nbr3[2 * d], &nbr3[2 * d + 1]);
  make_zplane(&zf);
  make_yplane(&yf);
  make_xplane(&xf);
  for (s = 0; s < STEPS; ++s) {
    MPI_Datatype f3[6] = {zf, zf, yf, yf, xf, xf};
    double *sendp[6] = {&g3[1][1][1], &g3[MZ][1][1], &g3[1][1][1],
                        &g3[1][MY][1], &g3[1][1][1], &g3[1][1][MX]};
    double *recvp[6] = {&g3[0][1][1], &g3[MZ + 1][1][1], &g3[1][0][1],
                        &g3[1][MY + 1][1], &g3[1][1][0], &g3[1][1][MX + 1]};
    int n, which;
    fill3(s, c3);
    for (d = 0; d < 6; ++d) {
      MPI_Irecv(recvp[d], 1, f3[d], nbr3[d], MPI_ANY_TAG, cart3, &rreq[d]);
      MPI_Isend(sendp[d], 1, f3[d], nbr3[d], TAG3(s, d), cart3, &sreq[d]);
    }
    for (n = 0; n < 6; ++n) {
      memset(&st, UNSET, sizeof st);
      MPI_Waitany(6, rreq, &which, &st);
      if (which == MPI_UNDEFINED) {
        ++errs;
        break;
      }
      errs += check_nb_status(&st, f3[which], nbr3[which], TAG3(s, which ^ 1),
                           which < 2 ? MY * MX : which < 4 ? MZ * MX : MZ * MY, 1);
      errs += check_face3(which, s, c3, nbr3[which] != MPI_PROC_NULL, &sum);
      nullfaces += nbr3[which] == MPI_PROC_NULL;
      ++arrivals;
    }
    MPI_Waitall(6, sreq, MPI_STATUSES_IGNORE);
    /* Edges and corners of the ghost shell were never sent: still -1. */
    errs += g3[0][0][0] != -1.0 || g3[MZ + 1][MY + 1][MX + 1] != -1.0 || g3[0][1][0] != -1.0;
  }

  info[0] = sum;
  info[1] = nullfaces;
  info[2] = arrivals;
  if (rank == 0) all_info = malloc(3 * (size_t)size * sizeof *all_info);
  MPI_Gather(info, 3, MPI_DOUBLE, all_info, 3, MPI_DOUBLE, 0, cart2);
  MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, null_seen, 8, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("2-D grid %d x %d, 3-D grid %d x %d x %d\n", dims2[0], dims2[1], dims3[0], dims3[1],
           dims3[2]);
    for (d = 0; d < size; ++d)
      printf("rank %d checksum %.1f proc-null faces %.0f received %.0f\n", d, all_info[3 * d],
             all_info[3 * d + 1], all_info[3 * d + 2]);
    for (d = 0; d < 2; ++d)
      printf("%s receives from MPI_PROC_NULL: %d empty status, %d source and tag 0, %d unwritten, "
             "%d other\n", d ? "3-D MPI_Waitany" : "2-D MPI_Waitsome", null_seen[d][0],
             null_seen[d][1], null_seen[d][2], null_seen[d][3]);
    printf("errors %d: %s\n", all, all ? "WRONG" : "ok");
    free(all_info);
  }
  MPI_Type_free(&row);
  MPI_Type_free(&col);
  MPI_Type_free(&fullrow);
  MPI_Type_free(&zf);
  MPI_Type_free(&yf);
  MPI_Type_free(&xf);
  MPI_Comm_free(&cart2);
  MPI_Comm_free(&cart3);
  MPI_Finalize();
  return all ? 1 : 0;
}
