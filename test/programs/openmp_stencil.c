/* A hybrid MPI + OpenMP stencil (MPI_THREAD_FUNNELED): the grid is split by columns, the
 * OpenMP threads share the update (`parallel for collapse(2)`, a `reduction`), and the column
 * halos (vector types) move inside the parallel region from `#pragma omp master` with
 * MPI_Irecv/MPI_Isend + MPI_Waitall between two `omp barrier`s, then once more with MPI_Sendrecv
 * outside it. Integer arithmetic keeps the result exact: every rank recomputes the whole grid
 * serially and compares its own block. Built with -fopenmp in both builds; pragmas and _OPENMP
 * only (test/driver/openmp-header.test covers <omp.h>). `col` is built before the parallel
 * region and shared in it, so its uses inside and around the region are rewritten.
 * NP: 2
 * CFLAGS: -fopenmp */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROWS 30       /* all rows on every rank; rows 0 and ROWS+1 are a fixed boundary */
#define LC 16         /* columns per rank; the global grid is periodic in columns */
#define ITERS 12
#define MOD 1000003L
#define MAXP 8

static long u[ROWS + 2][LC + 2], un[ROWS + 2][LC + 2];
static long g[ROWS + 2][LC * MAXP], gn[ROWS + 2][LC * MAXP];

static long init(int i, int gj) { return (i == 0 || i == ROWS + 1) ? 7 : (i * 131L + gj * 17L) % 97; }

int main(int argc, char **argv) {
  int provided, rank, size, left, right, it, i, j, ncol, errs = 0, all_errs;
  long sum = 0, sums[MAXP];
  MPI_Datatype col;

  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > MAXP || provided < MPI_THREAD_FUNNELED) MPI_Abort(MPI_COMM_WORLD, 2);
  left = (rank + size - 1) % size;
  right = (rank + 1) % size;
  ncol = LC * size;
  MPI_Type_vector(ROWS + 2, 1, LC + 2, MPI_LONG, &col);
  MPI_Type_commit(&col);

#pragma omp parallel for collapse(2)
  for (i = 0; i < ROWS + 2; ++i)
    for (j = 0; j < LC + 2; ++j) u[i][j] = un[i][j] = init(i, rank * LC + j - 1);

#pragma omp parallel private(it, i, j)
  for (it = 0; it < ITERS; ++it) {
#pragma omp master
    {
      MPI_Request reqs[4];
      MPI_Irecv(&u[0][0], 1, col, left, 1, MPI_COMM_WORLD, &reqs[0]);
      MPI_Irecv(&u[0][LC + 1], 1, col, right, 2, MPI_COMM_WORLD, &reqs[1]);
      MPI_Isend(&u[0][LC], 1, col, right, 1, MPI_COMM_WORLD, &reqs[2]);
      MPI_Isend(&u[0][1], 1, col, left, 2, MPI_COMM_WORLD, &reqs[3]);
      MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
    }
#pragma omp barrier
#pragma omp for collapse(2)
    for (i = 1; i <= ROWS; ++i)
      for (j = 1; j <= LC; ++j)
        un[i][j] = (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] + 3 * u[i][j]) % MOD;
#pragma omp for collapse(2)
    for (i = 1; i <= ROWS; ++i)
      for (j = 1; j <= LC; ++j) u[i][j] = un[i][j];
  }
  /* A last exchange outside the parallel region, so the halos match the final interior. */
  MPI_Sendrecv(&u[0][LC], 1, col, right, 3, &u[0][0], 1, col, left, 3, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(&u[0][1], 1, col, left, 4, &u[0][LC + 1], 1, col, right, 4, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);

  /* The serial reference on the whole periodic grid. */
  for (i = 0; i < ROWS + 2; ++i)
    for (j = 0; j < ncol; ++j) g[i][j] = gn[i][j] = init(i, j);
  for (it = 0; it < ITERS; ++it) {
    for (i = 1; i <= ROWS; ++i)
      for (j = 0; j < ncol; ++j)
        gn[i][j] = (g[i - 1][j] + g[i + 1][j] + g[i][(j + ncol - 1) % ncol] +
                    g[i][(j + 1) % ncol] + 3 * g[i][j]) % MOD;
    for (i = 1; i <= ROWS; ++i)
      for (j = 0; j < ncol; ++j) g[i][j] = gn[i][j];
  }
#pragma omp parallel for collapse(2) reduction(+ : errs, sum)
  for (i = 0; i < ROWS + 2; ++i)
    for (j = 0; j < LC + 2; ++j) {
      int gj = (rank * LC + j - 1 + ncol) % ncol;
      errs += u[i][j] != g[i][gj];
      sum += u[i][j] * ((i + j) % 3 + 1);
    }

  MPI_Gather(&sum, 1, MPI_LONG, sums, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&errs, &all_errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    for (i = 0; i < size; ++i) printf("rank %d checksum %ld\n", i, sums[i]);
#ifdef _OPENMP
    printf("built with OpenMP; ");
#endif
    printf("grid %dx%d after %d steps, errors %d: %s\n", ROWS, ncol, ITERS, all_errs,
           all_errs ? "WRONG" : "ok");
  }
  MPI_Type_free(&col);
  MPI_Finalize();
  return all_errs ? 1 : 0;
}
