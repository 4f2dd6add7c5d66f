/* A cell-centred geometric multigrid V-cycle for the periodic 2-D Poisson problem -lap(u) = f on
 * a fixed 2 x 2 process grid (MPI_Cart_create), the way small MG solvers are written:
 *  - LEVELS levels, the local block halving each level (N0, N0/2, ...); setup_levels() builds
 *    the row (MPI_Type_contiguous) and column (MPI_Type_vector) halo types of every level in a
 *    counted loop into static arrays indexed by the level; halo(a, l) exchanges them (rows with
 *    MPI_Sendrecv, columns with MPI_Irecv/MPI_Isend/MPI_Waitall);
 *  - the residual builds its own halo types on every call and frees them again, as codes that
 *    regrid between steps do;
 *  - the coarsest level is solved redundantly: every rank sends its interior (an
 *    MPI_Type_create_subarray of the ghosted block) to every rank, which receives it straight
 *    into the global coarse grid with per-source subarray types built in a counted loop over the
 *    ranks (MPI_Irecv indexed by the loop variable);
 *  - weighted Jacobi smoothing, restriction by averaging, piecewise constant prolongation.
 * Every rank also runs the same V-cycles serially on the whole grid; after every cycle its block
 * of the solution must equal the serial solution bit for bit, and the residual must fall.
 * Rank 0 prints the residual per cycle.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PX 2
#define PY 2
#define N0 16                    /* local interior cells per side on the finest level */
#define LEVELS 4                 /* N0, N0/2, N0/4, N0/8 */
#define NC (N0 >> (LEVELS - 1))  /* local cells per side on the coarsest level */
#define GC (NC * PX)             /* global coarse cells per side (PX == PY) */
#define CYCLES 4
#define PRE 2
#define POST 2
#define COARSE_SWEEPS 60
#define OMEGA 0.8
#define IX(i, j, s) ((i) * (s) + (j))

typedef struct {
  int n[LEVELS];  /* interior cells per side on each level */
  double h2[LEVELS];
  double *u[LEVELS], *f[LEVELS], *r[LEVELS];
  int parallel;   /* 1: a block of the 2 x 2 grid; 0: the whole grid on one rank */
} mg_t;

static MPI_Comm cart;
static int up, down, lft, rgt, me, coords[2];
static MPI_Datatype rowt[LEVELS], colt[LEVELS];

static void setup_levels(void) {
  for (int l = 0; l < LEVELS; ++l) {
    MPI_Type_contiguous(N0 >> l, MPI_DOUBLE, &rowt[l]);
    MPI_Type_vector(N0 >> l, 1, (N0 >> l) + 2, MPI_DOUBLE, &colt[l]);
    MPI_Type_commit(&rowt[l]);
    MPI_Type_commit(&colt[l]);
  }
}

static void free_levels(void) {
  for (int l = 0; l < LEVELS; ++l) {
    MPI_Type_free(&rowt[l]);
    MPI_Type_free(&colt[l]);
  }
}

/* Halo exchange of level l's array a ((n + 2) x (n + 2), one ghost layer). */
static void halo(double *a, int l) {
  const int n = N0 >> l, s = n + 2;
  MPI_Request req[4];
  MPI_Sendrecv(&a[IX(1, 1, s)], 1, rowt[l], up, 0, &a[IX(n + 1, 1, s)], 1, rowt[l], down, 0, cart,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(&a[IX(n, 1, s)], 1, rowt[l], down, 1, &a[IX(0, 1, s)], 1, rowt[l], up, 1, cart,
               MPI_STATUS_IGNORE);
  MPI_Irecv(&a[IX(1, n + 1, s)], 1, colt[l], rgt, 2, cart, &req[0]);
  MPI_Irecv(&a[IX(1, 0, s)], 1, colt[l], lft, 3, cart, &req[1]);
  MPI_Isend(&a[IX(1, 1, s)], 1, colt[l], lft, 2, cart, &req[2]);
  MPI_Isend(&a[IX(1, n, s)], 1, colt[l], rgt, 3, cart, &req[3]);
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
}

/* The serial grid's ghosts: periodic copies of its own interior. */
static void periodic(double *a, int n) {
  const int s = n + 2;
  for (int j = 1; j <= n; ++j) {
    a[IX(0, j, s)] = a[IX(n, j, s)];
    a[IX(n + 1, j, s)] = a[IX(1, j, s)];
  }
  for (int i = 1; i <= n; ++i) {
    a[IX(i, 0, s)] = a[IX(i, n, s)];
    a[IX(i, n + 1, s)] = a[IX(i, 1, s)];
  }
}

static void ghosts(const mg_t *m, double *a, int l) {
  if (m->parallel)
    halo(a, l);
  else
    periodic(a, m->n[l]);
}

static void jacobi(double *u, const double *f, double *tmp, int n, double h2) {
  const int s = n + 2;
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j) {
      double sum = u[IX(i - 1, j, s)] + u[IX(i + 1, j, s)] + u[IX(i, j - 1, s)] + u[IX(i, j + 1, s)];
      tmp[IX(i, j, s)] = (1.0 - OMEGA) * u[IX(i, j, s)] + OMEGA * 0.25 * (sum + h2 * f[IX(i, j, s)]);
    }
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j) u[IX(i, j, s)] = tmp[IX(i, j, s)];
}

static void smooth(mg_t *m, int l, int sweeps) {
  for (int k = 0; k < sweeps; ++k) {
    ghosts(m, m->u[l], l);
    jacobi(m->u[l], m->f[l], m->r[l], m->n[l], m->h2[l]);
  }
}

/* r = f + lap(u), with its own halo types built for this level on every call. */
static double residual(mg_t *m, int l) {
  const int n = m->n[l], s = n + 2;
  double *u = m->u[l], *f = m->f[l], *r = m->r[l], norm = 0;
  if (m->parallel) {
    MPI_Datatype row, col;
    MPI_Request req[8];
    MPI_Type_contiguous(n, MPI_DOUBLE, &row);
    MPI_Type_vector(n, 1, s, MPI_DOUBLE, &col);
    MPI_Type_commit(&row);
    MPI_Type_commit(&col);
    MPI_Irecv(&u[IX(n + 1, 1, s)], 1, row, down, 10, cart, &req[0]);
    MPI_Irecv(&u[IX(0, 1, s)], 1, row, up, 11, cart, &req[1]);
    MPI_Irecv(&u[IX(1, n + 1, s)], 1, col, rgt, 12, cart, &req[2]);
    MPI_Irecv(&u[IX(1, 0, s)], 1, col, lft, 13, cart, &req[3]);
    MPI_Isend(&u[IX(1, 1, s)], 1, row, up, 10, cart, &req[4]);
    MPI_Isend(&u[IX(n, 1, s)], 1, row, down, 11, cart, &req[5]);
    MPI_Isend(&u[IX(1, 1, s)], 1, col, lft, 12, cart, &req[6]);
    MPI_Isend(&u[IX(1, n, s)], 1, col, rgt, 13, cart, &req[7]);
    MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
    MPI_Type_free(&row);
    MPI_Type_free(&col);
  } else {
    periodic(u, n);
  }
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j) {
      double sum = u[IX(i - 1, j, s)] + u[IX(i + 1, j, s)] + u[IX(i, j - 1, s)] + u[IX(i, j + 1, s)];
      r[IX(i, j, s)] = f[IX(i, j, s)] + (sum - 4.0 * u[IX(i, j, s)]) / m->h2[l];
      norm += r[IX(i, j, s)] * r[IX(i, j, s)];
    }
  return norm;
}

/* The coarsest level, solved on the whole coarse grid by every rank. */
static void coarse_solve(mg_t *m) {
  const int L = LEVELS - 1, s = NC + 2, gs = GC + 2;
  static double cu[(GC + 2) * (GC + 2)], cf[(GC + 2) * (GC + 2)], ct[(GC + 2) * (GC + 2)];
  if (!m->parallel) {
    smooth(m, L, COARSE_SWEEPS);
    return;
  }
  MPI_Datatype mine, block[PX * PY];
  MPI_Request req[2 * PX * PY];
  int sizes[2] = {s, s}, sub[2] = {NC, NC}, start[2] = {1, 1};
  MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &mine);
  MPI_Type_commit(&mine);
  for (int r = 0; r < PX * PY; ++r) {
    int gsizes[2] = {gs, gs}, gstart[2] = {1 + (r / PX) * NC, 1 + (r % PX) * NC};
    MPI_Type_create_subarray(2, gsizes, sub, gstart, MPI_ORDER_C, MPI_DOUBLE, &block[r]);
    MPI_Type_commit(&block[r]);
  }
  memset(cf, 0, sizeof cf);
  for (int r = 0; r < PX * PY; ++r) MPI_Irecv(cf, 1, block[r], r, 20, cart, &req[r]);
  for (int r = 0; r < PX * PY; ++r)
    MPI_Isend(m->f[L], 1, mine, r, 20, cart, &req[PX * PY + r]);
  MPI_Waitall(2 * PX * PY, req, MPI_STATUSES_IGNORE);
  memset(cu, 0, sizeof cu);
  for (int k = 0; k < COARSE_SWEEPS; ++k) {
    periodic(cu, GC);
    jacobi(cu, cf, ct, GC, m->h2[L]);
  }
  for (int i = 1; i <= NC; ++i)
    for (int j = 1; j <= NC; ++j)
      m->u[L][IX(i, j, s)] = cu[IX(coords[0] * NC + i, coords[1] * NC + j, gs)];
  MPI_Type_free(&mine);
  for (int r = 0; r < PX * PY; ++r) MPI_Type_free(&block[r]);
}

static void vcycle(mg_t *m) {
  for (int l = 0; l < LEVELS - 1; ++l) {
    const int n = m->n[l], s = n + 2, c = n / 2, cs = c + 2;
    smooth(m, l, PRE);
    residual(m, l);
    for (int i = 1; i <= c; ++i)
      for (int j = 1; j <= c; ++j) {
        const double *r = m->r[l];
        m->f[l + 1][IX(i, j, cs)] = 0.25 * (r[IX(2 * i - 1, 2 * j - 1, s)] + r[IX(2 * i, 2 * j - 1, s)] +
                                            r[IX(2 * i - 1, 2 * j, s)] + r[IX(2 * i, 2 * j, s)]);
      }
    memset(m->u[l + 1], 0, sizeof(double) * cs * cs);
  }
  coarse_solve(m);
  for (int l = LEVELS - 2; l >= 0; --l) {
    const int n = m->n[l], s = n + 2, cs = n / 2 + 2;
    for (int i = 1; i <= n; ++i)
      for (int j = 1; j <= n; ++j) m->u[l][IX(i, j, s)] += m->u[l + 1][IX((i + 1) / 2, (j + 1) / 2, cs)];
    smooth(m, l, POST);
  }
}

static double rhs(int gi, int gj, int g) {
  return ((gi / (g / 4)) % 2 ? 1.0 : -1.0) + 0.5 * (gj < g / 2 ? 1.0 : -1.0);
}

static void mg_init(mg_t *m, int parallel) {
  const int scale = parallel ? 1 : PX;
  m->parallel = parallel;
  for (int l = 0; l < LEVELS; ++l) {
    int n = (N0 >> l) * scale, s = n + 2;
    m->n[l] = n;
    m->h2[l] = (double)(1 << l) * (1 << l) / ((double)N0 * PX * N0 * PX);
    m->u[l] = calloc((size_t)s * s, sizeof(double));
    m->f[l] = calloc((size_t)s * s, sizeof(double));
    m->r[l] = calloc((size_t)s * s, sizeof(double));
  }
  const int n = m->n[0], s = n + 2, g = N0 * PX;
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j) {
      int gi = parallel ? coords[0] * N0 + i - 1 : i - 1, gj = parallel ? coords[1] * N0 + j - 1 : j - 1;
      m->f[0][IX(i, j, s)] = rhs(gi, gj, g);
    }
}

static void mg_free(mg_t *m) {
  for (int l = 0; l < LEVELS; ++l) {
    free(m->u[l]);
    free(m->f[l]);
    free(m->r[l]);
  }
}

int main(int argc, char **argv) {
  int size, dims[2] = {PY, PX}, periods[2] = {1, 1}, bad = 0, allbad = 0;
  mg_t par, ser;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != PX * PY) {
    fprintf(stderr, "needs %d ranks\n", PX * PY);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Comm_rank(cart, &me);
  MPI_Cart_coords(cart, me, 2, coords);
  MPI_Cart_shift(cart, 0, 1, &up, &down);
  MPI_Cart_shift(cart, 1, 1, &lft, &rgt);
  setup_levels();
  mg_init(&par, 1);
  mg_init(&ser, 0);

  double r0 = residual(&par, 0), r0all;
  MPI_Allreduce(&r0, &r0all, 1, MPI_DOUBLE, MPI_SUM, cart);
  if (me == 0) printf("multigrid %d levels, %d x %d cells on %d x %d ranks\n", LEVELS, N0 * PX, N0 * PY, PY, PX);
  if (me == 0) printf("cycle 0: residual^2 %.6e\n", r0all);
  double prev = r0all;
  for (int c = 1; c <= CYCLES; ++c) {
    vcycle(&par);
    vcycle(&ser);
    const int s = N0 + 2, gs = N0 * PX + 2;
    for (int i = 1; i <= N0; ++i)
      for (int j = 1; j <= N0; ++j) {
        double want = ser.u[0][IX(coords[0] * N0 + i, coords[1] * N0 + j, gs)];
        if (par.u[0][IX(i, j, s)] != want) {
          if (bad < 3)
            fprintf(stderr, "rank %d cycle %d: u(%d,%d) = %.17g, serial %.17g\n", me, c, i, j,
                    par.u[0][IX(i, j, s)], want);
          ++bad;
        }
      }
    double rr = residual(&par, 0), rall;
    MPI_Allreduce(&rr, &rall, 1, MPI_DOUBLE, MPI_SUM, cart);
    if (me == 0) {
      printf("cycle %d: residual^2 %.6e (reduction %.3f)\n", c, rall, rall / prev);
      if (!(rall < 0.5 * prev)) {
        printf("cycle %d: the residual did not fall\n", c);
        ++bad;
      }
    }
    prev = rall;
  }
  MPI_Allreduce(&bad, &allbad, 1, MPI_INT, MPI_SUM, cart);
  if (me == 0) printf("parallel vs serial: %s (%d mismatches)\n", allbad ? "FAILED" : "ok", allbad);
  mg_free(&par);
  mg_free(&ser);
  free_levels();
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return allbad ? 1 : 0;
}
