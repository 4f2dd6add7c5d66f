/* Datatypes built by helpers into MPI_Datatype * parameters, as C codes without return-value
 * builders write them: one helper makes the column and row types of a 2-D grid with ghost cells
 * (two outputs), another the x face of a 3-D block for a dimension argument, a third a plane of
 * columns from a column type passed by value. Each type goes around a ring with MPI_Sendrecv
 * into a zeroed buffer; every received element is checked against the closed form of what the
 * left neighbour sent, and the checksum is printed.
 * NP: 3 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define NX 10
#define NY 7
#define N 5
#define NT (N + 2)

static double value(int rank, int i) { return rank * 100000.0 + i; }

static void grid_types(MPI_Datatype *column, MPI_Datatype *row, int nx, int ny) {
  MPI_Type_vector(ny, 1, nx + 2, MPI_DOUBLE, column); /* one interior column */
  MPI_Type_contiguous(nx, MPI_DOUBLE, row);           /* one interior row */
  MPI_Type_commit(column);
  MPI_Type_commit(row);
}

static void face_type(MPI_Datatype *face, int dim) {
  int sizes[3] = {NT, NT, NT}, sub[3] = {N, N, N}, starts[3] = {1, 1, 1};
  sub[dim] = 1;
  MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, face);
  MPI_Type_commit(face);
}

static void plane_type(MPI_Datatype *plane, MPI_Datatype column, int count) {
  MPI_Type_create_hvector(count, 1, (MPI_Aint)((NX + 2) * (NY + 2) * sizeof(double)), column,
                          plane);
  MPI_Type_commit(plane);
}

static int check(const double *got, int n, const int *inside, int left, double *sum) {
  int errors = 0;
  for (int i = 0; i < n; ++i) {
    double want = inside[i] ? value(left, i) : 0.0;
    if (got[i] != want) ++errors;
    *sum += got[i];
  }
  return errors;
}

int main(int argc, char **argv) {
  enum { G = (NX + 2) * (NY + 2), C = NT * NT * NT, P = 3 * G, ALL = C > P ? C : P };
  static double a[ALL], b[ALL];
  static int inside[ALL];
  int rank, size, left, right, errors = 0, all = 0, i;
  MPI_Datatype column, row, yface, plane;
  double sum = 0.0, total = 0.0;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  grid_types(&column, &row, NX, NY);
  face_type(&yface, 1);
  plane_type(&plane, column, 3);
  for (i = 0; i < ALL; ++i) a[i] = value(rank, i);

  /* column 1 of the grid: rows 0..NY-1 at stride NX+2 */
  memset(b, 0, sizeof b);
  memset(inside, 0, sizeof inside);
  MPI_Sendrecv(a + 1, 1, column, right, 1, b + 1, 1, column, left, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  for (int y = 0; y < NY; ++y) inside[1 + y * (NX + 2)] = 1;
  errors += check(b, G, inside, left, &sum);

  /* row 1 of the grid, interior x */
  memset(b, 0, sizeof b);
  memset(inside, 0, sizeof inside);
  MPI_Sendrecv(a + (NX + 2) + 1, 1, row, right, 2, b + (NX + 2) + 1, 1, row, left, 2,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int x = 0; x < NX; ++x) inside[(NX + 2) + 1 + x] = 1;
  errors += check(b, G, inside, left, &sum);

  /* the y face of the 3-D block: y = 1, x and z interior */
  memset(b, 0, sizeof b);
  memset(inside, 0, sizeof inside);
  MPI_Sendrecv(a, 1, yface, right, 3, b, 1, yface, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int x = 1; x <= N; ++x)
    for (int z = 1; z <= N; ++z) inside[(x * NT + 1) * NT + z] = 1;
  errors += check(b, C, inside, left, &sum);

  /* three planes of column 0 */
  memset(b, 0, sizeof b);
  memset(inside, 0, sizeof inside);
  MPI_Sendrecv(a, 1, plane, right, 4, b, 1, plane, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int p = 0; p < 3; ++p)
    for (int y = 0; y < NY; ++y) inside[p * G + y * (NX + 2)] = 1;
  errors += check(b, P, inside, left, &sum);

  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("out_helpers: %d wrong elements, checksum %.1f\n", all, total);
  MPI_Type_free(&plane);
  MPI_Type_free(&yface);
  MPI_Type_free(&row);
  MPI_Type_free(&column);
  MPI_Finalize();
  return all != 0;
}
