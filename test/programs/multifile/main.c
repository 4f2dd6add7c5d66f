/* Multi-file program (compiled with -c per file, then linked): faces from a header helper, a
 * library function taking datatypes as parameters, MPI_Type_create_darray to gather a
 * block-cyclic matrix, and an hvector of a struct member.
 * NP: 4 */
#include <stdio.h>
#include <stdlib.h>
#include "grid.h"

struct cell { double rho; double e; int flag; };

int main(int argc, char **argv) {
  int rank, size, peer, i, j;
  double *g, res[4], *all = NULL;
  MPI_Datatype xlo, xhi_halo, zlo, zhi_halo, dar, rho_t;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  peer = rank ^ 1;
  if (peer >= size) peer = rank;

  g = malloc(sizeof(double) * LT * LT * LT);
  for (i = 0; i < LT * LT * LT; ++i) g[i] = rank * 1000.0 + i;

  /* Faces from the header helper, used directly here and through the library. */
  xlo = make_face(0, 1);
  xhi_halo = make_face(0, LN + 1);
  zlo = make_face(2, 1);
  zhi_halo = make_face(2, LN + 1);
  MPI_Sendrecv(g, 1, xlo, peer, 20, g, 1, xhi_halo, peer, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  res[0] = weighted(g, LT * LT * LT);
  exchange_with(g, zlo, zhi_halo, peer, MPI_COMM_WORLD);
  res[1] = weighted(g, LT * LT * LT);

  /* darray: the GN x GN matrix distributed block-cyclic (2) over a 2 x (size/2) grid. */
  {
    int gsizes[2] = {GN, GN}, distribs[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_CYCLIC};
    int dargs[2] = {2, 2}, psizes[2] = {2, 2};
    double global[GN * GN], mine[GN * GN];
    int tsize, k;
    if (size != 4) MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < GN * GN; ++i) global[i] = i;
    MPI_Type_create_darray(4, rank, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_DOUBLE, &dar);
    MPI_Type_commit(&dar);
    MPI_Type_size(dar, &tsize);
    /* Each rank packs its own part of the global matrix to rank 0, which prints it. */
    if (rank != 0) {
      MPI_Send(global, 1, dar, 0, 30, MPI_COMM_WORLD);
    } else {
      for (k = 1; k < size; ++k) {
        int n;
        MPI_Status st;
        MPI_Recv(mine, GN * GN, MPI_DOUBLE, k, 30, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_DOUBLE, &n);
        printf("darray part of rank %d (%d doubles, type size %d):", k, n, tsize);
        for (j = 0; j < n; ++j) printf(" %.0f", mine[j]);
        printf("\n");
      }
    }
    MPI_Type_free(&dar);
  }

  /* hvector picking one member from an array of structs. */
  {
    struct cell cells[10], back[10];
    for (i = 0; i < 10; ++i) {
      cells[i].rho = rank + 0.5 * i;
      cells[i].e = -i;
      cells[i].flag = i;
      back[i].rho = back[i].e = 0.0;
      back[i].flag = 0;
    }
    MPI_Type_create_hvector(10, 1, sizeof(struct cell), MPI_DOUBLE, &rho_t);
    MPI_Type_commit(&rho_t);
    MPI_Sendrecv(cells, 1, rho_t, peer, 40, back, 1, rho_t, peer, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    res[2] = 0.0;
    for (i = 0; i < 10; ++i) res[2] += back[i].rho * (i + 1) + back[i].e + back[i].flag;
    res[3] = 0.0;
    for (i = 0; i < 10; ++i) res[3] += back[i].rho * i * i;
    MPI_Type_free(&rho_t);
  }

  if (rank == 0) all = malloc(sizeof(double) * 4 * size);
  MPI_Gather(res, 4, MPI_DOUBLE, all, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (i = 0; i < size; ++i)
      printf("rank %d: x-face %.1f z-face %.1f hvector %.2f %.2f\n", i, all[4 * i], all[4 * i + 1],
             all[4 * i + 2], all[4 * i + 3]);
  MPI_Type_free(&xlo);
  MPI_Type_free(&xhi_halo);
  MPI_Type_free(&zlo);
  MPI_Type_free(&zhi_halo);
  free(g);
  free(all);
  MPI_Finalize();
  return 0;
}
