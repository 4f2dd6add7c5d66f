/* A 2-D halo exchange whose datatypes live in struct members, the way C stencil codes often
 * bundle a decomposition: a static `struct halo` holds the column and row types next to the
 * neighbour ranks (set by MPI_Cart_shift into its members) and a step counter; setup() builds
 * the types, exchange() sends the four edges with MPI_Sendrecv. A static `struct edges` holds
 * the same edges as arrays of send and receive types, set up in one loop, for an
 * Irecv/Isend/Waitall exchange indexed by the loop variable. A last exchange keeps its types in
 * a local struct filled by a builder helper. Every ghost
 * cell is checked against the closed form of the neighbour's interior, every other cell must
 * keep its value, and the checksum is printed.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define NX 12
#define NY 9
#define SX (NX + 2)
#define SY (NY + 2)
#define ALL (SX * SY)

struct halo {
  MPI_Datatype column; /* NY cells of one x, SX apart */
  MPI_Datatype row;    /* NX contiguous cells */
  int up, down, left, right;
  int steps;
};

static struct halo halo;
static MPI_Comm cart;

/* The same four edges as arrays of datatypes inside a struct, set up in one loop. */
struct edges {
  MPI_Datatype send[4], recv[4]; /* left, right, up, down */
  int peer[4];
};
static struct edges edges;

static double value(int rank, int i) { return rank * 100000.0 + i; }
static int at(int y, int x) { return y * SX + x; }

static void setup(void) {
  int dims[2] = {0, 0}, periods[2] = {1, 1}, size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Cart_shift(cart, 0, 1, &halo.up, &halo.down);
  MPI_Cart_shift(cart, 1, 1, &halo.left, &halo.right);
  halo.steps = 0;
  MPI_Type_vector(NY, 1, SX, MPI_DOUBLE, &halo.column);
  MPI_Type_commit(&halo.column);
  MPI_Type_contiguous(NX, MPI_DOUBLE, &halo.row);
  MPI_Type_commit(&halo.row);
}

/* Interior edges go out; the opposite ghost edges come in. */
static void exchange(double *u) {
  MPI_Sendrecv(u + at(1, NX), 1, halo.column, halo.right, 0, u + at(1, 0), 1, halo.column,
               halo.left, 0, cart, MPI_STATUS_IGNORE);
  MPI_Sendrecv(u + at(1, 1), 1, halo.column, halo.left, 1, u + at(1, NX + 1), 1, halo.column,
               halo.right, 1, cart, MPI_STATUS_IGNORE);
  MPI_Sendrecv(u + at(NY, 1), 1, halo.row, halo.down, 2, u + at(0, 1), 1, halo.row, halo.up, 2,
               cart, MPI_STATUS_IGNORE);
  MPI_Sendrecv(u + at(1, 1), 1, halo.row, halo.up, 3, u + at(NY + 1, 1), 1, halo.row, halo.down,
               3, cart, MPI_STATUS_IGNORE);
  ++halo.steps;
}

/* Edge e of the interior goes to neighbour e; ghost edge e comes from it. */
static void setup_edges(void) {
  int sizes[2] = {SY, SX};
  int sub[4][2] = {{NY, 1}, {NY, 1}, {1, NX}, {1, NX}};
  int from[4][2] = {{1, 1}, {1, NX}, {1, 1}, {NY, 1}};        /* y, x of the first cell */
  int into[4][2] = {{1, 0}, {1, NX + 1}, {0, 1}, {NY + 1, 1}};
  for (int e = 0; e < 4; ++e) {
    MPI_Type_create_subarray(2, sizes, sub[e], from[e], MPI_ORDER_C, MPI_DOUBLE, &edges.send[e]);
    MPI_Type_commit(&edges.send[e]);
    MPI_Type_create_subarray(2, sizes, sub[e], into[e], MPI_ORDER_C, MPI_DOUBLE, &edges.recv[e]);
    MPI_Type_commit(&edges.recv[e]);
  }
  edges.peer[0] = halo.left;
  edges.peer[1] = halo.right;
  edges.peer[2] = halo.up;
  edges.peer[3] = halo.down;
}

/* Edge e goes out with tag e and lands in the neighbour's opposite ghost edge (e ^ 1). */
static void exchange_edges(double *u) {
  MPI_Request reqs[8];
  for (int e = 0; e < 4; ++e)
    MPI_Irecv(u, 1, edges.recv[e], edges.peer[e], e ^ 1, cart, &reqs[e]);
  for (int e = 0; e < 4; ++e)
    MPI_Isend(u, 1, edges.send[e], edges.peer[e], e, cart, &reqs[4 + e]);
  MPI_Waitall(8, reqs, MPI_STATUSES_IGNORE);
}

/* Ghost cells hold the neighbours' interior edges, corners keep -1, the interior its values. */
static int check(const double *u, int rank, double *sum) {
  int errors = 0;
  for (int y = 0; y < SY; ++y)
    for (int x = 0; x < SX; ++x) {
      double want;
      int corner = (y == 0 || y == SY - 1) && (x == 0 || x == SX - 1);
      if (corner)
        want = -1.0; /* never written */
      else if (x == 0)
        want = value(halo.left, at(y, NX));
      else if (x == SX - 1)
        want = value(halo.right, at(y, 1));
      else if (y == 0)
        want = value(halo.up, at(NY, x));
      else if (y == SY - 1)
        want = value(halo.down, at(1, x));
      else
        want = value(rank, at(y, x));
      if (u[at(y, x)] != want) ++errors;
      *sum += u[at(y, x)] * (1 + (y * SX + x) % 7);
    }
  return errors;
}

struct pair_types {
  MPI_Datatype two_columns; /* the two rightmost interior columns */
  MPI_Datatype ghosts;      /* one column: the interior's first, the receiver's last ghost */
  int tag;
};

static void make_columns(MPI_Datatype *out, int width, int stride) {
  MPI_Type_vector(NY, width, stride, MPI_DOUBLE, out);
}

/* Two interior columns to the right neighbour, into a zeroed buffer, with a local struct. */
static int columns(const double *u, double *v, double *sum) {
  struct pair_types t;
  MPI_Request reqs[2];
  int errors = 0;
  t.tag = 7;
  make_columns(&t.two_columns, 2, SX);
  MPI_Type_commit(&t.two_columns);
  MPI_Type_vector(NY, 1, SX, MPI_DOUBLE, &t.ghosts);
  MPI_Type_commit(&t.ghosts);
  memset(v, 0, ALL * sizeof *v);
  MPI_Irecv(v + at(1, 0), 1, t.two_columns, halo.left, t.tag, cart, &reqs[0]);
  MPI_Isend(u + at(1, NX - 1), 1, t.two_columns, halo.right, t.tag, cart, &reqs[1]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  for (int i = 0; i < ALL; ++i) {
    int y = i / SX, x = i % SX;
    double want = y >= 1 && y <= NY && x < 2 ? value(halo.left, at(y, NX - 1 + x)) : 0.0;
    if (v[i] != want) ++errors;
    *sum += v[i];
  }
  /* The last ghost column back, one column wide. */
  memset(v, 0, ALL * sizeof *v);
  MPI_Sendrecv(u + at(1, 1), 1, t.ghosts, halo.left, 8, v + at(1, NX + 1), 1, t.ghosts,
               halo.right, 8, cart, MPI_STATUS_IGNORE);
  for (int i = 0; i < ALL; ++i) {
    int y = i / SX, x = i % SX;
    double want = y >= 1 && y <= NY && x == NX + 1 ? value(halo.right, at(y, 1)) : 0.0;
    if (v[i] != want) ++errors;
    *sum += v[i];
  }
  MPI_Type_free(&t.two_columns);
  MPI_Type_free(&t.ghosts);
  return errors;
}

int main(int argc, char **argv) {
  static double u[ALL], v[ALL];
  int rank, errors = 0, all = 0;
  double sum = 0.0, total = 0.0;

  MPI_Init(&argc, &argv);
  setup();
  MPI_Comm_rank(cart, &rank);
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < ALL; ++i) u[i] = value(rank, i);
    u[at(0, 0)] = u[at(0, SX - 1)] = u[at(SY - 1, 0)] = u[at(SY - 1, SX - 1)] = -1.0;
    exchange(u);
    errors += check(u, rank, &sum);
  }
  setup_edges();
  for (int i = 0; i < ALL; ++i) u[i] = value(rank, i);
  u[at(0, 0)] = u[at(0, SX - 1)] = u[at(SY - 1, 0)] = u[at(SY - 1, SX - 1)] = -1.0;
  exchange_edges(u);
  errors += check(u, rank, &sum);
  for (int i = 0; i < ALL; ++i) u[i] = value(rank, i);
  errors += columns(u, v, &sum);
  MPI_Type_free(&halo.column);
  MPI_Type_free(&halo.row);
  for (int e = 0; e < 4; ++e) {
    MPI_Type_free(&edges.send[e]);
    MPI_Type_free(&edges.recv[e]);
  }

  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, cart);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, cart);
  if (rank == 0)
    printf("struct_halo: %d + 1 exchanges of 4 edges and 2 column exchanges per rank, %d wrong "
           "elements, checksum %.1f\n",
           halo.steps, all, total);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return all != 0;
}
