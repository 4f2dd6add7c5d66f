/* Parallel I/O of a 2-D block-distributed field, as checkpoint code writes it: each rank owns a
 * block of a GR x GC global array (2 x 2 process grid from MPI_Dims_create + MPI_Cart_create)
 * stored with a ghost layer. The file view is an MPI_Type_create_subarray of the global array
 * (MPI_File_set_view), the memory type a second subarray that skips the ghosts; a collective
 * MPI_File_write_all writes the checkpoint, and it is read back twice: collectively into a
 * zeroed ghosted block through the same view, and by rank 0 as one contiguous read of the whole
 * file that must be the global array in row-major order. The ghost rows then come from the
 * neighbours with MPI_Sendrecv of row and column types, and rank 0 prints checksums.
 * The file lives in $TMPDIR (or /tmp) and is deleted at the end.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GR 12 /* global rows */
#define GC 16 /* global columns */
#define LR (GR / 2)
#define LC (GC / 2)
#define GH 1 /* ghost width */
#define TR (LR + 2 * GH)
#define TC (LC + 2 * GH)

static double value(int gi, int gj) { return gi * 100.0 + gj + 0.25; }

static int check_interior(const double *a, int r0, int c0, const char *what, int rank) {
  int i, j, bad = 0;
  for (i = 0; i < LR; ++i)
    for (j = 0; j < LC; ++j)
      if (a[(i + GH) * TC + j + GH] != value(r0 + i, c0 + j)) {
        if (bad == 0)
          printf("rank %d: %s wrong at (%d,%d): %g\n", rank, what, i, j, a[(i + GH) * TC + j + GH]);
        ++bad;
      }
  return bad;
}

int main(int argc, char **argv) {
  int rank, size, dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2], crank;
  int gsizes[2] = {GR, GC}, lsizes[2] = {LR, LC}, starts[2];
  int msizes[2] = {TR, TC}, mstarts[2] = {GH, GH};
  int up, down, left, right, i, j, bad = 0, total = 0;
  double *field, *back, *whole = NULL, sum = 0.0, gsum = 0.0;
  MPI_Comm cart;
  MPI_Datatype filetype, memtype, row, col;
  MPI_File fh;
  MPI_Status st;
  char path[512];
  const char *dir = getenv("TMPDIR");

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 4) {
    if (rank == 0) fprintf(stderr, "needs 4 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Dims_create(size, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart);
  MPI_Comm_rank(cart, &crank);
  MPI_Cart_coords(cart, crank, 2, coords);
  MPI_Cart_shift(cart, 0, 1, &up, &down);
  MPI_Cart_shift(cart, 1, 1, &left, &right);

  /* The file name: rank 0 picks it, everyone gets it. */
  if (crank == 0) {
    snprintf(path, sizeof path, "%s/tempi-io-%ld.dat", dir && *dir ? dir : "/tmp", (long)getpid());
  }
  MPI_Bcast(path, (int)sizeof path, MPI_CHAR, 0, cart);

  field = calloc(TR * TC, sizeof *field);
  back = calloc(TR * TC, sizeof *back);
  for (i = 0; i < TR * TC; ++i) field[i] = -1.0;
  starts[0] = coords[0] * LR;
  starts[1] = coords[1] * LC;
  for (i = 0; i < LR; ++i)
    for (j = 0; j < LC; ++j) field[(i + GH) * TC + j + GH] = value(starts[0] + i, starts[1] + j);

  MPI_Type_create_subarray(2, gsizes, lsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &filetype);
  MPI_Type_commit(&filetype);
  MPI_Type_create_subarray(2, msizes, lsizes, mstarts, MPI_ORDER_C, MPI_DOUBLE, &memtype);
  MPI_Type_commit(&memtype);

  /* Checkpoint. */
  MPI_File_open(cart, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  MPI_File_set_view(fh, 0, MPI_DOUBLE, filetype, "native", MPI_INFO_NULL);
  MPI_File_write_all(fh, field, 1, memtype, &st);
  MPI_File_close(&fh);

  /* Restart: same view, into a zeroed ghosted block. */
  MPI_File_open(cart, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  MPI_File_set_view(fh, 0, MPI_DOUBLE, filetype, "native", MPI_INFO_NULL);
  MPI_File_read_all(fh, back, 1, memtype, &st);
  {
    int n;
    MPI_Get_count(&st, memtype, &n);
    if (n != 1) {
      printf("rank %d: read_all count %d\n", rank, n);
      ++bad;
    }
  }
  MPI_File_close(&fh);
  bad += check_interior(back, starts[0], starts[1], "restart", rank);

  /* Rank 0 reads the file as one contiguous array. */
  if (crank == 0) {
    MPI_File fh0;
    whole = malloc(GR * GC * sizeof *whole);
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh0);
    MPI_File_read_at(fh0, 0, whole, GR * GC, MPI_DOUBLE, &st);
    MPI_File_close(&fh0);
    for (i = 0; i < GR; ++i)
      for (j = 0; j < GC; ++j)
        if (whole[i * GC + j] != value(i, j)) {
          if (bad == 0) printf("file wrong at (%d,%d): %g\n", i, j, whole[i * GC + j]);
          ++bad;
        }
    free(whole);
  }

  /* Ghost exchange on the restarted field: rows go up/down, columns left/right. */
  MPI_Type_contiguous(LC, MPI_DOUBLE, &row);
  MPI_Type_commit(&row);
  MPI_Type_vector(LR, 1, TC, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Sendrecv(&back[GH * TC + GH], 1, row, up, 1, &back[(TR - 1) * TC + GH], 1, row, down, 1,
               cart, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&back[(TR - 2) * TC + GH], 1, row, down, 2, &back[GH], 1, row, up, 2, cart,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(&back[GH * TC + GH], 1, col, left, 3, &back[GH * TC + TC - 1], 1, col, right, 3,
               cart, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&back[GH * TC + TC - 2], 1, col, right, 4, &back[GH * TC], 1, col, left, 4, cart,
               MPI_STATUS_IGNORE);
  /* Check the ghosts that have a neighbour. */
  for (j = 0; j < LC; ++j) {
    if (up != MPI_PROC_NULL && back[j + GH] != value(starts[0] - 1, starts[1] + j)) ++bad;
    if (down != MPI_PROC_NULL && back[(TR - 1) * TC + j + GH] != value(starts[0] + LR, starts[1] + j)) ++bad;
  }
  for (i = 0; i < LR; ++i) {
    if (left != MPI_PROC_NULL && back[(i + GH) * TC] != value(starts[0] + i, starts[1] - 1)) ++bad;
    if (right != MPI_PROC_NULL && back[(i + GH) * TC + TC - 1] != value(starts[0] + i, starts[1] + LC)) ++bad;
  }
  for (i = 0; i < TR * TC; ++i) sum += back[i] * ((i % 7) + 1);

  MPI_Reduce(&sum, &gsum, 1, MPI_DOUBLE, MPI_SUM, 0, cart);
  MPI_Reduce(&bad, &total, 1, MPI_INT, MPI_SUM, 0, cart);
  MPI_Barrier(cart);
  if (crank == 0) {
    printf("grid %d x %d, blocks %d x %d\n", dims[0], dims[1], LR, LC);
    printf("checksum %.2f\n", gsum);
    printf("%s (%d errors)\n", total == 0 ? "OK" : "FAILED", total);
    if (remove(path) != 0) printf("could not remove the file\n");
  }

  MPI_Type_free(&row);
  MPI_Type_free(&col);
  MPI_Type_free(&memtype);
  MPI_Type_free(&filetype);
  MPI_Comm_free(&cart);
  free(field);
  free(back);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
