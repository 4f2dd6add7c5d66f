/* An old-style code as still found in the wild: no <stdlib.h> or <string.h> (gcc warns about
 * the implicit declarations and builds it), old-style (K&R) function definitions, implicit int,
 * `return;` in a function returning int, a function pointer of a mismatched type, and a strided
 * boundary exchange between rank pairs. Clang makes most of these errors by default; tempi-rewrite
 * downgrades them to warnings, so the exchange is still rewritten. GCC nested functions, the one
 * construct clang cannot parse at all, are in legacy_nested.c, which falls back.
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

static scaled(v)
int v;
{
  return 2 * v;
}

static int report(rank, total)
int rank;
double total;
{
  if (rank != 0)
    return;
  printf("total = %.4f\n", total);
  return 0;
}

typedef long (*long_fn)(long);

int main(argc, argv)
int argc;
char **argv;
{
  int rank, size, partner, i, j, n;
  double *u;
  double sum = 0.0, total = 0.0;
  long_fn half = (long_fn)0;
  int (*rep)() = report;
  MPI_Datatype edge;
  MPI_Status status;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  n = argc > 1 ? atoi(argv[1]) : scaled(1);
  half = scaled; /* int (*)(int) as long (*)(long): gcc warns, clang errors by default */
  if (half == 0) n = 0;
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
  if (rank == 0) printf("n = %d\n", n);
  rep(rank, total);
  MPI_Type_free(&edge);
  free(u);
  MPI_Finalize();
  return 0;
}
