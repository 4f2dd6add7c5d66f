/* Library part of the multi-file program: takes its datatypes as parameters. */
#include "grid.h"

void exchange_with(double *grid, MPI_Datatype send, MPI_Datatype recv, int peer, MPI_Comm comm) {
  MPI_Status st;
  int n;
  MPI_Sendrecv(grid, 1, send, peer, 21, grid, 1, recv, peer, 21, comm, &st);
  MPI_Get_count(&st, recv, &n);
  if (n != 1) MPI_Abort(comm, 3);
}

double weighted(const double *a, int n) {
  double s = 0.0;
  int i;
  for (i = 0; i < n; ++i) s += a[i] * (i % 17 + 1);
  return s;
}
