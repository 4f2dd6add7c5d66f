/* Two faces of a small 3-D grid sent from rank 0 to rank 1 with derived datatypes (a vector and
 * a subarray); rank 1 prints what it received. The output of a tempi-cc build must equal the
 * output of the same source built with mpicc. */
#include <mpi.h>
#include <stdio.h>

#define N 6

int main(int argc, char **argv) {
  static double grid[N][N][N];
  int rank, size;
  int sizes[3] = {N, N, N}, sub[3] = {N, N, 1}, starts[3] = {0, 0, N - 1};
  MPI_Datatype xface, zface;
  MPI_Comm comm;
  MPI_Status status;
  MPI_Init(&argc, &argv);
  comm = MPI_COMM_WORLD;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < N; ++k)
        grid[i][j][k] = rank == 0 ? 100 * i + 10 * j + k : -1;
  MPI_Type_vector(N * N, 1, N, MPI_DOUBLE, &xface);
  MPI_Type_commit(&xface);
  MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, &zface);
  MPI_Type_commit(&zface);
  if (rank == 0) {
    MPI_Send(grid, 1, xface, 1, 0, comm);
    MPI_Send(grid, 1, zface, 1, 1, comm);
  } else if (rank == 1) {
    MPI_Recv(grid, 1, xface, 0, 0, comm, &status);
    MPI_Recv(grid, 1, zface, 0, 1, comm, &status);
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) {
        for (int k = 0; k < N; ++k)
          printf(" %g", grid[i][j][k]);
        printf("\n");
      }
  }
  MPI_Type_free(&xface);
  MPI_Type_free(&zface);
  MPI_Finalize();
  return size < 2;
}
