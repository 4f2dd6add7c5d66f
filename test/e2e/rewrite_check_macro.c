/// Every communication call goes through a checking macro that prints the call's own text and
/// line (`#call` and __LINE__), as NVIDIA's multi-GPU samples' MPI_CALL does on failure: the
/// rewritten program must print the same text and line numbers and move the same bytes. The
/// tool rewrites these calls through a shadow macro (docs/rewriter.md), not by editing the text
/// the macro stringifies. MPI_CALL_FN takes the function's name and its arguments (`#fn`, and
/// `fn(__VA_ARGS__)` in its body, whose parentheses no edit can reach): also a shadow macro.
#include <mpi.h>
#include <stdio.h>

static int rank, size;
static FILE *out; /* <dir>/rank<r>.txt, compared by run_compare.sh */

#define MPI_CALL(call)                                                                             \
  do {                                                                                             \
    int rc_ = (call);                                                                              \
    fprintf(out, "line %d: %s -> %d\n", __LINE__, #call, rc_);                                   \
  } while (0)

#define MPI_CALL_FN(fn, ...)                                                                       \
  do {                                                                                             \
    int rc_ = fn(__VA_ARGS__);                                                                     \
    fprintf(out, "line %d: %s -> %d\n", __LINE__, #fn, rc_);                                      \
  } while (0)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char path[4096];
  snprintf(path, sizeof path, "%s/rank%d.txt", argc > 1 ? argv[1] : ".", rank);
  out = fopen(path, "w");
  if (!out)
    MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Datatype column;
  MPI_Type_vector(8, 1, 8, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  double grid[64], got[64];
  for (int i = 0; i < 64; ++i) {
    grid[i] = rank * 100 + i;
    got[i] = -1;
  }
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Request req[2];
  MPI_CALL(MPI_Irecv(got, 1, column, left, 7, MPI_COMM_WORLD, &req[0]));
  MPI_CALL(MPI_Isend(grid + 3, 1, column, right, 7,
                     MPI_COMM_WORLD, &req[1]));
  MPI_CALL(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
  MPI_CALL(MPI_Sendrecv(grid, 1, column, right, 8, got + 1, 1, column, left, 8, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE));
  MPI_Datatype pairs; /* only the name-passing macro uses it: its plan exists only if rewritten */
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &pairs);
  MPI_Type_commit(&pairs);
  MPI_CALL_FN(MPI_Sendrecv, grid + 4, 1, pairs, right, 9, got + 2, 1, pairs, left, 9,
              MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&pairs);
  for (int i = 0; i < 64; ++i)
    fprintf(out, "got[%d] = %g\n", i, got[i]);
  fprintf(out, "done at line %d\n", __LINE__);
  fclose(out);
  MPI_Type_free(&column);
  MPI_Finalize();
  return 0;
}
