/* Does not compile (undeclared identifier), and calls MPI_Send so tempi-cc runs the tool. */
#include <mpi.h>
int f(double *a, MPI_Comm comm) { return MPI_Send(a, 1, no_such_type, 1, 0, comm); }
