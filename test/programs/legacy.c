/* An old-style code as still found in the wild: no <stdlib.h> or <string.h> (gcc warns about
 * the implicit declarations and builds it), an old-style (K&R) function definition, and a
 * strided boundary exchange between rank pairs.
 * NP: 4 */
#include <stdio.h>
#include "mpi.h"

#define NX 16
#define NY 6

double weight(i, j)
int i, j;
{
  return (double)((i * 7 + j * 3) % 5 + 1);
}

int main(argc, argv)
int argc;
char **argv;
{
  int rank, size, partner, i, j, n;
  double *u;
  double sum = 0.0, total = 0.0;
  MPI_Datatype edge;
  MPI_Status status;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  n = argc > 1 ? atoi(argv[1]) : 2;
  u = (double *)malloc(NX * NY * sizeof(double));
  memset(u, 0, NX * NY * sizeof(double));
  for (i = 0; i < NY; i++)
    for (j = 0; j < NX; j++) u[i * NX + j] = rank + 0.01 * (i * NX + j);

  /* the two rightmost columns */
  MPI_Type_vector(NY, 2, NX, MPI_DOUBLE, &edge);
  MPI_Type_commit(&edge);
  partner = rank ^ 1;
  if (partner < size) {
    if (rank < partner) {
      MPI_Send(&u[NX - 2], 1, edge, partner, 99, MPI_COMM_WORLD);
      MPI_Recv(&u[0], 1, edge, partner, 99, MPI_COMM_WORLD, &status);
    } else {
      MPI_Recv(&u[0], 1, edge, partner, 99, MPI_COMM_WORLD, &status);
      MPI_Send(&u[NX - 2], 1, edge, partner, 99, MPI_COMM_WORLD);
    }
  }
  for (i = 0; i < NY; i++)
    for (j = 0; j < NX; j++) sum += u[i * NX + j] * weight(i, j);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("n = %d, total = %.4f\n", n, total);
  MPI_Type_free(&edge);
  free(u);
  MPI_Finalize();
  return 0;
}
