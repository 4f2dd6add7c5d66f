/* Datatypes kept in arrays and built in loops, as solver codes write them:
 *  - the 6 faces of a ghosted 3-D block in `MPI_Datatype send_face[6], recv_face[6]`, filled by a
 *    loop over the dimension with computed (but compile-time) sizes and starts, exchanged with
 *    MPI_Isend/MPI_Irecv in a second loop (periodic 1-D ring, each face goes to the right and
 *    the opposite face comes from the left);
 *  - the lower triangle of a symmetric matrix as MPI_Type_indexed, lengths and displacements
 *    computed in a loop, and the strict upper triangle from constant initializers;
 *  - three separately allocated coefficient arrays sent as one MPI_Type_create_hindexed_block on
 *    absolute addresses (MPI_BOTTOM);
 *  - a 10 x 7 matrix distributed over a 2 x 2 grid by MPI_Type_create_darray with
 *    MPI_DISTRIBUTE_BLOCK and the default argument (uneven blocks), gathered at rank 0 by
 *    receiving each rank's block with the darray type of that rank, built in the loop.
 * Every received element is checked against the sender's closed-form value.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NL 4
#define NT (NL + 2)
#define AT(x, y, z) (((x) * NT + (y)) * NT + (z))
#define TN 6 /* triangle matrix order */
#define GR 10
#define GC 7

static double cell(int rank, int x, int y, int z) { return rank * 1000.0 + x * 100 + y * 10 + z; }

static int faces(int rank, int left, int right) {
  double *g = malloc(NT * NT * NT * sizeof *g);
  MPI_Datatype send_face[6], recv_face[6];
  MPI_Request reqs[12];
  int d, x, y, z, bad = 0;
  for (x = 0; x < NT; ++x)
    for (y = 0; y < NT; ++y)
      for (z = 0; z < NT; ++z) {
        int interior = x >= 1 && x <= NL && y >= 1 && y <= NL && z >= 1 && z <= NL;
        g[AT(x, y, z)] = interior ? cell(rank, x, y, z) : -1.0;
      }
  for (d = 0; d < 3; ++d) {
    int sizes[3] = {NT, NT, NT}, sub[3] = {NL, NL, NL}, start[3] = {1, 1, 1};
    sub[d] = 1;
    start[d] = 1; /* low interior layer */
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &send_face[2 * d]);
    start[d] = NL; /* high interior layer */
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &send_face[2 * d + 1]);
    start[d] = 0; /* low ghost layer */
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &recv_face[2 * d]);
    start[d] = NL + 1; /* high ghost layer */
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &recv_face[2 * d + 1]);
  }
  for (d = 0; d < 6; ++d) {
    MPI_Type_commit(&send_face[d]);
    MPI_Type_commit(&recv_face[d]);
  }
  /* The high face goes right into the right rank's low ghost; the low face goes left into the
   * left rank's high ghost. */
  for (d = 0; d < 3; ++d) {
    MPI_Irecv(g, 1, recv_face[2 * d], left, 2 * d, MPI_COMM_WORLD, &reqs[4 * d]);
    MPI_Irecv(g, 1, recv_face[2 * d + 1], right, 2 * d + 1, MPI_COMM_WORLD, &reqs[4 * d + 1]);
    MPI_Isend(g, 1, send_face[2 * d + 1], right, 2 * d, MPI_COMM_WORLD, &reqs[4 * d + 2]);
    MPI_Isend(g, 1, send_face[2 * d], left, 2 * d + 1, MPI_COMM_WORLD, &reqs[4 * d + 3]);
  }
  MPI_Waitall(12, reqs, MPI_STATUSES_IGNORE);
  for (x = 0; x < NT; ++x)
    for (y = 0; y < NT; ++y)
      for (z = 0; z < NT; ++z) {
        int c[3] = {x, y, z}, ghost = 0, edge = 0, k;
        double want;
        for (k = 0; k < 3; ++k) {
          if (c[k] == 0 || c[k] == NL + 1) {
            ++ghost;
            d = k;
          }
          if (c[k] < 0 || c[k] > NL + 1) ++edge;
        }
        if (ghost == 0) want = cell(rank, x, y, z);
        else if (ghost > 1 || edge) want = -1.0;
        else {
          int src[3] = {x, y, z};
          src[d] = c[d] == 0 ? NL : 1;
          want = cell(c[d] == 0 ? left : right, src[0], src[1], src[2]);
        }
        if (g[AT(x, y, z)] != want) {
          if (bad < 3) printf("rank %d: face cell (%d,%d,%d) = %g, want %g\n", rank, x, y, z, g[AT(x, y, z)], want);
          ++bad;
        }
      }
  for (d = 0; d < 6; ++d) {
    MPI_Type_free(&send_face[d]);
    MPI_Type_free(&recv_face[d]);
  }
  free(g);
  return bad;
}

static int triangles(int rank, int left, int right) {
  double a[TN][TN], b[TN][TN];
  int len[TN], disp[TN], i, j, bad = 0;
  int ulen[TN - 1] = {5, 4, 3, 2, 1};
  int udisp[TN - 1] = {1, TN + 2, 2 * TN + 3, 3 * TN + 4, 4 * TN + 5};
  MPI_Datatype lower, upper;
  for (i = 0; i < TN; ++i) {
    len[i] = i + 1;
    disp[i] = i * TN;
    for (j = 0; j < TN; ++j) {
      a[i][j] = rank * 100.0 + i * TN + j;
      b[i][j] = -1.0;
    }
  }
  MPI_Type_indexed(TN, len, disp, MPI_DOUBLE, &lower);
  MPI_Type_commit(&lower);
  MPI_Type_indexed(TN - 1, ulen, udisp, MPI_DOUBLE, &upper);
  MPI_Type_commit(&upper);
  /* The lower triangle of mine into the lower triangle of the right rank's b; my strict upper
   * triangle goes left, into the left rank's strict upper triangle. */
  MPI_Sendrecv(a, 1, lower, right, 60, b, 1, lower, left, 60, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(a, 1, upper, left, 61, b, 1, upper, right, 61, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (i = 0; i < TN; ++i)
    for (j = 0; j < TN; ++j) {
      double want = j <= i ? left * 100.0 + i * TN + j : right * 100.0 + i * TN + j;
      if (b[i][j] != want) ++bad;
    }
  /* Pack the lower triangle and check the packed order: row by row. */
  {
    double packed[TN * (TN + 1) / 2];
    int pos = 0, k = 0;
    MPI_Pack(a, 1, lower, packed, (int)sizeof packed, &pos, MPI_COMM_SELF);
    if (pos != (int)sizeof packed) ++bad;
    for (i = 0; i < TN; ++i)
      for (j = 0; j <= i; ++j)
        if (packed[k++] != a[i][j]) ++bad;
  }
  MPI_Type_free(&lower);
  MPI_Type_free(&upper);
  return bad;
}

static int coefficients(int rank, int left, int right) {
  double *cx = malloc(8 * sizeof *cx), *cy = malloc(8 * sizeof *cy), *cz = malloc(8 * sizeof *cz);
  double in[12];
  MPI_Aint addr[3];
  MPI_Datatype three;
  int i, bad = 0;
  for (i = 0; i < 8; ++i) {
    cx[i] = rank + 0.125 * i;
    cy[i] = rank + 10 + 0.125 * i;
    cz[i] = rank + 20 + 0.125 * i;
  }
  /* Four coefficients from the middle of each array. */
  MPI_Get_address(&cx[2], &addr[0]);
  MPI_Get_address(&cy[2], &addr[1]);
  MPI_Get_address(&cz[2], &addr[2]);
  MPI_Type_create_hindexed_block(3, 4, addr, MPI_DOUBLE, &three);
  MPI_Type_commit(&three);
  MPI_Sendrecv(MPI_BOTTOM, 1, three, right, 70, in, 12, MPI_DOUBLE, left, 70, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  for (i = 0; i < 12; ++i)
    if (in[i] != left + 10 * (i / 4) + 0.125 * (2 + i % 4)) ++bad;
  /* And back into the arrays of the receiver (positions 2..5 again). */
  for (i = 0; i < 8; ++i) cx[i] = cy[i] = cz[i] = -1.0;
  MPI_Sendrecv(in, 12, MPI_DOUBLE, left, 71, MPI_BOTTOM, 1, three, right, 71, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  for (i = 0; i < 8; ++i) {
    double w = (i >= 2 && i < 6) ? rank + 0.125 * i : -1.0;
    if (cx[i] != w || cy[i] != (w < 0 ? -1.0 : w + 10) || cz[i] != (w < 0 ? -1.0 : w + 20)) ++bad;
  }
  MPI_Type_free(&three);
  free(cx);
  free(cy);
  free(cz);
  return bad;
}

static int darray_gather(int rank, int size) {
  int gsizes[2] = {GR, GC};
  int distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK};
  int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
  int psizes[2] = {2, 2};
  double global[GR * GC], mine[GR * GC];
  MPI_Datatype mytype;
  int i, n, tsize, bad = 0, r;
  for (i = 0; i < GR * GC; ++i) {
    global[i] = -1.0;
    mine[i] = 1000.0 + i; /* a full-size local copy: the darray selects this rank's part */
  }
  MPI_Type_create_darray(size, rank, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_DOUBLE,
                         &mytype);
  MPI_Type_commit(&mytype);
  MPI_Type_size(mytype, &tsize);
  n = tsize / (int)sizeof(double);
  /* Each rank sends its part packed (contiguous); rank 0 unpacks it with that rank's darray. */
  {
    double *packed = malloc((size_t)tsize);
    int pos = 0;
    MPI_Pack(mine, 1, mytype, packed, tsize, &pos, MPI_COMM_WORLD);
    if (rank != 0) MPI_Send(packed, n, MPI_DOUBLE, 0, 80, MPI_COMM_WORLD);
    if (rank == 0) {
      for (r = 0; r < size; ++r) {
        MPI_Datatype rt;
        MPI_Status st;
        int cnt;
        MPI_Type_create_darray(size, r, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                               MPI_DOUBLE, &rt);
        MPI_Type_commit(&rt);
        if (r == 0)
          MPI_Sendrecv(packed, n, MPI_DOUBLE, 0, 81, global, 1, rt, 0, 81, MPI_COMM_SELF, &st);
        else
          MPI_Recv(global, 1, rt, r, 80, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, rt, &cnt);
        if (cnt != 1) ++bad;
        MPI_Type_free(&rt);
      }
      for (i = 0; i < GR * GC; ++i)
        if (global[i] != 1000.0 + i) ++bad;
      printf("darray blocks gathered: row sums");
      for (i = 0; i < GR; ++i) {
        double s = 0;
        int j;
        for (j = 0; j < GC; ++j) s += global[i * GC + j];
        printf(" %.0f", s);
      }
      printf("\n");
    }
    free(packed);
  }
  MPI_Type_free(&mytype);
  return bad;
}

int main(int argc, char **argv) {
  int rank, size, left, right, bad[4], all[16], k, r, status = 0;
  const char *names[4] = {"faces", "triangles", "coefficients", "darray"};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 4) MPI_Abort(MPI_COMM_WORLD, 1);
  left = (rank + size - 1) % size;
  right = (rank + 1) % size;
  bad[0] = faces(rank, left, right);
  bad[1] = triangles(rank, left, right);
  bad[2] = coefficients(rank, left, right);
  bad[3] = darray_gather(rank, size);
  MPI_Gather(bad, 4, MPI_INT, all, 4, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (k = 0; k < 4; ++k) {
      int s = 0;
      for (r = 0; r < size; ++r) s += all[4 * r + k];
      printf("%-13s %s (%d)\n", names[k], s == 0 ? "ok" : "FAILED", s);
      if (s) status = 1;
    }
  }
  MPI_Finalize();
  return status;
}
