/* End-to-end (tempi-rewrite): a distributed matrix transpose with a column vector type resized to
 * one element, the textbook MPI_Alltoall-free version with Sendrecv per peer. Rewritten by
 * tempi-rewrite, run with 4 ranks on host buffers; the received matrices must equal the
 * unmodified program's byte for byte.   rewrite_transpose <output-dir> */
#include <mpi.h>
#include <stdio.h>

#define B 8 /* block edge: each rank owns B rows of a (B*size) x (B*size) matrix, size <= 8 */

int main(int argc, char **argv) {
  int rank, size, p, i, j;
  double a[B][B * 8], t[B][B * 8];
  MPI_Datatype col, col1, block;
  char path[4096];
  FILE *f;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 8)
    MPI_Abort(MPI_COMM_WORLD, 2);
  for (i = 0; i < B; ++i)
    for (j = 0; j < B * 8; ++j) {
      a[i][j] = (rank * B + i) * 1000 + j;
      t[i][j] = -1;
    }
  /* One column of a B-row block, resized so consecutive columns start one double apart. */
  MPI_Type_vector(B, 1, B * 8, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, sizeof(double), &col1);
  MPI_Type_contiguous(B, col1, &block); /* B columns = the transposed block */
  MPI_Type_commit(&block);
  for (p = 0; p < size; ++p)
    MPI_Sendrecv(&a[0][p * B], 1, block, p, 0, &t[0][p * B], B * B, MPI_DOUBLE, p, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  snprintf(path, sizeof path, "%s/rank%d.txt", argc > 1 ? argv[1] : ".", rank);
  f = fopen(path, "w");
  if (!f)
    return 1;
  for (i = 0; i < B; ++i)
    for (j = 0; j < B * size; ++j)
      fprintf(f, "%d %d %.17g\n", i, j, t[i][j]);
  fclose(f);
  MPI_Type_free(&block);
  MPI_Type_free(&col1);
  MPI_Type_free(&col);
  MPI_Finalize();
  return 0;
}
