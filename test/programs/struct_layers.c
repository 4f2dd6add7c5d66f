/* A 1-D ring decomposition of a 2-D field whose state struct travels down several layers of
 * functions, as C solvers are layered: main -> solver_init(&s) -> make_types(s) -> make_edge(s,
 * e) builds the halo types into the struct (with `if (!s) return;` guards), and main ->
 * solver_run(&s, u) -> halo_exchange(s, u) -> post_edges(s, u) sends them. Each rank sends its
 * top interior row and its right interior column (a vector resized to one cell) to the next
 * rank and receives the previous rank's into its ghost row and column; every cell is checked
 * (ghosts hold the neighbour's interior values, the rest keep their own) and a checksum printed.
 * NP: 3 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NX 12
#define NY 9
#define SX (NX + 2)
#define SY (NY + 2)

struct solver {
  int rank, size, next, prev;
  MPI_Datatype row, col;    /* one interior row; one interior column */
  MPI_Datatype edge[2];     /* the same two, built by make_edge through an index */
  int steps;
};

static int at(int y, int x) { return y * SX + x; }
static double value(int rank, int i) { return rank * 10000.0 + i; }

static MPI_Datatype column_type(int rows) {
  MPI_Datatype v, t;
  MPI_Type_vector(rows, 1, SX, MPI_DOUBLE, &v);
  MPI_Type_create_resized(v, 0, sizeof(double), &t);
  MPI_Type_free(&v);
  return t;
}

static void make_edge(struct solver *s, int e) {
  if (e == 0)
    MPI_Type_contiguous(NX, MPI_DOUBLE, &s->edge[0]);
  else
    s->edge[1] = column_type(NY);
  MPI_Type_commit(&s->edge[e]);
}

static void make_types(struct solver *s) {
  if (!s)
    return;
  MPI_Type_contiguous(NX, MPI_DOUBLE, &s->row);
  MPI_Type_commit(&s->row);
  s->col = column_type(NY);
  MPI_Type_commit(&s->col);
  make_edge(s, 0);
  make_edge(s, 1);
}

static void solver_init(struct solver *s) {
  MPI_Comm_rank(MPI_COMM_WORLD, &s->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &s->size);
  s->next = (s->rank + 1) % s->size;
  s->prev = (s->rank + s->size - 1) % s->size;
  s->steps = 0;
  make_types(s);
}

/* Sends the top interior row and the right interior column; receives into the bottom ghost row
 * and the left ghost column. */
static void post_edges(const struct solver *s, double *u) {
  MPI_Request req[4];
  MPI_Irecv(&u[at(0, 1)], 1, s->row, s->prev, 0, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(&u[at(1, 0)], 1, s->col, s->prev, 1, MPI_COMM_WORLD, &req[1]);
  MPI_Isend(&u[at(NY, 1)], 1, s->row, s->next, 0, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(&u[at(1, NX)], 1, s->col, s->next, 1, MPI_COMM_WORLD, &req[3]);
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
}

/* The same exchange through the indexed edge types, blocking. */
static void send_edges(struct solver *s, double *u) {
  for (int e = 0; e < 2; ++e) {
    const int from = e == 0 ? at(NY, 1) : at(1, NX), to = e == 0 ? at(0, 1) : at(1, 0);
    MPI_Sendrecv(&u[from], 1, s->edge[e], s->next, 2 + e, &u[to], 1, s->edge[e], s->prev, 2 + e,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

static void halo_exchange(struct solver *s, double *u, int step) {
  if (s == NULL)
    return;
  if (step % 2 == 0)
    post_edges(s, u);
  else
    send_edges(s, u);
  s->steps++;
}

/* Counts the cells that differ from what they must hold after an exchange. */
static int check(const struct solver *s, const double *u) {
  int bad = 0;
  for (int y = 0; y < SY; ++y)
    for (int x = 0; x < SX; ++x) {
      const int i = at(y, x);
      double want = value(s->rank, i);
      if (y == 0 && x >= 1 && x <= NX)
        want = value(s->prev, at(NY, x));
      else if (x == 0 && y >= 1 && y <= NY)
        want = value(s->prev, at(y, NX));
      bad += u[i] != want;
    }
  return bad;
}

static int solver_run(struct solver *s, double *u, int steps) {
  int bad = 0;
  for (int step = 0; step < steps; ++step) {
    for (int i = 0; i < SX * SY; ++i)
      u[i] = value(s->rank, i);
    halo_exchange(s, u, step);
    bad += check(s, u);
  }
  return bad;
}

static void solver_free(struct solver *s) {
  MPI_Type_free(&s->row);
  MPI_Type_free(&s->col);
  MPI_Type_free(&s->edge[0]);
  MPI_Type_free(&s->edge[1]);
}

int main(int argc, char **argv) {
  static double u[SX * SY];
  struct solver s;
  MPI_Init(&argc, &argv);
  solver_init(&s);
  int bad = solver_run(&s, u, 4), all_bad = 0;
  double sum = 0, all_sum = 0;
  for (int i = 0; i < SX * SY; ++i)
    sum += u[i];
  MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&sum, &all_sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (s.rank == 0)
    printf("struct_layers: %d steps, %d wrong cells, checksum %.1f\n", s.steps, all_bad, all_sum);
  solver_free(&s);
  MPI_Finalize();
  return all_bad != 0;
}
