/* A column-major (Fortran / LAPACK layout) global matrix on rank 0 distributed over a 2 x 2
 * process grid: the block type is an MPI_ORDER_FORTRAN subarray resized to one element, so
 * MPI_Scatterv / MPI_Gatherv place blocks by element displacements; each rank receives into the
 * interior of a ghosted local array (a second Fortran-order subarray); the same blocks also go by
 * hand, MPI_Send of the unresized subarray from rank 0 in a loop and MPI_Recv into the ghosted
 * array, and both copies must agree. Then a block-cyclic
 * MPI_Type_create_darray (MPI_DISTRIBUTE_CYCLIC, Fortran order) rebuilt and freed in a loop over
 * the destination ranks, sent with MPI_Send and received as contiguous doubles.
 * Every value is checked against its global (row, column).
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define GR 8  /* global rows */
#define GC 12 /* global columns */
#define PR 2  /* process rows */
#define PC 2  /* process columns */
#define BR (GR / PR)
#define BC (GC / PC)
#define CYC 2 /* block-cyclic block size of the darray */
#define G(i, j) ((double)(100 * (i) + (j) + 1))

int main(int argc, char **argv) {
  int rank, size, i, j, p, errs = 0, all;
  int gsizes[2] = {GR, GC}, bsizes[2] = {BR, BC}, zero[2] = {0, 0};
  int lsizes[2] = {BR + 2, BC + 2}, one[2] = {1, 1};
  int counts[PR * PC], displs[PR * PC];
  double *glob = NULL, *back = NULL, loc[(BR + 2) * (BC + 2)], loc2[(BR + 2) * (BC + 2)];
  double sum = 0.0, tot;
  MPI_Datatype blk, blkr, interior;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != PR * PC) MPI_Abort(MPI_COMM_WORLD, 2);

  MPI_Type_create_subarray(2, gsizes, bsizes, zero, MPI_ORDER_FORTRAN, MPI_DOUBLE, &blk);
  MPI_Type_commit(&blk);
  MPI_Type_create_resized(blk, 0, sizeof(double), &blkr);
  MPI_Type_commit(&blkr);
  MPI_Type_create_subarray(2, lsizes, bsizes, one, MPI_ORDER_FORTRAN, MPI_DOUBLE, &interior);
  MPI_Type_commit(&interior);

  /* Rank p = pr * PC + pc owns block (pr, pc); its first element is (pr*BR, pc*BC). */
  for (p = 0; p < PR * PC; ++p) {
    counts[p] = 1;
    displs[p] = (p / PC) * BR + (p % PC) * BC * GR;
  }
  if (rank == 0) {
    glob = malloc(sizeof(double) * GR * GC);
    back = malloc(sizeof(double) * GR * GC);
    for (j = 0; j < GC; ++j)
      for (i = 0; i < GR; ++i) {
        glob[i + j * GR] = G(i, j);
        back[i + j * GR] = -1.0;
      }
  }
  for (i = 0; i < (BR + 2) * (BC + 2); ++i) loc[i] = loc2[i] = -1.0;

  /* By hand first: rank 0 sends every other rank its block, and keeps its own with a self-copy. */
  if (rank == 0) {
    MPI_Request self;
    MPI_Irecv(loc2, 1, interior, 0, 5, MPI_COMM_WORLD, &self);
    for (p = 0; p < size; ++p) MPI_Send(&glob[displs[p]], 1, blk, p, 5, MPI_COMM_WORLD);
    MPI_Wait(&self, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(loc2, 1, interior, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }

  MPI_Scatterv(glob, counts, displs, blkr, loc, 1, interior, 0, MPI_COMM_WORLD);
  for (j = 0; j < BC + 2; ++j)
    for (i = 0; i < BR + 2; ++i) {
      int ghost = i == 0 || j == 0 || i == BR + 1 || j == BC + 1;
      int gi = (rank / PC) * BR + i - 1, gj = (rank % PC) * BC + j - 1;
      double *x = &loc[i + j * (BR + 2)];
      errs += *x != (ghost ? -1.0 : G(gi, gj));
      errs += *x != loc2[i + j * (BR + 2)];
      if (!ghost) *x = *x * 2 + rank;
    }
  MPI_Gatherv(loc, 1, interior, back, counts, displs, blkr, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (j = 0; j < GC; ++j)
      for (i = 0; i < GR; ++i) {
        int owner = (i / BR) * PC + j / BC;
        errs += back[i + j * GR] != G(i, j) * 2 + owner;
        sum += back[i + j * GR];
      }

  /* Block-cyclic pieces: one darray per destination, built, used and freed in the loop. */
  {
    int distribs[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_CYCLIC};
    int dargs[2] = {CYC, CYC}, psizes[2] = {PR, PC}, n = 0, k = 0;
    double piece[GR * GC];
    MPI_Status st;
    if (rank == 0) {
      for (p = 1; p < size; ++p) {
        MPI_Datatype cyc;
        MPI_Type_create_darray(size, p, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_FORTRAN,
                               MPI_DOUBLE, &cyc);
        MPI_Type_commit(&cyc);
        MPI_Send(glob, 1, cyc, p, 9, MPI_COMM_WORLD);
        MPI_Type_free(&cyc);
      }
    } else {
      MPI_Recv(piece, GR * GC, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_DOUBLE, &n);
      /* Column-major order of the owned elements: columns outer, rows inner. */
      for (j = 0; j < GC; ++j)
        for (i = 0; i < GR; ++i)
          if ((i / CYC) % PR == rank / PC && (j / CYC) % PC == rank % PC) {
            errs += k >= n || piece[k] != G(i, j);
            sum += piece[k++];
          }
      errs += k != n;
    }
  }

  MPI_Reduce(&sum, &tot, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("checksum %.1f, errors %d: %s\n", tot, all, all ? "WRONG" : "ok");
  MPI_Type_free(&blk);
  MPI_Type_free(&blkr);
  MPI_Type_free(&interior);
  free(glob);
  free(back);
  MPI_Finalize();
  return all ? 1 : 0;
}
