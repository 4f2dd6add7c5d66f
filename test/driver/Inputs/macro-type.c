/* Builds its type through MAKE_TYPE, which the command line defines (-D): only the preprocessed
 * text shows the constructor. */
#include <mpi.h>
int send_row(int *a, MPI_Comm comm) {
  MPI_Datatype t;
  MAKE_TYPE(t);
  return MPI_Send(a, 1, t, 1, 0, comm);
}
