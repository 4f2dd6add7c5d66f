/* Ring shift of a strided field with persistent requests (MPI_Send_init/MPI_Recv_init/
 * MPI_Startall) over several iterations; then MPI_Ssend; then MPI_Probe + MPI_Get_count to size a
 * receive from MPI_ANY_SOURCE, with the message described by a derived type.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROWS 10
#define COLS 12
#define STEPS 5

int main(int argc, char **argv) {
  int rank, size, next, prev, step, i, j;
  double field[ROWS][COLS], halo[ROWS][COLS];
  MPI_Datatype col2;
  MPI_Request reqs[2];
  MPI_Status sts[2];
  double acc = 0.0;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  next = (rank + 1) % size;
  prev = (rank + size - 1) % size;

  /* Two adjacent columns of the matrix. */
  MPI_Type_vector(ROWS, 2, COLS, MPI_DOUBLE, &col2);
  MPI_Type_commit(&col2);

  for (i = 0; i < ROWS; ++i)
    for (j = 0; j < COLS; ++j) {
      field[i][j] = rank * 1000 + i * COLS + j;
      halo[i][j] = 0.0;
    }

  MPI_Send_init(&field[0][COLS - 2], 1, col2, next, 5, MPI_COMM_WORLD, &reqs[0]);
  MPI_Recv_init(&halo[0][0], 1, col2, prev, 5, MPI_COMM_WORLD, &reqs[1]);
  for (step = 0; step < STEPS; ++step) {
    MPI_Startall(2, reqs);
    MPI_Waitall(2, reqs, sts);
    /* Fold the received columns into the field so the next step sends new data. */
    for (i = 0; i < ROWS; ++i) {
      field[i][COLS - 2] = 0.5 * field[i][COLS - 2] + halo[i][0];
      field[i][COLS - 1] = 0.5 * field[i][COLS - 1] + halo[i][1] + step;
    }
  }
  {
    int cnt;
    MPI_Get_count(&sts[1], col2, &cnt);
    for (i = 0; i < ROWS; ++i) acc += (i + 1) * field[i][COLS - 2] + (i + 2) * field[i][COLS - 1];
    if (rank == 0) printf("persistent: last status source %d tag %d count %d\n", sts[1].MPI_SOURCE, sts[1].MPI_TAG, cnt);
  }
  MPI_Request_free(&reqs[0]);
  MPI_Request_free(&reqs[1]);
  {
    double *accs = NULL;
    if (rank == 0) accs = malloc(size * sizeof(double));
    MPI_Gather(&acc, 1, MPI_DOUBLE, accs, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      for (i = 0; i < size; ++i) printf("rank %d field checksum %.6f\n", i, accs[i]);
      free(accs);
    }
  }

  /* Synchronous send of three column pairs (count 3 of a vector with extent < stride). */
  if (rank == 1) {
    MPI_Ssend(&field[0][0], 3, col2, 0, 6, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Status st;
    int cnt;
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j) halo[i][j] = -1.0;
    MPI_Recv(&halo[0][0], 3, col2, 1, 6, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, col2, &cnt);
    printf("ssend: count %d row0:", cnt);
    for (j = 0; j < COLS; ++j) printf(" %.1f", halo[0][j]);
    printf(" row9:");
    for (j = 0; j < COLS; ++j) printf(" %.1f", halo[ROWS - 1][j]);
    printf("\n");
  }

  /* Every other rank sends "rank" column pairs; rank 0 probes to size each receive. */
  if (rank != 0) {
    MPI_Send(&field[0][0], rank, col2, 0, 7, MPI_COMM_WORLD);
  } else {
    int got, n, k, bytes;
    double sums[16] = {0};
    int counts[16] = {0};
    for (got = 1; got < size; ++got) {
      MPI_Status st;
      double *buf;
      MPI_Probe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, col2, &n);
      MPI_Get_count(&st, MPI_BYTE, &bytes);
      buf = calloc(ROWS * COLS * (n + 1), sizeof(double));
      MPI_Recv(buf, n, col2, st.MPI_SOURCE, 7, MPI_COMM_WORLD, &st);
      for (k = 0; k < ROWS * COLS * (n + 1); ++k) sums[st.MPI_SOURCE] += buf[k] * (k % 13 + 1);
      counts[st.MPI_SOURCE] = n * 100000 + bytes;
      free(buf);
    }
    for (k = 1; k < size; ++k)
      printf("probe from %d: count %d bytes %d weighted sum %.3f\n", k, counts[k] / 100000,
             counts[k] % 100000, sums[k]);
  }
  MPI_Type_free(&col2);
  MPI_Finalize();
  return 0;
}
