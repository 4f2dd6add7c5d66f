/* Does not compile (undeclared identifier); builds a type and calls MPI_Send, so tempi-cc runs the tool. */
#include <mpi.h>
int f(double *a, MPI_Comm comm) { MPI_Datatype t; MPI_Type_contiguous(2, MPI_DOUBLE, &t); return MPI_Send(a, 1, no_such_type, 1, 0, comm); }
