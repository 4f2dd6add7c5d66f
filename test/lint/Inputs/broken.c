#include <mpi.h>
void f(void) { MPI_Datatype t; MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &t) }
