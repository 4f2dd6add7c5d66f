/* End-to-end (tempi-rewrite): a Fortran-order subarray (column-major 2-D array, as a Fortran
 * code would lay it out) exchanged around a ring with Isend/Irecv and Waitall. Rewritten by
 * tempi-rewrite, run with 4 ranks on host buffers; the received arrays must equal the
 * unmodified program's byte for byte.   rewrite_fortran_subarray <output-dir> */
#include <mpi.h>
#include <stdio.h>

#define M 10
#define N 7

int main(int argc, char **argv) {
  int rank, size, i;
  float a[M * N], b[M * N]; /* a(i, j) = a[i + j * M] */
  int sizes[2] = {M, N}, sub[2] = {4, 3}, starts[2] = {2, 1};
  MPI_Datatype blk;
  MPI_Request req[2];
  char path[4096];
  FILE *f;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (i = 0; i < M * N; ++i) {
    a[i] = rank * 1000 + i;
    b[i] = -1;
  }
  MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_FORTRAN, MPI_FLOAT, &blk);
  MPI_Type_commit(&blk);
  MPI_Irecv(b, 1, blk, (rank + size - 1) % size, 7, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(a, 1, blk, (rank + 1) % size, 7, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  snprintf(path, sizeof path, "%s/rank%d.txt", argc > 1 ? argv[1] : ".", rank);
  f = fopen(path, "w");
  if (!f)
    return 1;
  for (i = 0; i < M * N; ++i)
    fprintf(f, "%d %.9g\n", i, b[i]);
  fclose(f);
  MPI_Type_free(&blk);
  MPI_Finalize();
  return 0;
}
