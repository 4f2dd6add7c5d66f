/* A 2-D decomposition kept in a local struct that functions fill and read through a pointer,
 * the way C codes pass their state around: decomp_init(&d) creates the Cartesian communicator,
 * sets the neighbour ranks through MPI_Cart_shift into members and builds the send and receive
 * types of the four edges in one loop (arrays of datatypes inside the struct) and a resized
 * column type; exchange(&d, u) posts Irecv/Isend by the loop variable; main sends the column
 * type itself; decomp_free(&d) frees everything. Every ghost cell is checked against the closed
 * form of the neighbour's interior, every other cell must keep its value, and the checksum is
 * printed.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>

#define NX 10
#define NY 7
#define SX (NX + 2)
#define SY (NY + 2)
#define ALL (SX * SY)

struct decomp {
  MPI_Comm cart;
  int rank;
  int nbr[4];                    /* left, right, up, down */
  MPI_Datatype send[4], recv[4]; /* interior edge e out, ghost edge e in */
  MPI_Datatype column;           /* one interior column, resized to one cell */
  int exchanges;
};

static double value(int rank, int i) { return rank * 100000.0 + i; }
static int at(int y, int x) { return y * SX + x; }

static void decomp_init(struct decomp *d) {
  int dims[2] = {0, 0}, periods[2] = {1, 1}, size;
  int sizes[2] = {SY, SX};
  int sub[4][2] = {{NY, 1}, {NY, 1}, {1, NX}, {1, NX}};
  int from[4][2] = {{1, 1}, {1, NX}, {1, 1}, {NY, 1}};
  int into[4][2] = {{1, 0}, {1, NX + 1}, {0, 1}, {NY + 1, 1}};
  MPI_Datatype col;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &d->cart);
  MPI_Comm_rank(d->cart, &d->rank);
  MPI_Cart_shift(d->cart, 1, 1, &d->nbr[0], &d->nbr[1]);
  MPI_Cart_shift(d->cart, 0, 1, &d->nbr[2], &d->nbr[3]);
  d->exchanges = 0;
  for (int e = 0; e < 4; ++e) {
    MPI_Type_create_subarray(2, sizes, sub[e], from[e], MPI_ORDER_C, MPI_DOUBLE, &d->send[e]);
    MPI_Type_commit(&d->send[e]);
    MPI_Type_create_subarray(2, sizes, sub[e], into[e], MPI_ORDER_C, MPI_DOUBLE, &d->recv[e]);
    MPI_Type_commit(&d->recv[e]);
  }
  MPI_Type_vector(NY, 1, SX, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, sizeof(double), &d->column);
  MPI_Type_free(&col);
  MPI_Type_commit(&d->column);
}

/* Edge e goes out with tag e and lands in the neighbour's opposite ghost edge (e ^ 1). */
static void exchange(struct decomp *d, double *u) {
  MPI_Request reqs[8];
  for (int e = 0; e < 4; ++e)
    MPI_Irecv(u, 1, d->recv[e], d->nbr[e], e ^ 1, d->cart, &reqs[e]);
  for (int e = 0; e < 4; ++e)
    MPI_Isend(u, 1, d->send[e], d->nbr[e], e, d->cart, &reqs[4 + e]);
  MPI_Waitall(8, reqs, MPI_STATUSES_IGNORE);
  ++d->exchanges;
}

static void decomp_free(struct decomp *d) {
  for (int e = 0; e < 4; ++e) {
    MPI_Type_free(&d->send[e]);
    MPI_Type_free(&d->recv[e]);
  }
  MPI_Type_free(&d->column);
  MPI_Comm_free(&d->cart);
}

/* Ghost cells hold the neighbours' interior edges, corners keep -1, the interior its values. */
static int check(const struct decomp *d, const double *u, double *sum) {
  int errors = 0;
  for (int y = 0; y < SY; ++y)
    for (int x = 0; x < SX; ++x) {
      double want;
      int corner = (y == 0 || y == SY - 1) && (x == 0 || x == SX - 1);
      if (corner)
        want = -1.0;
      else if (x == 0)
        want = value(d->nbr[0], at(y, NX));
      else if (x == SX - 1)
        want = value(d->nbr[1], at(y, 1));
      else if (y == 0)
        want = value(d->nbr[2], at(NY, x));
      else if (y == SY - 1)
        want = value(d->nbr[3], at(1, x));
      else
        want = value(d->rank, at(y, x));
      if (u[at(y, x)] != want) ++errors;
      *sum += u[at(y, x)] * (1 + (y * SX + x) % 7);
    }
  return errors;
}

int main(int argc, char **argv) {
  static double u[ALL], v[ALL];
  struct decomp d;
  int errors = 0, all = 0;
  double sum = 0.0, total = 0.0;

  MPI_Init(&argc, &argv);
  decomp_init(&d);
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < ALL; ++i) u[i] = value(d.rank, i) + round;
    u[at(0, 0)] = u[at(0, SX - 1)] = u[at(SY - 1, 0)] = u[at(SY - 1, SX - 1)] = -1.0;
    exchange(&d, u);
    for (int i = 0; i < ALL; ++i) u[i] -= round * (u[i] != -1.0);
    errors += check(&d, u, &sum);
  }
  /* Three interior columns to the right neighbour, packed one cell apart: the resized column
   * steps by one double, so they land side by side in the receive buffer's first row. */
  for (int i = 0; i < ALL; ++i) {
    u[i] = value(d.rank, i);
    v[i] = 0.0;
  }
  MPI_Sendrecv(u + at(1, NX - 2), 3, d.column, d.nbr[1], 9, v + at(1, 1), 3, d.column,
               d.nbr[0], 9, d.cart, MPI_STATUS_IGNORE);
  for (int i = 0; i < ALL; ++i) {
    int y = i / SX, x = i % SX;
    double want = y >= 1 && y <= NY && x >= 1 && x <= 3 ? value(d.nbr[0], at(y, NX - 3 + x)) : 0.0;
    if (v[i] != want) ++errors;
    sum += v[i];
  }

  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, d.cart);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, d.cart);
  if (d.rank == 0)
    printf("struct_setup: %d exchanges of 4 edges and 1 column exchange per rank, %d wrong "
           "elements, checksum %.1f\n",
           d.exchanges, all, total);
  decomp_free(&d);
  MPI_Finalize();
  return all != 0;
}
