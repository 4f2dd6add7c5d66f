#include <mpi.h>
#include <stdio.h>
/* Called from a Fortran main (fortran.test): sends column 2 of a 4x4 row-major matrix to the
   other rank and prints what it received. */
void exchange_column_(void) {
  int rank;
  double m[4][4], got[4];
  MPI_Datatype col;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) m[i][j] = 100 * rank + 10 * i + j;
  MPI_Type_vector(4, 1, 4, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Sendrecv(&m[0][2], 1, col, 1 - rank, 0, got, 4, MPI_DOUBLE, 1 - rank, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  printf("rank %d got %.0f %.0f %.0f %.0f\n", rank, got[0], got[1], got[2], got[3]);
  MPI_Type_free(&col);
}
