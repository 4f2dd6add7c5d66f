/* Column scatter/gather of a row-major matrix: a column MPI_Type_vector resized to one element so
 * consecutive columns interleave; MPI_Scatter, MPI_Scatterv, MPI_Gather, plus a point-to-point
 * transfer of a block of columns with the same type.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROWS 6
#define COLS 16

static void print_matrix(const char *title, double a[ROWS][COLS]) {
  int i, j;
  printf("%s\n", title);
  for (i = 0; i < ROWS; ++i) {
    for (j = 0; j < COLS; ++j) printf(" %6.1f", a[i][j]);
    printf("\n");
  }
}

int main(int argc, char **argv) {
  int rank, size, i, j, ncols;
  double A[ROWS][COLS], B[ROWS][COLS], mine[COLS * ROWS];
  MPI_Datatype col, coltype;
  int counts[16], displs[16];

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (COLS % size != 0) MPI_Abort(MPI_COMM_WORLD, 1);
  ncols = COLS / size;

  MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, sizeof(double), &coltype);
  MPI_Type_commit(&coltype);

  for (i = 0; i < ROWS; ++i)
    for (j = 0; j < COLS; ++j) {
      A[i][j] = rank == 0 ? 10.0 * i + j : -1.0;
      B[i][j] = 0.0;
    }

  /* Each rank receives ncols columns, column-major in 'mine'. */
  MPI_Scatter(A, ncols, coltype, mine, ncols * ROWS, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (j = 0; j < ncols; ++j)
    for (i = 0; i < ROWS; ++i) mine[j * ROWS + i] = mine[j * ROWS + i] * (rank + 1) + 0.5 * i;
  MPI_Gather(mine, ncols * ROWS, MPI_DOUBLE, B, ncols, coltype, 0, MPI_COMM_WORLD);
  if (rank == 0) print_matrix("gathered (scaled by rank+1)", B);

  /* Scatterv: rank r gets r+1 columns starting at column 2r. */
  for (i = 0; i < size; ++i) {
    counts[i] = i + 1;
    displs[i] = 2 * i;
  }
  for (i = 0; i < COLS * ROWS; ++i) mine[i] = 0.0;
  MPI_Scatterv(A, counts, displs, coltype, mine, (rank + 1) * ROWS, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  {
    double s = 0.0, *all = NULL;
    for (i = 0; i < (rank + 1) * ROWS; ++i) s += mine[i] * (i + 1);
    if (rank == 0) all = malloc(size * sizeof(double));
    MPI_Gather(&s, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      for (i = 0; i < size; ++i) printf("scatterv rank %d weighted sum %.1f\n", i, all[i]);
      free(all);
    }
  }

  /* Point to point: rank 0 sends columns 3..6 to the last rank, which stores them at columns 9..12. */
  if (size > 1) {
    if (rank == 0) {
      MPI_Send(&A[0][3], 4, coltype, size - 1, 7, MPI_COMM_WORLD);
    } else if (rank == size - 1) {
      MPI_Status st;
      int cnt, elems;
      for (i = 0; i < ROWS; ++i)
        for (j = 0; j < COLS; ++j) B[i][j] = 0.0;
      MPI_Recv(&B[0][9], 5, coltype, 0, 7, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, coltype, &cnt);
      MPI_Get_elements(&st, coltype, &elems);
      MPI_Send(&cnt, 1, MPI_INT, 0, 8, MPI_COMM_WORLD);
      MPI_Send(&elems, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
      MPI_Send(B, ROWS * COLS, MPI_DOUBLE, 0, 10, MPI_COMM_WORLD);
    }
    if (rank == 0) {
      int cnt, elems;
      MPI_Recv(&cnt, 1, MPI_INT, size - 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&elems, 1, MPI_INT, size - 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(B, ROWS * COLS, MPI_DOUBLE, size - 1, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      printf("p2p: count %d elements %d\n", cnt, elems);
      print_matrix("columns 3..6 placed at 9..12", B);
    }
  }
  MPI_Type_free(&col);
  MPI_Type_free(&coltype);
  MPI_Finalize();
  return 0;
}
