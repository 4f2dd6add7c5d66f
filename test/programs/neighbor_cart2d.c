/* 2-D domain decomposition on a non-periodic MPI_Cart_create (a periodic dimension of size 2
 * would list one neighbour twice, and a neighbourhood collective could not tell its messages
 * apart): sizes from an `enum` and a `static const int` stride, halo types for rows and columns,
 * exchanged three ways: MPI_Neighbor_alltoallw with local per-neighbour type arrays and byte
 * displacements; MPI_Isend/MPI_Irecv over the four directions from MPI_Cart_shift with type
 * arrays indexed by the direction and one MPI_Waitall; and dimension by dimension, columns with
 * MPI_Neighbor_alltoallv of a resized column type, then full-width rows with MPI_Sendrecv so the
 * corners arrive too. Each halo cell is checked against the global cell it mirrors.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { NX = 6, NY = 5 };               /* interior rows and columns per rank */
static const int LD = NY + 2;          /* leading dimension of the local array */
#define VAL(gi, gj) ((double)((gi) * 1000 + (gj)))

static double u[NX + 2][NY + 2];

static void reset(const int coords[2]) {
  int i, j;
  for (i = 0; i < NX + 2; ++i)
    for (j = 0; j < NY + 2; ++j)
      u[i][j] = (i >= 1 && i <= NX && j >= 1 && j <= NY)
                    ? VAL(coords[0] * NX + i - 1, coords[1] * NY + j - 1) : -1.0;
}

/* Wrong halo cells: a halo cell mirrors its global cell, or is -1 outside the global grid or at a
 * corner when `corners` is 0. */
static int check(const int coords[2], const int dims[2], int corners, double *sum) {
  int i, j, errs = 0, gx = dims[0] * NX, gy = dims[1] * NY;
  for (i = 0; i < NX + 2; ++i)
    for (j = 0; j < NY + 2; ++j) {
      int gi = coords[0] * NX + i - 1, gj = coords[1] * NY + j - 1;
      int is_corner = (i == 0 || i == NX + 1) && (j == 0 || j == NY + 1);
      int outside = gi < 0 || gi >= gx || gj < 0 || gj >= gy;
      double want = (outside || (is_corner && !corners)) ? -1.0 : VAL(gi, gj);
      errs += u[i][j] != want;
      *sum += u[i][j] * ((i + 3 * j) % 5 + 1);
    }
  return errs;
}

int main(int argc, char **argv) {
  int rank, size, dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2], nbr[4], d, errs = 0, all;
  double sum = 0.0, sums[64];
  MPI_Comm cart;
  MPI_Datatype row, col, colr, fullrow;
  MPI_Request reqs[8];

  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 2, coords);
  MPI_Cart_shift(cart, 0, 1, &nbr[0], &nbr[1]); /* up, down: the neighbour order of a cart */
  MPI_Cart_shift(cart, 1, 1, &nbr[2], &nbr[3]); /* left, right */

  MPI_Type_contiguous(NY, MPI_DOUBLE, &row);
  MPI_Type_commit(&row);
  MPI_Type_vector(NX, 1, LD, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Type_create_resized(col, 0, sizeof(double), &colr);
  MPI_Type_commit(&colr);
  MPI_Type_contiguous(NY + 2, MPI_DOUBLE, &fullrow);
  MPI_Type_commit(&fullrow);

  /* 1. One neighbourhood collective, a type and a byte displacement per neighbour. */
  {
    MPI_Datatype types[4] = {row, row, col, col};
    int counts[4] = {1, 1, 1, 1};
    const MPI_Aint E = sizeof(double);
    MPI_Aint sdispl[4] = {(1 * LD + 1) * E, (NX * LD + 1) * E, (1 * LD + 1) * E, (1 * LD + NY) * E};
    MPI_Aint rdispl[4] = {(0 * LD + 1) * E, ((NX + 1) * LD + 1) * E, (1 * LD + 0) * E,
                          (1 * LD + NY + 1) * E};
    reset(coords);
    MPI_Neighbor_alltoallw(u, counts, sdispl, types, u, counts, rdispl, types, cart);
    errs += check(coords, dims, 0, &sum);
  }

  /* 2. Point-to-point over the four directions; the tag names the direction of travel. */
  {
    MPI_Datatype face[4] = {row, row, col, col};
    double *sendp[4] = {&u[1][1], &u[NX][1], &u[1][1], &u[1][NY]};
    double *recvp[4] = {&u[0][1], &u[NX + 1][1], &u[1][0], &u[1][NY + 1]};
    reset(coords);
    for (d = 0; d < 4; ++d) {
      MPI_Irecv(recvp[d], 1, face[d], nbr[d], d ^ 1, cart, &reqs[2 * d]);
      MPI_Isend(sendp[d], 1, face[d], nbr[d], d, cart, &reqs[2 * d + 1]);
    }
    MPI_Waitall(8, reqs, MPI_STATUSES_IGNORE);
    errs += check(coords, dims, 0, &sum);
  }

  /* 3. Columns with a neighbourhood alltoallv (none up or down), then full rows with corners. */
  {
    int scount[4] = {0, 0, 1, 1}, rcount[4] = {0, 0, 1, 1};
    int sdisp[4] = {0, 0, LD + 1, LD + NY}, rdisp[4] = {0, 0, LD, LD + NY + 1};
    reset(coords);
    MPI_Neighbor_alltoallv(u, scount, sdisp, colr, u, rcount, rdisp, colr, cart);
    MPI_Sendrecv(&u[1][0], 1, fullrow, nbr[0], 7, &u[NX + 1][0], 1, fullrow, nbr[1], 7, cart,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[NX][0], 1, fullrow, nbr[1], 8, &u[0][0], 1, fullrow, nbr[0], 8, cart,
                 MPI_STATUS_IGNORE);
    errs += check(coords, dims, 1, &sum);
  }

  MPI_Gather(&sum, 1, MPI_DOUBLE, sums, 1, MPI_DOUBLE, 0, cart);
  MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, cart);
  if (rank == 0) {
    printf("grid %d x %d of %d x %d blocks\n", dims[0], dims[1], NX, NY);
    for (d = 0; d < size && d < 64; ++d) printf("rank %d checksum %.1f\n", d, sums[d]);
    printf("errors %d: %s\n", all, all ? "WRONG" : "ok");
  }
  MPI_Type_free(&row);
  MPI_Type_free(&col);
  MPI_Type_free(&colr);
  MPI_Type_free(&fullrow);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return all ? 1 : 0;
}
