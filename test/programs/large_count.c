/* MPI-4 large-count interfaces as a code adopting them writes it: `#if MPI_VERSION >= 4` selects
 * the `_c` functions (MPI_Count sizes, counts and displacements), the `#else` branch keeps the int
 * forms. A pair of ranks exchanges a 2-column vector with MPI_Sendrecv_c, a subarray_c block with
 * MPI_Isend_c/MPI_Irecv_c + MPI_Waitall, three resized_c columns with MPI_Send_c/MPI_Recv_c and an
 * hindexed_c of rows; MPI_Get_count_c / MPI_Get_elements_c / MPI_Type_get_extent_c read it back.
 * Every received element is compared with the value computed from its global index.
 * NP: 2 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NR 40 /* rows of the local matrix */
#define NC 24 /* columns */
#define VAL(r, i, j) ((double)((r) * 100000 + (i) * NC + (j)))

#if MPI_VERSION >= 4
typedef MPI_Count count_t;
#else
typedef MPI_Aint count_t;
#endif

static int check(const double *b, int peer, int i0, int i1, int j0, int j1, int si, int sj,
                 long long *sum) {
  /* b[i][j] for i in [i0,i1), j in [j0,j1) must hold peer's a[i+si][j+sj]; the rest -1. */
  int i, j, errs = 0;
  for (i = 0; i < NR; ++i)
    for (j = 0; j < NC; ++j) {
      double want = (i >= i0 && i < i1 && j >= j0 && j < j1) ? VAL(peer, i + si, j + sj) : -1.0;
      if (b[i * NC + j] != want) ++errs;
      *sum += (long long)b[i * NC + j] * ((i + 2 * j) % 7 + 1);
    }
  return errs;
}

int main(int argc, char **argv) {
  int rank, size, peer, i, j, errs = 0, all_errs = 0;
  double *a, *b;
  long long sum = 0, sums[4];
  count_t cnt[4];
  MPI_Datatype col2, blk, col1, cols, rows;
  MPI_Request reqs[2];
  MPI_Status st;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  peer = rank ^ 1;
  a = malloc(sizeof(double) * NR * NC);
  b = malloc(sizeof(double) * NR * NC);
  for (i = 0; i < NR; ++i)
    for (j = 0; j < NC; ++j) a[i * NC + j] = VAL(rank, i, j);

#if MPI_VERSION >= 4
  {
    MPI_Count sizes[2] = {NR, NC}, sub[2] = {8, 6}, start[2] = {2, 4};
    MPI_Count blens[3] = {NC, 2 * NC, NC}, lb, extent;
    MPI_Count disps[3] = {0, 5 * NC * sizeof(double), 20 * NC * sizeof(double)};
    MPI_Type_vector_c(NR, 2, NC, MPI_DOUBLE, &col2);
    MPI_Type_create_subarray_c(2, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &blk);
    MPI_Type_vector_c(NR, 1, NC, MPI_DOUBLE, &col1);
    MPI_Type_create_resized_c(col1, 0, sizeof(double), &cols);
    MPI_Type_create_hindexed_c(3, blens, disps, MPI_DOUBLE, &rows);
    MPI_Type_get_extent_c(cols, &lb, &extent);
    if (lb != 0 || extent != (MPI_Count)sizeof(double)) ++errs;
  }
#else
  {
    int sizes[2] = {NR, NC}, sub[2] = {8, 6}, start[2] = {2, 4}, blens[3] = {NC, 2 * NC, NC};
    MPI_Aint disps[3] = {0, 5 * NC * sizeof(double), 20 * NC * sizeof(double)};
    MPI_Type_vector(NR, 2, NC, MPI_DOUBLE, &col2);
    MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &blk);
    MPI_Type_vector(NR, 1, NC, MPI_DOUBLE, &col1);
    MPI_Type_create_resized(col1, 0, sizeof(double), &cols);
    MPI_Type_create_hindexed(3, blens, disps, MPI_DOUBLE, &rows);
  }
#endif
  MPI_Type_commit(&col2);
  MPI_Type_commit(&blk);
  MPI_Type_commit(&cols);
  MPI_Type_commit(&rows);

  /* 1. Two adjacent columns (3,4) land in columns (10,11). */
  for (i = 0; i < NR * NC; ++i) b[i] = -1.0;
#if MPI_VERSION >= 4
  MPI_Sendrecv_c(&a[3], 1, col2, peer, 1, &b[10], 1, col2, peer, 1, MPI_COMM_WORLD, &st);
  MPI_Get_count_c(&st, col2, &cnt[0]);
#else
  MPI_Sendrecv(&a[3], 1, col2, peer, 1, &b[10], 1, col2, peer, 1, MPI_COMM_WORLD, &st);
  { int c; MPI_Get_count(&st, col2, &c); cnt[0] = c; }
#endif
  errs += check(b, peer, 0, NR, 10, 12, 0, -7, &sum);

  /* 2. The 8x6 block at (2,4), same place on the receiver, non-blocking. */
  for (i = 0; i < NR * NC; ++i) b[i] = -1.0;
#if MPI_VERSION >= 4
  MPI_Irecv_c(b, 1, blk, peer, 2, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend_c(a, 1, blk, peer, 2, MPI_COMM_WORLD, &reqs[1]);
#else
  MPI_Irecv(b, 1, blk, peer, 2, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(a, 1, blk, peer, 2, MPI_COMM_WORLD, &reqs[1]);
#endif
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  errs += check(b, peer, 2, 10, 4, 10, 0, 0, &sum);

  /* 3. Three consecutive columns (count 3 of the resized column), rank 0 -> rank 1 and back. */
  for (i = 0; i < NR * NC; ++i) b[i] = -1.0;
#if MPI_VERSION >= 4
  if (rank == 0) {
    MPI_Send_c(&a[5], 3, cols, peer, 3, MPI_COMM_WORLD);
    MPI_Recv_c(&b[1], 4, cols, peer, 3, MPI_COMM_WORLD, &st);
  } else {
    MPI_Recv_c(&b[1], 4, cols, peer, 3, MPI_COMM_WORLD, &st);
    MPI_Send_c(&a[5], 3, cols, peer, 3, MPI_COMM_WORLD);
  }
  MPI_Get_count_c(&st, cols, &cnt[1]);
  MPI_Get_elements_c(&st, cols, &cnt[2]);
#else
  if (rank == 0) {
    MPI_Send(&a[5], 3, cols, peer, 3, MPI_COMM_WORLD);
    MPI_Recv(&b[1], 4, cols, peer, 3, MPI_COMM_WORLD, &st);
  } else {
    MPI_Recv(&b[1], 4, cols, peer, 3, MPI_COMM_WORLD, &st);
    MPI_Send(&a[5], 3, cols, peer, 3, MPI_COMM_WORLD);
  }
  { int c; MPI_Get_count(&st, cols, &c); cnt[1] = c; MPI_Get_elements(&st, cols, &c); cnt[2] = c; }
#endif
  errs += check(b, peer, 0, NR, 1, 4, 0, 4, &sum);

  /* 4. Rows 0, 5-6 and 20, as an hindexed type, into the same rows of the receiver. */
  for (i = 0; i < NR * NC; ++i) b[i] = -1.0;
#if MPI_VERSION >= 4
  MPI_Sendrecv_c(a, 1, rows, peer, 4, b, 1, rows, peer, 4, MPI_COMM_WORLD, &st);
  MPI_Get_elements_c(&st, MPI_DOUBLE, &cnt[3]);
#else
  MPI_Sendrecv(a, 1, rows, peer, 4, b, 1, rows, peer, 4, MPI_COMM_WORLD, &st);
  { int c; MPI_Get_elements(&st, MPI_DOUBLE, &c); cnt[3] = c; }
#endif
  for (i = 0; i < NR; ++i)
    for (j = 0; j < NC; ++j) {
      double want = (i == 0 || i == 5 || i == 6 || i == 20) ? VAL(peer, i, j) : -1.0;
      if (b[i * NC + j] != want) ++errs;
      sum += (long long)b[i * NC + j] * ((3 * i + j) % 5 + 1);
    }
  if (cnt[0] != 1 || cnt[1] != 3 || cnt[2] != 3 * NR || cnt[3] != 4 * NC) ++errs;

  MPI_Gather(&sum, 1, MPI_LONG_LONG, sums, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&errs, &all_errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    for (i = 0; i < size && i < 4; ++i) printf("rank %d checksum %lld\n", i, sums[i]);
    printf("counts %lld %lld %lld %lld, errors %d: %s\n", (long long)cnt[0], (long long)cnt[1],
           (long long)cnt[2], (long long)cnt[3], all_errs, all_errs ? "WRONG" : "ok");
  }
  MPI_Type_free(&col2);
  MPI_Type_free(&blk);
  MPI_Type_free(&col1);
  MPI_Type_free(&cols);
  MPI_Type_free(&rows);
  free(a);
  free(b);
  MPI_Finalize();
  return all_errs ? 1 : 0;
}
