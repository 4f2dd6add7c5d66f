/* Face datatypes kept in static arrays, the way 3-D stencil codes often set them up: an init
 * function builds the six send faces and six receive faces of a grid with one ghost layer in one
 * counted loop over the faces (subsizes and starts are rows of 2-D tables), the exchange posts
 * one Irecv and one Isend per face, indexing the arrays by the loop variable (and by f ^ 1, the
 * opposite face), a lazily built static array of edge columns and a column pair a helper builds
 * into a static variable serve a second exchange. Each
 * rank sends right around a ring into a zeroed grid; every received ghost cell is checked against
 * the closed form of what the left neighbour's interior held, every other cell must stay zero,
 * and the checksum is printed.
 * NP: 3 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define NX 10
#define NY 7
#define NZ 5
#define SX (NX + 2)
#define SY (NY + 2)
#define SZ (NZ + 2)
#define ALL (SX * SY * SZ)

static MPI_Datatype send_face[6], recv_face[6];
/* The ghost-cell corner of each face, a table the exchange and the check share. */
static const int face_sub[6][3] = {{1, NY, NX}, {1, NY, NX}, {NZ, 1, NX},
                                   {NZ, 1, NX}, {NZ, NY, 1}, {NZ, NY, 1}};
static const int send_start[6][3] = {{1, 1, 1},  {NZ, 1, 1}, {1, 1, 1},
                                     {1, NY, 1}, {1, 1, 1},  {1, 1, NX}};
static const int recv_start[6][3] = {{0, 1, 1},      {NZ + 1, 1, 1}, {1, 0, 1},
                                     {1, NY + 1, 1}, {1, 1, 0},      {1, 1, NX + 1}};

static double value(int rank, int i) { return rank * 1000000.0 + i; }
static int at(int z, int y, int x) { return (z * SY + y) * SX + x; }

/* Two columns along z, built by a helper into a static variable. */
static MPI_Datatype pair_column;
static void make_columns(MPI_Datatype *out, int width) {
  MPI_Type_vector(NZ, width, SX * SY, MPI_DOUBLE, out);
}

static void init_faces(void) {
  int sizes[3] = {SZ, SY, SX};
  int sub[6][3] = {{1, NY, NX}, {1, NY, NX}, {NZ, 1, NX}, {NZ, 1, NX}, {NZ, NY, 1}, {NZ, NY, 1}};
  int sstart[6][3] = {{1, 1, 1}, {NZ, 1, 1}, {1, 1, 1}, {1, NY, 1}, {1, 1, 1}, {1, 1, NX}};
  int rstart[6][3] = {{0, 1, 1},      {NZ + 1, 1, 1}, {1, 0, 1},
                      {1, NY + 1, 1}, {1, 1, 0},      {1, 1, NX + 1}};
  for (int f = 0; f < 6; ++f) {
    MPI_Type_create_subarray(3, sizes, sub[f], sstart[f], MPI_ORDER_C, MPI_DOUBLE, &send_face[f]);
    MPI_Type_create_subarray(3, sizes, sub[f], rstart[f], MPI_ORDER_C, MPI_DOUBLE, &recv_face[f]);
    MPI_Type_commit(&send_face[f]);
    MPI_Type_commit(&recv_face[f]);
  }
  make_columns(&pair_column, 2);
  MPI_Type_commit(&pair_column);
}

static void free_faces(void) {
  for (int f = 0; f < 6; ++f) {
    MPI_Type_free(&send_face[f]);
    MPI_Type_free(&recv_face[f]);
  }
  MPI_Type_free(&pair_column);
}

/* Columns along z at the grid's x-y edges, built on first use. */
static MPI_Datatype edge_column(int e) {
  static MPI_Datatype cols[4];
  static int ready = 0;
  if (!ready) {
    MPI_Type_vector(NZ, 1, SX * SY, MPI_DOUBLE, &cols[0]);
    MPI_Type_create_hvector(NZ, 1, (MPI_Aint)(SX * SY * sizeof(double)), MPI_DOUBLE, &cols[1]);
    MPI_Type_vector(NZ, 2, SX * SY, MPI_DOUBLE, &cols[2]);
    MPI_Type_vector(2, 1, 2 * SX * SY, MPI_DOUBLE, &cols[3]);
    for (int k = 0; k < 4; ++k)
      MPI_Type_commit(&cols[k]);
    ready = 1;
  }
  return cols[e];
}

/* Face f of the left neighbour's interior lands in the ghost cells of the opposite face. */
static void exchange(const double *a, double *b, int left, int right) {
  MPI_Request reqs[12];
  for (int f = 0; f < 6; ++f)
    MPI_Irecv(b, 1, recv_face[f ^ 1], left, f, MPI_COMM_WORLD, &reqs[2 * f]);
  for (int f = 0; f < 6; ++f)
    MPI_Isend(a, 1, send_face[f], right, f, MPI_COMM_WORLD, &reqs[2 * f + 1]);
  MPI_Waitall(12, reqs, MPI_STATUSES_IGNORE);
}

static int check_faces(const double *b, int left, double *sum) {
  static int expect_set[ALL];
  static double expect[ALL];
  int errors = 0;
  memset(expect_set, 0, sizeof expect_set);
  for (int f = 0; f < 6; ++f) {
    const int *s = send_start[f], *r = recv_start[f ^ 1], *n = face_sub[f];
    for (int z = 0; z < n[0]; ++z)
      for (int y = 0; y < n[1]; ++y)
        for (int x = 0; x < n[2]; ++x) {
          int to = at(r[0] + z, r[1] + y, r[2] + x);
          expect[to] = value(left, at(s[0] + z, s[1] + y, s[2] + x));
          expect_set[to] = 1;
        }
  }
  for (int i = 0; i < ALL; ++i) {
    double want = expect_set[i] ? expect[i] : 0.0;
    if (b[i] != want) ++errors;
    *sum += b[i];
  }
  return errors;
}

/* Edge e's column at `offset` of the left neighbour, and zero elsewhere. */
static int check_edge(const double *b, int e, int offset, int left, double *sum) {
  int errors = 0;
  for (int i = 0; i < ALL; ++i) {
    int d = i - offset, inside = 0;
    if (d >= 0 && d % (SX * SY) < (e == 2 ? 2 : 1)) {
      int z = d / (SX * SY);
      inside = e == 3 ? z % 2 == 0 && z / 2 < 2 : z < NZ;
    }
    double want = inside ? value(left, i) : 0.0;
    if (b[i] != want) ++errors;
    *sum += b[i];
  }
  return errors;
}

static int edges(const double *a, double *b, int left, int right, double *sum) {
  enum { E0 = (SX * SY + SX + 1), E1 = E0 + NX - 1, E2 = E0 + (NY - 1) * SX, E3 = E2 + NX - 2 };
  int errors = 0;
  memset(b, 0, ALL * sizeof *b);
  MPI_Sendrecv(a + E0, 1, edge_column(0), right, 10, b + E0, 1, edge_column(0), left, 10,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  errors += check_edge(b, 0, E0, left, sum);
  memset(b, 0, ALL * sizeof *b);
  MPI_Sendrecv(a + E1, 1, edge_column(1), right, 11, b + E1, 1, edge_column(1), left, 11,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  errors += check_edge(b, 1, E1, left, sum);
  memset(b, 0, ALL * sizeof *b);
  MPI_Sendrecv(a + E2, 1, edge_column(2), right, 12, b + E2, 1, edge_column(2), left, 12,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  errors += check_edge(b, 2, E2, left, sum);
  memset(b, 0, ALL * sizeof *b);
  MPI_Sendrecv(a + E3, 1, edge_column(3), right, 13, b + E3, 1, edge_column(3), left, 13,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  errors += check_edge(b, 3, E3, left, sum);
  memset(b, 0, ALL * sizeof *b);
  MPI_Sendrecv(a + E1 - 1, 1, pair_column, right, 14, b + E1 - 1, 1, pair_column, left, 14,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  errors += check_edge(b, 2, E1 - 1, left, sum);
  return errors;
}

int main(int argc, char **argv) {
  static double a[ALL], b[ALL];
  int rank, size, errors = 0, all = 0;
  double sum = 0.0, total = 0.0;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  init_faces();
  for (int i = 0; i < ALL; ++i) a[i] = value(rank, i);

  for (int round = 0; round < 2; ++round) {
    memset(b, 0, sizeof b);
    exchange(a, b, left, right);
    errors += check_faces(b, left, &sum);
  }
  errors += edges(a, b, left, right, &sum);
  free_faces();

  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("static_faces: 2 face exchanges and 5 edge columns per rank, %d wrong elements, "
           "checksum %.1f\n",
           all, total);
  MPI_Finalize();
  return all != 0;
}
