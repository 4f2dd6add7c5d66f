/* Cannon's matrix multiplication C = A * B on a periodic Q x Q process torus, as dense linear
 * algebra codes write it:
 *  - rank 0 holds the GN x GN matrices; each rank keeps its BS x BS blocks in arrays padded to a
 *    leading dimension LDA > BS, so the local block is a vector type (from a `#define` and an
 *    enum); the global block is a subarray of the GN x GN matrix resized to BS doubles (built by
 *    a helper into an `MPI_Datatype *`), so MPI_Scatterv displacements count block columns;
 *  - A and B are scattered with MPI_Scatterv (send: the resized global block; receive: the
 *    padded local block), skewed with MPI_Sendrecv_replace by a distance computed from the
 *    coordinates, then Q multiply-and-shift steps, each shifting A one left and B one up around
 *    the torus with MPI_Sendrecv_replace; the sender's tag encodes the step and the sender's
 *    coordinate, the receive uses MPI_ANY_TAG and checks the tag and source from the status;
 *    after every shift the block held is checked against the global formula;
 *  - C comes back to rank 0 with MPI_Gatherv (same two types) and is compared with a serial
 *    product; rank 0 updates it and sends it out again with MPI_Scatterv;
 *  - MPI_Bcast of two columns of C (a vector type from `const int`s) and MPI_Allgather of each
 *    rank's block diagonal (a vector with stride LDA + 1) and of its first block column into
 *    column r of a BS x P matrix (a column vector resized to one double);
 *  - a block transpose with MPI_Sendrecv: the padded block sent to the mirror rank, received
 *    through an hvector of columns one double apart, so it lands transposed.
 * Every value is an integer held exactly in a double; every received value is checked.
 * NP: 9
 * CFLAGS: -std=c89 -pedantic -Wall -Wextra -Werror -Wno-stringop-overflow */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define Q 3          /* process grid Q x Q */
#define BS 4         /* block order */
#define GN (Q * BS)  /* global order */
#define P (Q * Q)
enum { LDA = BS + 2 }; /* padded leading dimension of the local blocks */
#define AV(i, j) ((double)(((i) + 2 * (j)) % 7 - 3))
#define BV(i, j) ((double)(((3 * (i) + (j)) % 5) - 2))
#define TAG_A(step, col) (1000 + 16 * (step) + (col))
#define TAG_B(step, row) (5000 + 16 * (step) + (row))

static double A[GN][GN], B[GN][GN], C[GN][GN], Cref[GN][GN];
static double a[BS][LDA], b[BS][LDA], c[BS][LDA];

static double cval(int i, int j) {
  double s = 0.0;
  int k;
  for (k = 0; k < GN; ++k) s += AV(i, k) * BV(k, j);
  return s;
}

/* The BS x BS block at the origin of a GN x GN matrix, its extent one block row of BS doubles. */
static void make_global_block(MPI_Datatype *out) {
  int sizes[2] = {GN, GN}, sub[2] = {BS, BS}, start[2] = {0, 0};
  MPI_Datatype t;
  MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &t);
  MPI_Type_create_resized(t, 0, BS * sizeof(double), out);
  MPI_Type_commit(out);
  MPI_Type_free(&t);
}

/* Errors in local block m against the global block (bi, bj) of the matrix f picks. */
static int check_block(double m[BS][LDA], int which, int bi, int bj) {
  int i, j, errs = 0;
  for (i = 0; i < BS; ++i)
    for (j = 0; j < BS; ++j) {
      int gi = bi * BS + i, gj = bj * BS + j;
      double want = which == 0 ? AV(gi, gj) : which == 1 ? BV(gi, gj) : cval(gi, gj);
      errs += m[i][j] != want;
    }
  for (i = 0; i < BS; ++i)
    for (j = BS; j < LDA; ++j) errs += m[i][j] != -7.0; /* the padding is never written */
  return errs;
}

static int shift(double m[BS][LDA], MPI_Datatype blk, MPI_Comm cart, int dim, int dist, int tag_of,
                 int step, const int coords[2]) {
  int src, dst, scoords[2], errs = 0, want_tag;
  MPI_Status st;
  MPI_Cart_shift(cart, dim, -dist, &src, &dst);
  MPI_Sendrecv_replace(m, 1, blk, dst, tag_of ? TAG_B(step, coords[0]) : TAG_A(step, coords[1]),
                       src, MPI_ANY_TAG, cart, &st);
  MPI_Cart_coords(cart, src, 2, scoords);
  want_tag = tag_of ? TAG_B(step, scoords[0]) : TAG_A(step, scoords[1]);
  errs += st.MPI_SOURCE != src;
  errs += st.MPI_TAG != want_tag;
  return errs;
}

int main(int argc, char **argv) {
  int rank, size, r, i, j, k, step, errs = 0, all = 0;
  int dims[2] = {Q, Q}, periods[2] = {1, 1}, coords[2], rc[2];
  int counts[P], displs[P];
  double diags[P][BS], cols[BS][P], stripe[GN][GN], sum = 0.0;
  MPI_Comm cart;
  MPI_Datatype blk, gblk, diag, firstcol, colr, col, twocols;
  const int ncols = 2, ldg = GN;

  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != P) {
    fprintf(stderr, "run with %d ranks\n", P);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart);
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 2, coords);

  MPI_Type_vector(BS, BS, LDA, MPI_DOUBLE, &blk);
  MPI_Type_commit(&blk);
  make_global_block(&gblk);
  MPI_Type_vector(BS, 1, LDA + 1, MPI_DOUBLE, &diag);
  MPI_Type_commit(&diag);
  MPI_Type_vector(BS, 1, LDA, MPI_DOUBLE, &firstcol);
  MPI_Type_commit(&firstcol);
  MPI_Type_vector(BS, 1, P, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, sizeof(double), &colr);
  MPI_Type_commit(&colr);
  MPI_Type_vector(GN, ncols, ldg, MPI_DOUBLE, &twocols);
  MPI_Type_commit(&twocols);

  if (rank == 0)
    for (i = 0; i < GN; ++i)
      for (j = 0; j < GN; ++j) {
        A[i][j] = AV(i, j);
        B[i][j] = BV(i, j);
        C[i][j] = -1.0;
        Cref[i][j] = 0.0;
        for (k = 0; k < GN; ++k) Cref[i][j] += AV(i, k) * BV(k, j);
      }
  for (r = 0; r < P; ++r) {
    MPI_Cart_coords(cart, r, 2, rc);
    counts[r] = 1;
    displs[r] = rc[0] * GN + rc[1]; /* block (i, j) starts BS * (i * GN + j) doubles in */
  }
  for (i = 0; i < BS; ++i)
    for (j = 0; j < LDA; ++j) a[i][j] = b[i][j] = c[i][j] = j < BS ? -1.0 : -7.0;

  /* Distribute, then skew: A row i left by i, B column j up by j. */
  MPI_Scatterv(A, counts, displs, gblk, a, 1, blk, 0, cart);
  MPI_Scatterv(B, counts, displs, gblk, b, 1, blk, 0, cart);
  errs += check_block(a, 0, coords[0], coords[1]);
  errs += check_block(b, 1, coords[0], coords[1]);
  errs += shift(a, blk, cart, 1, coords[0], 0, 0, coords);
  errs += shift(b, blk, cart, 0, coords[1], 1, 0, coords);
  errs += check_block(a, 0, coords[0], (coords[0] + coords[1]) % Q);
  errs += check_block(b, 1, (coords[0] + coords[1]) % Q, coords[1]);

  for (i = 0; i < BS; ++i)
    for (j = 0; j < BS; ++j) c[i][j] = 0.0;
  for (step = 1; step <= Q; ++step) {
    int kk = (coords[0] + coords[1] + step) % Q;
    for (i = 0; i < BS; ++i)
      for (j = 0; j < BS; ++j)
        for (k = 0; k < BS; ++k) c[i][j] += a[i][k] * b[k][j];
    errs += shift(a, blk, cart, 1, 1, 0, step, coords);
    errs += shift(b, blk, cart, 0, 1, 1, step, coords);
    errs += check_block(a, 0, coords[0], kk);
    errs += check_block(b, 1, kk, coords[1]);
  }
  errs += check_block(c, 2, coords[0], coords[1]);

  /* Collect C, compare with the serial product, update it and send it out again. */
  MPI_Gatherv(c, 1, blk, C, counts, displs, gblk, 0, cart);
  if (rank == 0) {
    for (i = 0; i < GN; ++i)
      for (j = 0; j < GN; ++j) {
        errs += C[i][j] != Cref[i][j];
        sum += C[i][j] * ((i * 7 + j) % 11 + 1);
        C[i][j] = 2.0 * C[i][j] + i - j;
      }
  }
  for (i = 0; i < BS; ++i)
    for (j = 0; j < BS; ++j) c[i][j] = -1.0;
  MPI_Scatterv(C, counts, displs, gblk, c, 1, blk, 0, cart);
  for (i = 0; i < BS; ++i)
    for (j = 0; j < LDA; ++j) {
      int gi = coords[0] * BS + i, gj = coords[1] * BS + j;
      errs += c[i][j] != (j < BS ? 2.0 * cval(gi, gj) + gi - gj : -7.0);
    }

  /* Transpose: block (i, j) goes to (j, i) and is received transposed, into a column type
   * repeated one double apart (an hvector of columns), as a distributed transpose does it. */
  {
    MPI_Datatype colt, tblk;
    MPI_Status st;
    int partner, pc[2], cnt = -1;
    pc[0] = coords[1];
    pc[1] = coords[0];
    MPI_Type_vector(BS, 1, LDA, MPI_DOUBLE, &colt);
    MPI_Type_create_hvector(BS, 1, sizeof(double), colt, &tblk);
    MPI_Type_commit(&tblk);
    MPI_Cart_rank(cart, pc, &partner);
    MPI_Sendrecv(c, 1, blk, partner, TAG_A(Q + 1, coords[1]), a, 1, tblk, partner, MPI_ANY_TAG,
                 cart, &st);
    MPI_Get_count(&st, tblk, &cnt);
    errs += cnt != 1 || st.MPI_SOURCE != partner || st.MPI_TAG != TAG_A(Q + 1, coords[0]);
    for (i = 0; i < BS; ++i)
      for (j = 0; j < LDA; ++j) {
        int gr = coords[1] * BS + j, gc = coords[0] * BS + i;
        errs += a[i][j] != (j < BS ? 2.0 * cval(gr, gc) + gr - gc : -7.0);
      }
    MPI_Type_free(&colt);
    MPI_Type_free(&tblk);
  }

  /* Two columns of the updated C broadcast into a matrix of -1, in place. */
  for (i = 0; i < GN; ++i)
    for (j = 0; j < GN; ++j) stripe[i][j] = rank == 0 ? C[i][j] : -1.0;
  MPI_Bcast(&stripe[0][GN - 2], 1, twocols, 0, cart);
  for (i = 0; i < GN; ++i)
    for (j = 0; j < GN; ++j) {
      double want = (rank == 0 || j >= GN - ncols) ? 2.0 * cval(i, j) + i - j : -1.0;
      errs += stripe[i][j] != want;
    }

  /* Every rank's block diagonal, and its first block column into column r of cols. */
  MPI_Allgather(c, 1, diag, diags, BS, MPI_DOUBLE, cart);
  MPI_Allgather(c, 1, firstcol, cols, 1, colr, cart);
  for (r = 0; r < P; ++r) {
    MPI_Cart_coords(cart, r, 2, rc);
    for (i = 0; i < BS; ++i) {
      int gi = rc[0] * BS + i, gj = rc[1] * BS;
      errs += diags[r][i] != 2.0 * cval(gi, gj + i) + gi - (gj + i);
      errs += cols[i][r] != 2.0 * cval(gi, gj) + gi - gj;
      sum += (diags[r][i] + 3.0 * cols[i][r]) * (rank == 0);
    }
  }

  MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_INT, MPI_SUM, cart);
  all = errs;
  if (rank == 0) {
    printf("Cannon on a %d x %d torus, blocks %d x %d (padded to %d), global %d x %d\n", Q, Q, BS,
           BS, LDA, GN, GN);
    printf("C[0][0] %.0f C[%d][%d] %.0f checksum %.0f\n", Cref[0][0], GN - 1, GN - 1,
           Cref[GN - 1][GN - 1], sum);
    printf("errors %d: %s\n", all, all ? "WRONG" : "ok");
  }
  MPI_Type_free(&blk);
  MPI_Type_free(&gblk);
  MPI_Type_free(&diag);
  MPI_Type_free(&firstcol);
  MPI_Type_free(&col);
  MPI_Type_free(&colr);
  MPI_Type_free(&twocols);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return all ? 1 : 0;
}
