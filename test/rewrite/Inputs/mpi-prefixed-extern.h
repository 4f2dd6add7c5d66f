/* A datatype of another file, named with the MPI_ prefix (test/rewrite/reason-mpi-prefixed-global.c). */
#include <mpi.h>
extern MPI_Datatype MPI_Elsewhere;
