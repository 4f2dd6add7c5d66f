/* One-sided communication with derived datatypes, as a distributed-matrix code does it: every
 * rank exposes an N x N row-major matrix in a window (MPI_Win_create, displacement unit
 * sizeof(double)). In fence epochs each rank
 *   - MPI_Put's its row 0 (contiguous origin) into column `rank` of its right neighbour
 *     (a column vector as the target type),
 *   - MPI_Get's the main diagonal of its left neighbour (an hvector target type, stride N+1
 *     elements) into a strided local buffer (a vector origin type),
 *   - MPI_Accumulate's (MPI_SUM) a 2 x 3 sub-block (subarray origin and target) into rank 0.
 * Then a passive-target epoch (MPI_Win_lock / MPI_Win_unlock) reads a resized column back from the
 * right neighbour, and the same column type also goes around the ring with MPI_Sendrecv.
 * Every received value is checked against what the sender's initial matrix holds.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 8
#define VAL(r, i, j) ((r) * 1000.0 + (i) * N + (j))

/* Rank r's matrix after the two fence epochs. */
static double final_value(int r, int size, int i, int j) {
  int left = (r + size - 1) % size, q;
  double v;
  if (j == left) return VAL(left, 0, i);
  v = VAL(r, i, j);
  if (r == 0 && i >= 4 && i < 6 && j >= 4 && j < 7)
    for (q = 0; q < size; ++q) v += VAL(q, i - 3, j);
  return v;
}

int main(int argc, char **argv) {
  int rank, size, right, left, i, j, bad = 0, total = 0;
  double *mat, diag[2 * N], rowbuf[N], colbuf[N], other[N * N], two[2 * N];
  int sizes[2] = {N, N}, sub[2] = {2, 3}, start_o[2] = {1, 4}, start_t[2] = {4, 4};
  MPI_Datatype column, diag_t, strided, block_o, block_t, colres;
  MPI_Aint lb, ext;
  MPI_Win win;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;

  MPI_Alloc_mem((MPI_Aint)(N * N * sizeof(double)), MPI_INFO_NULL, &mat);
  for (i = 0; i < N; ++i)
    for (j = 0; j < N; ++j) mat[i * N + j] = VAL(rank, i, j);
  for (i = 0; i < 2 * N; ++i) diag[i] = -1.0;

  MPI_Type_vector(N, 1, N, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  MPI_Type_create_hvector(N, 1, (MPI_Aint)((N + 1) * sizeof(double)), MPI_DOUBLE, &diag_t);
  MPI_Type_commit(&diag_t);
  MPI_Type_vector(N, 1, 2, MPI_DOUBLE, &strided);
  MPI_Type_commit(&strided);
  MPI_Type_create_subarray(2, sizes, sub, start_o, MPI_ORDER_C, MPI_DOUBLE, &block_o);
  MPI_Type_commit(&block_o);
  MPI_Type_create_subarray(2, sizes, sub, start_t, MPI_ORDER_C, MPI_DOUBLE, &block_t);
  MPI_Type_commit(&block_t);
  MPI_Type_create_resized(column, 0, (MPI_Aint)sizeof(double), &colres);
  MPI_Type_commit(&colres);
  MPI_Type_get_extent(colres, &lb, &ext);
  if (lb != 0 || ext != (MPI_Aint)sizeof(double)) ++bad;

  MPI_Win_create(mat, (MPI_Aint)(N * N * sizeof(double)), (int)sizeof(double), MPI_INFO_NULL,
                 MPI_COMM_WORLD, &win);

  /* Epoch 1: gets only (the matrix is still the initial one everywhere). */
  for (i = 0; i < N; ++i) rowbuf[i] = mat[i];
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  MPI_Get(diag, 1, strided, left, 0, 1, diag_t, win);
  MPI_Win_fence(0, win);
  for (i = 0; i < N; ++i) {
    if (diag[2 * i] != VAL(left, i, i)) ++bad;
    if (diag[2 * i + 1] != -1.0) ++bad;
  }

  /* Epoch 2: puts and accumulates (targets disjoint from what is read locally afterwards). */
  MPI_Put(rowbuf, N, MPI_DOUBLE, right, rank % N, 1, column, win);
  MPI_Accumulate(mat, 1, block_o, 0, 0, 1, block_t, MPI_SUM, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);

  /* Column `left` of my matrix now holds the left neighbour's row 0; columns 0..3 otherwise
   * keep their values (the accumulate only touches rows 4..5, columns 4..6 of rank 0). */
  for (i = 0; i < N; ++i)
    for (j = 0; j < 4; ++j) {
      double want = (j == left) ? VAL(left, 0, i) : VAL(rank, i, j);
      if (mat[i * N + j] != want) {
        if (bad < 3) printf("rank %d: (%d,%d) = %g, want %g\n", rank, i, j, mat[i * N + j], want);
        ++bad;
      }
    }
  if (rank == 0) {
    /* The 2 x 3 block at (4,4) got the sum of every rank's block at (1,4). */
    for (i = 0; i < 2; ++i)
      for (j = 0; j < 3; ++j) {
        double want = VAL(0, 4 + i, 4 + j), got = mat[(4 + i) * N + 4 + j];
        int r;
        for (r = 0; r < size; ++r) want += VAL(r, 1 + i, 4 + j);
        if (got != want) {
          printf("accumulate (%d,%d) = %g, want %g\n", i, j, got, want);
          ++bad;
        }
      }
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* Passive target: read column 7 of the right neighbour, which nobody writes. */
  MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
  MPI_Get(colbuf, N, MPI_DOUBLE, right, 7, 1, column, win);
  MPI_Win_unlock(right, win);
  for (i = 0; i < N; ++i)
    if (colbuf[i] != VAL(right, i, 7)) {
      printf("rank %d: passive get [%d] = %g\n", rank, i, colbuf[i]);
      ++bad;
    }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);

  /* The same column type around the ring: my column 7 into column 2 of the neighbour's copy. */
  for (i = 0; i < N * N; ++i) other[i] = -1.0;
  MPI_Sendrecv(mat + 7, 1, column, right, 7, other + 2, 1, column, left, 7, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  for (i = 0; i < N; ++i)
    for (j = 0; j < N; ++j) {
      double want = (j == 2) ? VAL(left, i, 7) : -1.0;
      if (other[i * N + j] != want) ++bad;
    }
  /* Two adjacent columns with the resized type (count 2) into a contiguous buffer. */
  MPI_Sendrecv(mat + 4, 2, colres, right, 8, two, 2 * N, MPI_DOUBLE, left, 8, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  for (j = 0; j < 2; ++j)
    for (i = 0; i < N; ++i)
      if (two[j * N + i] != final_value(left, size, i, 4 + j)) {
        printf("rank %d: resized column %d row %d = %g\n", rank, 4 + j, i, two[j * N + i]);
        ++bad;
      }

  MPI_Reduce(&bad, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("diagonal of rank %d: %g %g %g\n", left, diag[0], diag[2], diag[2 * N - 2]);
    printf("block at (4,4): %g %g\n", mat[4 * N + 4], mat[5 * N + 6]);
    printf("%s (%d errors)\n", total == 0 ? "OK" : "FAILED", total);
  }
  MPI_Type_free(&column);
  MPI_Type_free(&diag_t);
  MPI_Type_free(&strided);
  MPI_Type_free(&block_o);
  MPI_Type_free(&block_t);
  MPI_Type_free(&colres);
  MPI_Free_mem(mat);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
