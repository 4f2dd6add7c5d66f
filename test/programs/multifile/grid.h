/* Shared definitions of the multi-file program: sizes and a header-inline datatype helper. */
#ifndef GRID_H
#define GRID_H
#include <mpi.h>

#define GN 12          /* global rows and columns of the darray-distributed matrix */
#define LN 6           /* local cube edge, without halo */
#define LT (LN + 2)

/* One face of an LT^3 cube, perpendicular to 'dim', at interior layer 'layer'. */
static inline MPI_Datatype make_face(int dim, int layer) {
  MPI_Datatype t;
  int sizes[3] = {LT, LT, LT}, sub[3] = {LN, LN, LN}, start[3] = {1, 1, 1};
  sub[dim] = 1;
  start[dim] = layer;
  MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

void exchange_with(double *grid, MPI_Datatype send, MPI_Datatype recv, int peer, MPI_Comm comm);
double weighted(const double *a, int n);
#endif
