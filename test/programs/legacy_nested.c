/* A GCC nested function (a GNU C extension that clang does not implement) next to a strided
 * exchange: tempi-rewrite cannot parse the file, so tempi-cc warns and compiles it unchanged;
 * with --no-fallback the build fails. The corpus expects that (FALLBACK below): the program must
 * still build and print what the mpicc build prints.
 * FALLBACK: GCC nested functions do not parse with clang (tempi-rewrite fails; compiled unchanged)
 * NP: 2 */
#include <mpi.h>
#include <stdio.h>

#define N 8

int main(int argc, char **argv) {
  int rank, size, i;
  double a[N][N], sum = 0.0, total = 0.0;
  MPI_Datatype col;

  double weight(int i, int j) { return (double)((i * 5 + j * 3) % 7 + 1); }

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (i = 0; i < N * N; ++i) a[i / N][i % N] = rank * 100 + i;
  MPI_Type_vector(N, 1, N, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  if (size >= 2 && rank < 2)
    MPI_Sendrecv_replace(&a[0][rank], 1, col, 1 - rank, 0, 1 - rank, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
  for (i = 0; i < N * N; ++i) sum += a[i / N][i % N] * weight(i / N, i % N);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("total = %.1f\n", total);
  MPI_Type_free(&col);
  MPI_Finalize();
  return 0;
}
