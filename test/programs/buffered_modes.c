/* Send modes and completion loops with derived types: MPI_Bsend from a buffer sized with
 * MPI_Pack_size + MPI_BSEND_OVERHEAD and given to MPI_Buffer_attach (all-to-all of one column per
 * peer, completed with an MPI_Waitsome loop), MPI_Rsend to a receive pre-posted before a barrier
 * (completed by polling MPI_Testsome), and MPI_Issend of a diagonal polled with MPI_Testany.
 * Every received element is checked against the value computed from its global index.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { ROWS = 12, COLS = 10, MAXP = 8 };
#define VAL(r, i, j) ((r) * 10000 + (i) * COLS + (j))

static int a[ROWS][COLS], b[ROWS][COLS];

static void clear(void) {
  int i, j;
  for (i = 0; i < ROWS; ++i)
    for (j = 0; j < COLS; ++j) b[i][j] = -1;
}

int main(int argc, char **argv) {
  int rank, size, i, j, p, errs = 0, all_errs, bufsize, psize, done, idx, flag, outcount;
  int indices[MAXP];
  long long sum = 0, sums[MAXP];
  char *bsendbuf;
  MPI_Datatype col, evenrows, diag;
  MPI_Request reqs[MAXP];

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > MAXP || size > COLS) MPI_Abort(MPI_COMM_WORLD, 2);
  for (i = 0; i < ROWS; ++i)
    for (j = 0; j < COLS; ++j) a[i][j] = VAL(rank, i, j);

  MPI_Type_vector(ROWS, 1, COLS, MPI_INT, &col);
  MPI_Type_commit(&col);
  MPI_Type_vector(ROWS / 2, COLS, 2 * COLS, MPI_INT, &evenrows);
  MPI_Type_commit(&evenrows);
  MPI_Type_vector(COLS < ROWS ? COLS : ROWS, 1, COLS + 1, MPI_INT, &diag);
  MPI_Type_commit(&diag);

  /* 1. Buffered all-to-all: rank r sends its column p to peer p, which stores it in column r. */
  MPI_Pack_size(1, col, MPI_COMM_WORLD, &psize);
  bufsize = (size - 1) * (psize + MPI_BSEND_OVERHEAD);
  bsendbuf = malloc(bufsize);
  MPI_Buffer_attach(bsendbuf, bufsize);
  clear();
  for (p = 0, idx = 0; p < size; ++p)
    if (p != rank) MPI_Irecv(&b[0][p], 1, col, p, 100 + p, MPI_COMM_WORLD, &reqs[idx++]);
  for (p = 0; p < size; ++p)
    if (p != rank) MPI_Bsend(&a[0][p], 1, col, p, 100 + rank, MPI_COMM_WORLD);
  for (done = 0; done < size - 1; done += outcount) {
    MPI_Waitsome(size - 1, reqs, &outcount, indices, MPI_STATUSES_IGNORE);
    if (outcount == MPI_UNDEFINED) break;
  }
  MPI_Buffer_detach(&bsendbuf, &bufsize);
  free(bsendbuf);
  for (i = 0; i < ROWS; ++i)
    for (j = 0; j < COLS; ++j) {
      int want = (j < size && j != rank) ? VAL(j, i, rank) : -1;
      errs += b[i][j] != want;
      sum += (long long)b[i][j] * (i % 3 + 1);
    }

  /* 2. Ready mode: the receive of the even rows from the left is posted before the barrier. */
  clear();
  MPI_Irecv(b, 1, evenrows, (rank + size - 1) % size, 200, MPI_COMM_WORLD, &reqs[0]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Rsend(a, 1, evenrows, (rank + 1) % size, 200, MPI_COMM_WORLD);
  for (done = 0; !done;) {
    MPI_Testsome(1, reqs, &outcount, indices, MPI_STATUSES_IGNORE);
    if (outcount > 0 || outcount == MPI_UNDEFINED) done = 1;
  }
  for (i = 0; i < ROWS; ++i)
    for (j = 0; j < COLS; ++j) {
      int want = i % 2 == 0 ? VAL((rank + size - 1) % size, i, j) : -1;
      errs += b[i][j] != want;
      sum += (long long)b[i][j] * (j % 4 + 1);
    }

  /* 3. Synchronous mode: the diagonal goes right two ranks, polled with MPI_Testany. */
  clear();
  MPI_Irecv(&b[0][0], 1, diag, (rank + size - 2) % size, 300, MPI_COMM_WORLD, &reqs[0]);
  MPI_Issend(&a[0][0], 1, diag, (rank + 2) % size, 300, MPI_COMM_WORLD, &reqs[1]);
  for (done = 0; done < 2;) {
    MPI_Testany(2, reqs, &idx, &flag, MPI_STATUS_IGNORE);
    if (flag && idx != MPI_UNDEFINED) ++done;
    if (flag && idx == MPI_UNDEFINED) break;
  }
  for (i = 0; i < ROWS; ++i)
    for (j = 0; j < COLS; ++j) {
      int want = (i == j) ? VAL((rank + size - 2) % size, i, j) : -1;
      errs += b[i][j] != want;
      sum += (long long)b[i][j] * ((i + j) % 5 + 1);
    }

  MPI_Gather(&sum, 1, MPI_LONG_LONG, sums, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&errs, &all_errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    for (p = 0; p < size; ++p) printf("rank %d checksum %lld\n", p, sums[p]);
    printf("pack size of a column %d, errors %d: %s\n", psize, all_errs, all_errs ? "WRONG" : "ok");
  }
  MPI_Type_free(&col);
  MPI_Type_free(&evenrows);
  MPI_Type_free(&diag);
  MPI_Finalize();
  return all_errs ? 1 : 0;
}
