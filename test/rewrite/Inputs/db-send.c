/* Input of compile-database.test: built with mpicc, so no -I for mpi.h is recorded. */
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
