/* 2-D Jacobi on a non-periodic Cartesian grid: row (contiguous) and column (vector) halo types,
 * MPI_Sendrecv halo exchange (edge ranks talk to MPI_PROC_NULL), residual via MPI_Allreduce.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define NX 24          /* interior rows per rank */
#define NY 20          /* interior columns per rank */
#define ITERS 60
#define IDX(i, j) ((i) * (NY + 2) + (j))

int main(int argc, char **argv) {
  int rank, size, dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
  int up, down, left, right, it, i, j;
  MPI_Comm cart;
  MPI_Datatype row, col;
  MPI_Status st[4];
  double *u, *unew, local, resid = 0.0, checksum, *sums = NULL;

  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart);
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 2, coords);
  MPI_Cart_shift(cart, 0, 1, &up, &down);
  MPI_Cart_shift(cart, 1, 1, &left, &right);

  MPI_Type_contiguous(NY, MPI_DOUBLE, &row);
  MPI_Type_commit(&row);
  MPI_Type_vector(NX, 1, NY + 2, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);

  u = calloc((NX + 2) * (NY + 2), sizeof(double));
  unew = calloc((NX + 2) * (NY + 2), sizeof(double));
  for (i = 1; i <= NX; ++i)
    for (j = 1; j <= NY; ++j) {
      int gi = coords[0] * NX + i, gj = coords[1] * NY + j;
      u[IDX(i, j)] = 0.01 * ((gi * 7 + gj * 13) % 17);
    }
  /* Dirichlet boundaries live in the halo of edge ranks and are never overwritten. */
  if (up == MPI_PROC_NULL)
    for (j = 0; j < NY + 2; ++j) u[IDX(0, j)] = unew[IDX(0, j)] = 1.0;
  if (left == MPI_PROC_NULL)
    for (i = 0; i < NX + 2; ++i) u[IDX(i, 0)] = unew[IDX(i, 0)] = 0.5 + 0.01 * (coords[0] * NX + i);
  if (down == MPI_PROC_NULL)
    for (j = 0; j < NY + 2; ++j) u[IDX(NX + 1, j)] = unew[IDX(NX + 1, j)] = -0.25;

  for (it = 0; it < ITERS; ++it) {
    double *tmp;
    MPI_Sendrecv(&u[IDX(1, 1)], 1, row, up, 0, &u[IDX(NX + 1, 1)], 1, row, down, 0, cart, &st[0]);
    MPI_Sendrecv(&u[IDX(NX, 1)], 1, row, down, 1, &u[IDX(0, 1)], 1, row, up, 1, cart, &st[1]);
    MPI_Sendrecv(&u[IDX(1, 1)], 1, col, left, 2, &u[IDX(1, NY + 1)], 1, col, right, 2, cart, &st[2]);
    MPI_Sendrecv(&u[IDX(1, NY)], 1, col, right, 3, &u[IDX(1, 0)], 1, col, left, 3, cart, &st[3]);
    local = 0.0;
    for (i = 1; i <= NX; ++i)
      for (j = 1; j <= NY; ++j) {
        unew[IDX(i, j)] = 0.25 * (u[IDX(i - 1, j)] + u[IDX(i + 1, j)] + u[IDX(i, j - 1)] + u[IDX(i, j + 1)]);
        local += (unew[IDX(i, j)] - u[IDX(i, j)]) * (unew[IDX(i, j)] - u[IDX(i, j)]);
      }
    MPI_Allreduce(&local, &resid, 1, MPI_DOUBLE, MPI_SUM, cart);
    tmp = u; u = unew; unew = tmp;
    if (rank == 0 && it % 15 == 0)
      printf("iter %3d residual %.12e\n", it, sqrt(resid));
  }

  /* Status of the last exchange: source and count (MPI_PROC_NULL gives count 0). */
  {
    int info[8], *all = NULL, k;
    for (k = 0; k < 4; ++k) {
      int c;
      MPI_Get_count(&st[k], k < 2 ? row : col, &c);
      info[2 * k] = st[k].MPI_SOURCE;
      info[2 * k + 1] = c;
    }
    if (rank == 0) all = malloc(sizeof(int) * 8 * size);
    MPI_Gather(info, 8, MPI_INT, all, 8, MPI_INT, 0, cart);
    if (rank == 0) {
      for (i = 0; i < size; ++i) {
        printf("rank %d status:", i);
        for (k = 0; k < 4; ++k)
          printf(" (%d,%d)", all[8 * i + 2 * k] == MPI_PROC_NULL ? -99 : all[8 * i + 2 * k],
                 all[8 * i + 2 * k + 1]);
        printf("\n");
      }
      free(all);
    }
  }

  checksum = 0.0;
  for (i = 0; i <= NX + 1; ++i)
    for (j = 0; j <= NY + 1; ++j) checksum += u[IDX(i, j)] * (1 + (i * 3 + j) % 5);
  if (rank == 0) sums = malloc(sizeof(double) * size);
  MPI_Gather(&checksum, 1, MPI_DOUBLE, sums, 1, MPI_DOUBLE, 0, cart);
  if (rank == 0) {
    for (i = 0; i < size; ++i) printf("rank %d checksum %.12f\n", i, sums[i]);
    printf("final residual %.12e\n", sqrt(resid));
    free(sums);
  }
  MPI_Type_free(&row);
  MPI_Type_free(&col);
  free(u);
  free(unew);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
