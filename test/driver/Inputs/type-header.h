/* A user header that builds a datatype: a source including it has a constructor call in its
 * preprocessed text although its own text spells none (test/driver/prescan.test). The constructor
 * is compiled only with -DUSE_TYPES. */
#include <mpi.h>
#ifdef USE_TYPES
static inline MPI_Datatype make_pair(void) {
  MPI_Datatype t;
  MPI_Type_contiguous(2, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}
#else
static inline MPI_Datatype make_pair(void) { return MPI_DOUBLE; }
#endif
