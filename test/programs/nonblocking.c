/* Non-blocking patterns: a master collecting strided rows with MPI_Waitany, a polling loop on
 * MPI_Testall, a fire-and-forget MPI_Isend released with MPI_Request_free, and MPI_Sendrecv_replace
 * of a vector type around a ring.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROWS 8
#define COLS 9
#define MAXR 16

int main(int argc, char **argv) {
  int rank, size, i, j, r;
  double grid[ROWS][COLS];
  MPI_Datatype evens, col;
  MPI_Request reqs[MAXR];

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > MAXR) MPI_Abort(MPI_COMM_WORLD, 1);

  /* Every other element of a row: 5 doubles with stride 2. */
  MPI_Type_vector((COLS + 1) / 2, 1, 2, MPI_DOUBLE, &evens);
  MPI_Type_commit(&evens);
  MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);

  for (i = 0; i < ROWS; ++i)
    for (j = 0; j < COLS; ++j) grid[i][j] = rank * 1000 + i * 10 + j;

  /* 1. Waitany: rank 0 receives one strided row from every worker into row r. */
  if (rank == 0) {
    static double got[MAXR][COLS];
    int order_sum = 0;
    for (r = 1; r < size; ++r) {
      for (j = 0; j < COLS; ++j) got[r][j] = -1.0;
      MPI_Irecv(got[r], 1, evens, r, 1, MPI_COMM_WORLD, &reqs[r - 1]);
    }
    for (i = 1; i < size; ++i) {
      int which;
      MPI_Status st;
      MPI_Waitany(size - 1, reqs, &which, &st);
      if (st.MPI_SOURCE != which + 1) printf("waitany: index %d source %d mismatch\n", which, st.MPI_SOURCE);
      order_sum += which;
    }
    printf("waitany index sum %d\n", order_sum);
    for (r = 1; r < size; ++r) {
      printf("row from %d:", r);
      for (j = 0; j < COLS; ++j) printf(" %.0f", got[r][j]);
      printf("\n");
    }
  } else {
    MPI_Send(grid[rank % ROWS], 1, evens, 0, 1, MPI_COMM_WORLD);
  }

  /* 2. Testall polling: each rank swaps a column with both ring neighbours. */
  {
    double left[ROWS][COLS] = {{0}}, right[ROWS][COLS] = {{0}};
    int next = (rank + 1) % size, prev = (rank + size - 1) % size, done = 0, polls = 0;
    MPI_Request q[4];
    MPI_Status sts[4];
    MPI_Irecv(&left[0][0], 1, col, prev, 2, MPI_COMM_WORLD, &q[0]);
    MPI_Irecv(&right[0][COLS - 1], 1, col, next, 3, MPI_COMM_WORLD, &q[1]);
    MPI_Isend(&grid[0][COLS - 1], 1, col, next, 2, MPI_COMM_WORLD, &q[2]);
    MPI_Isend(&grid[0][0], 1, col, prev, 3, MPI_COMM_WORLD, &q[3]);
    while (!done) {
      MPI_Testall(4, q, &done, sts);
      ++polls;
    }
    {
      double s = 0.0, *all = NULL;
      int c0, c1;
      MPI_Get_count(&sts[0], col, &c0);
      MPI_Get_count(&sts[1], col, &c1);
      for (i = 0; i < ROWS; ++i) s += left[i][0] * (i + 1) - right[i][COLS - 1] * (i + 2);
      s += 1e6 * (c0 + c1) + 1e7 * (sts[0].MPI_SOURCE == prev) + 1e8 * (sts[1].MPI_SOURCE == next);
      if (rank == 0) all = malloc(size * sizeof(double));
      MPI_Gather(&s, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      if (rank == 0) {
        for (r = 0; r < size; ++r) printf("testall rank %d: %.1f\n", r, all[r]);
        free(all);
      }
    }
  }

  /* 3. Request_free on a send: the receive completing tells the sender the buffer is free. */
  {
    double note[COLS];
    if (rank == size - 1) {
      MPI_Request rq;
      MPI_Isend(grid[2], 1, evens, 0, 4, MPI_COMM_WORLD, &rq);
      MPI_Request_free(&rq);
    }
    if (rank == 0) {
      for (j = 0; j < COLS; ++j) note[j] = 0.0;
      MPI_Recv(note, 1, evens, size - 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      printf("freed-request row:");
      for (j = 0; j < COLS; ++j) printf(" %.0f", note[j]);
      printf("\n");
    }
    MPI_Barrier(MPI_COMM_WORLD);   /* the sender may touch grid only after this */
  }

  /* 4. Sendrecv_replace of a column around the ring, size-1 times. */
  for (r = 0; r < size - 1; ++r) {
    MPI_Status st;
    MPI_Sendrecv_replace(&grid[0][4], 1, col, (rank + 1) % size, 5, (rank + size - 1) % size, 5,
                         MPI_COMM_WORLD, &st);
    for (i = 0; i < ROWS; ++i) grid[i][4] += 0.5;
  }
  {
    double s = 0.0, *all = NULL;
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j) s += grid[i][j] * ((i + j) % 4 + 1);
    if (rank == 0) all = malloc(size * sizeof(double));
    MPI_Gather(&s, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      for (r = 0; r < size; ++r) printf("replace rank %d: %.1f\n", r, all[r]);
      printf("rank 0 column 4:");
      for (i = 0; i < ROWS; ++i) printf(" %.1f", grid[i][4]);
      printf("\n");
      free(all);
    }
  }
  MPI_Type_free(&evens);
  MPI_Type_free(&col);
  MPI_Finalize();
  return 0;
}
