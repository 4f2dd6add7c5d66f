/* Logging and error-checking macros as many codes have them: a LOG macro that prints
 * __FILE__:__LINE__, a TRACE macro that prints the call it wraps (#call) before running it, and a
 * CHECK macro that names the failed call. A column of a matrix moves around a ring. The calls in
 * TRACE and CHECK are left unchanged (their text is stringified); the plain one is rewritten, and
 * LOG must print the same file and lines in both builds.
 * NP: 3
 * CFLAGS: -std=c99 -Wall -Wextra -Werror */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROWS 5
#define COLS 7

#define LOG(rank, ...)                                          \
  do {                                                          \
    if ((rank) == 0) {                                          \
      printf("[%s:%d] ", __FILE__, __LINE__);                   \
      printf(__VA_ARGS__);                                      \
      printf("\n");                                             \
    }                                                           \
  } while (0)

#define CHECK(call)                                                          \
  do {                                                                       \
    int e_ = (call);                                                         \
    if (e_ != MPI_SUCCESS) {                                                 \
      fprintf(stderr, "%s:%d: %s failed (%d)\n", __FILE__, __LINE__, #call, e_); \
      MPI_Abort(MPI_COMM_WORLD, 1);                                          \
    }                                                                        \
  } while (0)

static int verbose_rank = 0;
#define TRACE(rank, call)                                              \
  do {                                                                 \
    if ((rank) == verbose_rank) printf("trace: %s\n", #call);          \
    CHECK(call);                                                       \
  } while (0)

int main(int argc, char **argv) {
  int rank, size, i, j, step;
  double m[ROWS][COLS];
  MPI_Datatype column;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  LOG(rank, "running on %d ranks", size);

  for (i = 0; i < ROWS; ++i)
    for (j = 0; j < COLS; ++j) m[i][j] = rank * 100 + i * 10 + j;
  CHECK(MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &column));
  CHECK(MPI_Type_commit(&column));

  for (step = 0; step < size; ++step) {
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    if (step == 0)
      TRACE(rank, MPI_Sendrecv_replace(&m[0][step % COLS], 1, column, next, step, prev, step,
                                       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    else if (step == 1)
      CHECK(MPI_Sendrecv_replace(&m[0][step % COLS], 1, column, next, step, prev, step,
                                 MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    else if (MPI_Sendrecv_replace(&m[0][step % COLS], 1, column, next, step, prev, step,
                                  MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS)
      MPI_Abort(MPI_COMM_WORLD, 1); /* rewritten: LOG's __FILE__ and __LINE__ must not change */
    LOG(rank, "step %d done, m[2][%d] = %.1f", step, step % COLS, m[2][step % COLS]);
  }
  {
    double s = 0.0, *all = NULL;
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j) s += m[i][j] * (i + 2 * j + 1);
    if (rank == 0) all = malloc(sizeof(double) * size);
    CHECK(MPI_Gather(&s, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    if (rank == 0)
      for (i = 0; i < size; ++i) LOG(rank, "rank %d checksum %.1f", i, all[i]);
    free(all);
  }
  CHECK(MPI_Type_free(&column));
  MPI_Finalize();
  return 0;
}
