/* Datatypes kept in globals, the way many C codes set them up: an init function builds a column,
 * a row and a plane of a 2-D/3-D grid with ghost cells into file-scope variables (two static, one
 * of external linkage), an exchange function uses them, and a lazily built static local serves a
 * third function; the init function takes the sizes as parameters from its one call. Built
 * with one command (ONESTEP), so tempi-cc may prove the global of external
 * linkage too. Each type goes around a ring into a zeroed buffer; every received element is
 * checked against the closed form of what the left neighbour sent, and the checksum is printed.
 * NP: 3
 * ONESTEP: 1 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define NX 12
#define NY 9
#define NZ 4
#define G ((NX + 2) * (NY + 2))

static MPI_Datatype column_t;             /* one interior column: NY doubles at stride NX+2 */
static MPI_Datatype row_t = MPI_DATATYPE_NULL;
MPI_Datatype plane_t;                     /* external linkage: NZ columns, one per plane */
static int nsent;

static double value(int rank, int i) { return rank * 100000.0 + i; }

/* The sizes come in as parameters, from the one call in main. */
static void init_types(int nx, int ny, int nz) {
  MPI_Type_vector(ny, 1, nx + 2, MPI_DOUBLE, &column_t);
  MPI_Type_commit(&column_t);
  MPI_Type_contiguous(nx, MPI_DOUBLE, &row_t);
  MPI_Type_commit(&row_t);
  MPI_Type_create_hvector(nz, 1, (MPI_Aint)((nx + 2) * (ny + 2) * sizeof(double)), column_t,
                          &plane_t);
  MPI_Type_commit(&plane_t);
}

static void free_types(void) {
  MPI_Type_free(&column_t);
  MPI_Type_free(&row_t);
  MPI_Type_free(&plane_t);
}

/* A diagonal-ish block type built on first use and kept for the whole run. */
static MPI_Datatype corner_type(void) {
  static MPI_Datatype t = MPI_DATATYPE_NULL;
  if (t == MPI_DATATYPE_NULL) {
    MPI_Type_vector(3, 2, NX + 3, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
  }
  return t;
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

/* Sends the type's elements of `a` right and receives the left neighbour's into `b`. */
static void ring(const double *a, double *b, MPI_Datatype t, int offset, int left, int right,
                 int tag) {
  MPI_Request reqs[2];
  MPI_Irecv(b + offset, 1, t, left, tag, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(a + offset, 1, t, right, tag, MPI_COMM_WORLD, &reqs[1]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  ++nsent;
}

static void exchange_columns(const double *a, double *b, int left, int right) {
  MPI_Sendrecv(a + 1, 1, column_t, right, 1, b + 1, 1, column_t, left, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  ++nsent;
}

static void exchange_rows(const double *a, double *b, int left, int right) {
  MPI_Request reqs[2];
  MPI_Irecv(b + (NX + 2) + 1, 1, row_t, left, 2, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(a + (NX + 2) + 1, 1, row_t, right, 2, MPI_COMM_WORLD, &reqs[1]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  ++nsent;
}

static void exchange_planes(const double *a, double *b, int left, int right) {
  MPI_Sendrecv(a + NX, 1, plane_t, right, 3, b + NX, 1, plane_t, left, 3, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  ++nsent;
}

int main(int argc, char **argv) {
  enum { ALL = G * NZ };
  static double a[ALL], b[ALL];
  static int inside[ALL];
  int rank, size, left, right, errors = 0, all = 0, i;
  double sum = 0.0, total = 0.0;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  init_types(NX, NY, NZ);
  for (i = 0; i < ALL; ++i) a[i] = value(rank, i);

  memset(b, 0, sizeof b);
  memset(inside, 0, sizeof inside);
  exchange_columns(a, b, left, right);
  for (int y = 0; y < NY; ++y) inside[1 + y * (NX + 2)] = 1;
  errors += check(b, ALL, inside, left, &sum);

  memset(b, 0, sizeof b);
  memset(inside, 0, sizeof inside);
  exchange_rows(a, b, left, right);
  for (int x = 0; x < NX; ++x) inside[(NX + 2) + 1 + x] = 1;
  errors += check(b, ALL, inside, left, &sum);

  memset(b, 0, sizeof b);
  memset(inside, 0, sizeof inside);
  exchange_planes(a, b, left, right);
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y) inside[NX + z * G + y * (NX + 2)] = 1;
  errors += check(b, ALL, inside, left, &sum);

  for (int round = 0; round < 2; ++round) {
    memset(b, 0, sizeof b);
    memset(inside, 0, sizeof inside);
    ring(a, b, corner_type(), 5 + round, left, right, 4 + round);
    for (int k = 0; k < 3; ++k) {
      inside[5 + round + k * (NX + 3)] = 1;
      inside[5 + round + k * (NX + 3) + 1] = 1;
    }
    errors += check(b, ALL, inside, left, &sum);
  }
  free_types();

  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("global_types: %d exchanges per rank, %d wrong elements, checksum %.1f\n", nsent, all,
           total);
  MPI_Finalize();
  return all != 0;
}
