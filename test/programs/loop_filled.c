/* Constructor arguments filled by counted loops, as real stencil and matrix codes write them:
 * sizes/subsizes/starts of a 3-D x face set in one loop then adjusted, an indexed type's block
 * lengths and displacements computed from the loop index, and a column type resized with the
 * extent MPI_Type_get_extent gives for MPI_DOUBLE. Each type goes around a ring with
 * MPI_Sendrecv into a zeroed buffer, and every received element is checked against the closed
 * form of what the left neighbour sent; the checksum is printed.
 * NP: 3 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define N 6
#define NT (N + 2)
#define AT(x, y, z) (((x) * NT + (y)) * NT + (z))
#define ROWS 5
#define COLS 7

static double value(int rank, int i) { return rank * 100000.0 + i; }

int main(int argc, char **argv) {
  int rank, size, left, right, errors = 0, all = 0, i;
  static double a[NT * NT * NT], b[NT * NT * NT];
  int sizes[3], subsizes[3], starts[3];
  int lens[4], displs[4];
  double m[ROWS * COLS], col[ROWS * COLS];
  MPI_Datatype xface, idx, column, colres;
  MPI_Aint lb, extent;
  double sum = 0.0, total = 0.0;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;

  /* the x face of the interior: one plane, N x N */
  for (i = 0; i < 3; i++) {
    sizes[i] = NT;
    subsizes[i] = N;
    starts[i] = 1;
  }
  subsizes[0] = 1;
  MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &xface);
  MPI_Type_commit(&xface);

  /* four blocks of growing length, 12 elements apart */
  for (int k = 0; k < 4; ++k) {
    lens[k] = k + 1;
    displs[k] = 12 * k;
  }
  MPI_Type_indexed(4, lens, displs, MPI_DOUBLE, &idx);
  MPI_Type_commit(&idx);

  /* one column of a ROWS x COLS matrix, resized to one element so columns follow each other */
  MPI_Type_get_extent(MPI_DOUBLE, &lb, &extent);
  MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &column);
  MPI_Type_create_resized(column, lb, extent, &colres);
  MPI_Type_commit(&colres);

  for (i = 0; i < NT * NT * NT; ++i) a[i] = value(rank, i);
  for (i = 0; i < ROWS * COLS; ++i) m[i] = value(rank, i);

  memset(b, 0, sizeof b);
  MPI_Sendrecv(a, 1, xface, right, 1, b, 1, xface, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int y = 0; y < NT; ++y)
    for (int z = 0; z < NT; ++z)
      for (int x = 0; x < NT; ++x) {
        int in = x == 1 && y >= 1 && y <= N && z >= 1 && z <= N;
        double want = in ? value(left, AT(x, y, z)) : 0.0;
        if (b[AT(x, y, z)] != want) ++errors;
        sum += b[AT(x, y, z)];
      }

  memset(b, 0, sizeof b);
  MPI_Sendrecv(a, 2, idx, right, 2, b, 2, idx, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  {
    int touched[NT * NT * NT] = {0};
    MPI_Aint lbi, exti;
    MPI_Type_get_extent(idx, &lbi, &exti);
    for (int c = 0; c < 2; ++c)
      for (int k = 0; k < 4; ++k)
        for (int j = 0; j <= k; ++j)
          touched[c * (int)(exti / 8) + 12 * k + j] = 1;
    for (i = 0; i < NT * NT * NT; ++i) {
      double want = touched[i] ? value(left, i) : 0.0;
      if (b[i] != want) ++errors;
      sum += b[i];
    }
  }

  memset(col, 0, sizeof col);
  MPI_Sendrecv(m, 3, colres, right, 3, col, 3, colres, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int r = 0; r < ROWS; ++r)
    for (int c = 0; c < COLS; ++c) {
      double want = c < 3 ? value(left, r * COLS + c) : 0.0;
      if (col[r * COLS + c] != want) ++errors;
      sum += col[r * COLS + c];
    }

  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("loop_filled: %d wrong elements, checksum %.1f\n", all, total);
  MPI_Type_free(&colres);
  MPI_Type_free(&column);
  MPI_Type_free(&idx);
  MPI_Type_free(&xface);
  MPI_Finalize();
  return all != 0;
}
