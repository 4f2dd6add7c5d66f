/* Datatypes built by loops that do more than call constructors, as codes write them:
 *  - the four edges of a 2-D grid with ghost cells, built into a static array by an init loop
 *    over the dimension that declares its own subsizes and starts, sets them by the loop
 *    variable, and wraps every call in a CHECK macro; exchanged around a ring;
 *  - the same edges built by a helper that a loop calls with &t[e];
 *  - a chain of nested hvectors, each iteration building on the type the previous one built
 *    (t[k] from t[k - 1]);
 *  - types rebuilt on an element an earlier iteration replaced (c[k] from c[0]).
 * Every received element is checked against the closed form of what the left neighbour sent,
 * everything else must stay zero, and the checksum is printed.
 * NP: 3 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NX 9
#define NY 6
#define SX (NX + 2)
#define SY (NY + 2)
#define ALL (SX * SY)

#define CHECK(call)                                                                                \
  do {                                                                                             \
    int rc_ = (call);                                                                              \
    if (rc_ != MPI_SUCCESS) {                                                                      \
      fprintf(stderr, "%s failed (%d)\n", #call, rc_);                                             \
      MPI_Abort(MPI_COMM_WORLD, rc_);                                                              \
    }                                                                                              \
  } while (0)

static MPI_Datatype edge[4]; /* low y, high y, low x, high x interior rows and columns */

static double value(int rank, int i) { return rank * 10000.0 + i; }

static void init_edges(void) {
  const int sizes[2] = {SY, SX};
  for (int d = 0; d < 2; ++d) {
    int sub[2] = {NY, NX}, lo[2] = {1, 1}, hi[2] = {1, 1};
    sub[d] = 1;
    hi[d] = d == 0 ? NY : NX;
    CHECK(MPI_Type_create_subarray(2, sizes, sub, lo, MPI_ORDER_C, MPI_DOUBLE, &edge[2 * d]));
    CHECK(MPI_Type_create_subarray(2, sizes, sub, hi, MPI_ORDER_C, MPI_DOUBLE, &edge[2 * d + 1]));
    CHECK(MPI_Type_commit(&edge[2 * d]));
    CHECK(MPI_Type_commit(&edge[2 * d + 1]));
  }
}

/* Whether grid cell i lies in edge e. */
static int in_edge(int e, int i) {
  int y = i / SX, x = i % SX;
  switch (e) {
  case 0: return y == 1 && x >= 1 && x <= NX;
  case 1: return y == NY && x >= 1 && x <= NX;
  case 2: return x == 1 && y >= 1 && y <= NY;
  default: return x == NX && y >= 1 && y <= NY;
  }
}

static int check(const double *b, int n, int left, int (*inside)(int, int), int which,
                 double *sum) {
  int errors = 0;
  for (int i = 0; i < n; ++i) {
    double want = inside(which, i) ? value(left, i) : 0.0;
    if (b[i] != want) ++errors;
    *sum += b[i];
  }
  return errors;
}

static int edges(const double *a, double *b, int left, int right, double *sum) {
  int errors = 0;
  for (int e = 0; e < 4; ++e) {
    memset(b, 0, ALL * sizeof *b);
    MPI_Sendrecv(a, 1, edge[e], right, e, b, 1, edge[e], left, e, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    errors += check(b, ALL, left, in_edge, e, sum);
  }
  return errors;
}

/* Edge e again, built by a helper that a loop calls with &t[e]. */
static void make_edge(MPI_Datatype *out, int e) {
  int sizes[2] = {SY, SX};
  int subs[4][2] = {{1, NX}, {1, NX}, {NY, 1}, {NY, 1}};
  int starts[4][2] = {{1, 1}, {NY, 1}, {1, 1}, {1, NX}};
  MPI_Type_create_subarray(2, sizes, subs[e], starts[e], MPI_ORDER_C, MPI_DOUBLE, out);
}

static int helper_edges(const double *a, double *b, int left, int right, double *sum) {
  MPI_Datatype t[4];
  int errors = 0;
  for (int e = 0; e < 4; ++e) {
    make_edge(&t[e], e);
    MPI_Type_commit(&t[e]);
  }
  for (int e = 0; e < 4; ++e) {
    memset(b, 0, ALL * sizeof *b);
    MPI_Sendrecv(a, 1, t[e], right, 30 + e, b, 1, t[e], left, 30 + e, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    errors += check(b, ALL, left, in_edge, e, sum);
  }
  for (int e = 0; e < 4; ++e)
    MPI_Type_free(&t[e]);
  return errors;
}

/* t[0] two doubles 3 apart; t[k] two t[k-1] 4 << k doubles apart. */
static int in_chain(int k, int i) {
  if (k == 0)
    return i == 0 || i == 3;
  int stride = 4 << k;
  return in_chain(k - 1, i) || (i >= stride && in_chain(k - 1, i - stride));
}

static int chain(const double *a, double *b, int left, int right, double *sum) {
  MPI_Datatype t[3];
  int errors = 0;
  MPI_Type_vector(2, 1, 3, MPI_DOUBLE, &t[0]);
  for (int k = 1; k < 3; ++k) {
    MPI_Aint stride = (MPI_Aint)(4 << k) * (MPI_Aint)sizeof(double);
    MPI_Type_create_hvector(2, 1, stride, t[k - 1], &t[k]);
  }
  MPI_Type_commit(&t[2]);
  memset(b, 0, ALL * sizeof *b);
  MPI_Sendrecv(a, 1, t[2], right, 20, b, 1, t[2], left, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  errors += check(b, ALL, left, in_chain, 2, sum);
  for (int k = 0; k < 3; ++k)
    MPI_Type_free(&t[k]);
  return errors;
}

/* c[0] becomes 2 doubles in iteration 0; c[1] and c[2] are 2 of those, 4 doubles. */
static int first_four(int unused, int i) { return unused >= 0 && i < 4; }

static int rebuilt(const double *a, double *b, int left, int right, double *sum) {
  MPI_Datatype c[3];
  int errors = 0;
  c[0] = MPI_DOUBLE;
  for (int k = 0; k < 3; ++k) {
    int n = 2;
    MPI_Type_contiguous(n, c[0], &c[k]);
  }
  MPI_Type_commit(&c[2]);
  memset(b, 0, ALL * sizeof *b);
  MPI_Sendrecv(a, 1, c[2], right, 21, b, 1, c[2], left, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  errors += check(b, ALL, left, first_four, 0, sum);
  for (int k = 0; k < 3; ++k)
    MPI_Type_free(&c[k]);
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
  for (int i = 0; i < ALL; ++i) a[i] = value(rank, i);
  init_edges();
  errors += edges(a, b, left, right, &sum);
  errors += helper_edges(a, b, left, right, &sum);
  errors += chain(a, b, left, right, &sum);
  errors += rebuilt(a, b, left, right, &sum);
  for (int e = 0; e < 4; ++e)
    MPI_Type_free(&edge[e]);

  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("iter_types: 10 exchanges per rank, %d wrong elements, checksum %.1f\n", all, total);
  MPI_Finalize();
  return all != 0;
}
