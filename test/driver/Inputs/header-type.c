/* Calls MPI_Send with a type from type-header.h; this file spells no type constructor itself. */
#include "type-header.h"
int send_pair(double *a, MPI_Comm comm) { return MPI_Send(a, 1, make_pair(), 1, 0, comm); }
