/* A program with its own PMPI profiling wrapper of MPI_Send, counting calls and bytes, as codes
 * instrument themselves: tempi-cc leaves every call of the file to the MPI (a tempi_Send would go
 * around the wrapper), so both builds print the same counts.
 * NP: 2 */
#include <mpi.h>
#include <stdio.h>

static int sends = 0;
static long long bytes = 0;

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  int size;
  PMPI_Type_size(type, &size);
  ++sends;
  bytes += (long long)count * size;
  return PMPI_Send(buf, count, type, dest, tag, comm);
}

int main(int argc, char **argv) {
  int rank, i;
  double a[40], b[40];
  MPI_Datatype col;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (i = 0; i < 40; ++i) a[i] = i;
  MPI_Type_vector(8, 1, 5, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  if (rank == 0) {
    MPI_Send(a, 1, col, 1, 0, MPI_COMM_WORLD);
    MPI_Send(a, 8, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(b, 8, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(b, 8, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (rank == 0) printf("profiled MPI_Send: %d calls, %lld bytes\n", sends, bytes);
  MPI_Type_free(&col);
  MPI_Finalize();
  return 0;
}
