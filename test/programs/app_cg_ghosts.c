/* A conjugate-gradient solve of a sparse SPD system distributed by rows over a ring of ranks, as
 * small sparse solvers are written: each rank owns NLOC rows; besides the tridiagonal part, a
 * fixed table of local rows (send_idx) couples to the same rows of both neighbours, so the
 * ghost entries a rank needs are an irregular set of its neighbours' entries:
 *  - the send side is MPI_Type_create_indexed_block over a const index table (the coupled rows
 *    plus the boundary entry), the receive side contiguous in the ghost area after the owned
 *    entries; exchanged with MPI_Irecv/MPI_Isend on odd iterations and with
 *    MPI_Neighbor_alltoallw over a periodic 1-D MPI_Cart_create on even ones (receive types
 *    are contiguous blocks placed by byte displacements);
 *  - the CG vectors are carved out of one static workspace (x = work, r = work + NTOT, ...);
 *  - after the solve each rank sends a checkpoint of its x and r to a buddy rank (rank ^ 1) with
 *    one MPI_Type_create_struct whose displacements come from MPI_Get_address of the carved
 *    vectors, and the buddy compares it with the values the owner reports.
 * The residual b - Ax is recomputed with a fresh exchange and the solution compared with a
 * serial CG on the whole system; rank 0 prints the iteration count and the residuals.
 * NP: 4 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NLOC 16                  /* owned rows per rank */
#define NS 5                     /* coupled rows per rank */
#define NG (NS + 1)              /* ghosts from each neighbour */
#define NTOT (NLOC + 2 * NG)     /* owned entries, then ghosts from the left, then from the right */
#define FROM_LEFT NLOC
#define FROM_RIGHT (NLOC + NG)
#define MAXIT 200
#define TOL 1e-24

static const int send_idx[NS] = {0, 1, 3, 6, 10};
static const int to_right[NG] = {0, 1, 3, 6, 10, NLOC - 1}; /* coupled rows, then my last entry */
static const int to_left[NG] = {0, 1, 3, 6, 10, 0};         /* coupled rows, then my first */

static double work[4 * NTOT];
static MPI_Comm ring;
static int left, right;
static MPI_Datatype to_right_t, to_left_t, ghosts_t;

static void exchange(double *v, int it) {
  if (it % 2) {
    MPI_Request req[4];
    MPI_Irecv(&v[FROM_LEFT], NG, MPI_DOUBLE, left, 1, ring, &req[0]);
    MPI_Irecv(&v[FROM_RIGHT], NG, MPI_DOUBLE, right, 2, ring, &req[1]);
    MPI_Isend(v, 1, to_right_t, right, 1, ring, &req[2]);
    MPI_Isend(v, 1, to_left_t, left, 2, ring, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
  } else {
    /* cart neighbours in order: the left one (-1), then the right one (+1) */
    int counts[2] = {1, 1};
    MPI_Aint sdispls[2] = {0, 0};
    MPI_Aint rdispls[2] = {FROM_LEFT * sizeof(double), FROM_RIGHT * sizeof(double)};
    MPI_Datatype stypes[2] = {to_left_t, to_right_t};
    MPI_Datatype rtypes[2] = {ghosts_t, ghosts_t};
    MPI_Neighbor_alltoallw(v, counts, sdispls, stypes, v, counts, rdispls, rtypes, ring);
  }
}

/* y = A v on the owned rows (v's ghosts exchanged). */
static void matvec(double *y, const double *v) {
  for (int i = 0; i < NLOC; ++i) {
    double w = i > 0 ? v[i - 1] : v[FROM_LEFT + NS];
    double e = i < NLOC - 1 ? v[i + 1] : v[FROM_RIGHT + NS];
    y[i] = 6.0 * v[i] - w - e;
    for (int k = 0; k < NS; ++k)
      if (send_idx[k] == i) y[i] -= 0.5 * (v[FROM_LEFT + k] + v[FROM_RIGHT + k]);
  }
}

static double dot(const double *a, const double *b) {
  double s = 0, all;
  for (int i = 0; i < NLOC; ++i) s += a[i] * b[i];
  MPI_Allreduce(&s, &all, 1, MPI_DOUBLE, MPI_SUM, ring);
  return all;
}

static double rhs(int gi) { return (double)((gi * 13) % 7) - 3.0 + 0.25 * (gi % 3); }

/* The same system on one rank: global row gi, n rows. */
static void serial_matvec(double *y, const double *v, int n) {
  for (int gi = 0; gi < n; ++gi) {
    int r = gi / NLOC, i = gi % NLOC;
    y[gi] = 6.0 * v[gi] - v[(gi + n - 1) % n] - v[(gi + 1) % n];
    for (int k = 0; k < NS; ++k)
      if (send_idx[k] == i) {
        int lr = (r + n / NLOC - 1) % (n / NLOC), rr = (r + 1) % (n / NLOC);
        y[gi] -= 0.5 * (v[lr * NLOC + i] + v[rr * NLOC + i]);
      }
  }
}

static int serial_cg(double *x, int n) {
  double *r = calloc(n, sizeof(double)), *p = calloc(n, sizeof(double)), *q = calloc(n, sizeof(double));
  double rr = 0;
  int it;
  for (int g = 0; g < n; ++g) {
    x[g] = 0;
    r[g] = p[g] = rhs(g);
    rr += r[g] * r[g];
  }
  for (it = 0; it < MAXIT && rr > TOL; ++it) {
    serial_matvec(q, p, n);
    double pq = 0, rr1 = 0;
    for (int g = 0; g < n; ++g) pq += p[g] * q[g];
    double alpha = rr / pq;
    for (int g = 0; g < n; ++g) {
      x[g] += alpha * p[g];
      r[g] -= alpha * q[g];
      rr1 += r[g] * r[g];
    }
    for (int g = 0; g < n; ++g) p[g] = r[g] + rr1 / rr * p[g];
    rr = rr1;
  }
  free(r);
  free(p);
  free(q);
  return it;
}

int main(int argc, char **argv) {
  int rank, size, dims[1] = {0}, periods[1] = {1}, bad = 0, allbad = 0, it;
  double *x = work, *r = work + NTOT, *p = work + 2 * NTOT, *q = work + 3 * NTOT;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 3) {
    fprintf(stderr, "needs at least 3 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  dims[0] = size;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  MPI_Comm_rank(ring, &rank);
  MPI_Cart_shift(ring, 0, 1, &left, &right);

  MPI_Type_create_indexed_block(NG, 1, to_right, MPI_DOUBLE, &to_right_t);
  MPI_Type_create_indexed_block(NG, 1, to_left, MPI_DOUBLE, &to_left_t);
  MPI_Type_contiguous(NG, MPI_DOUBLE, &ghosts_t);
  MPI_Type_commit(&to_right_t);
  MPI_Type_commit(&to_left_t);
  MPI_Type_commit(&ghosts_t);

  /* ---- CG ---- */
  double rr = 0;
  for (int i = 0; i < NLOC; ++i) {
    x[i] = 0;
    r[i] = p[i] = rhs(rank * NLOC + i);
  }
  rr = dot(r, r);
  const double rr0 = rr;
  for (it = 0; it < MAXIT && rr > TOL; ++it) {
    exchange(p, it);
    matvec(q, p);
    double alpha = rr / dot(p, q);
    for (int i = 0; i < NLOC; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    double rr1 = dot(r, r);
    for (int i = 0; i < NLOC; ++i) p[i] = r[i] + rr1 / rr * p[i];
    rr = rr1;
  }

  /* ---- check: true residual, serial solution ---- */
  exchange(x, 0);
  matvec(q, x);
  double res = 0;
  for (int i = 0; i < NLOC; ++i) res += (rhs(rank * NLOC + i) - q[i]) * (rhs(rank * NLOC + i) - q[i]);
  double resall;
  MPI_Allreduce(&res, &resall, 1, MPI_DOUBLE, MPI_SUM, ring);
  exchange(x, 1); /* the other exchange must give the same ghosts */
  {
    double q2[NLOC];
    matvec(q2, x);
    for (int i = 0; i < NLOC; ++i)
      if (q2[i] != q[i]) ++bad;
  }
  double *xs = malloc(sizeof(double) * NLOC * size);
  int sit = serial_cg(xs, NLOC * size);
  double maxdiff = 0;
  for (int i = 0; i < NLOC; ++i) maxdiff = fmax(maxdiff, fabs(x[i] - xs[rank * NLOC + i]));
  if (maxdiff > 1e-10 || resall > 1e-20 || it >= MAXIT) ++bad;

  /* ---- buddy checkpoint of the owned x and r: one struct type over the workspace ---- */
  {
    MPI_Aint base, ax, ar;
    MPI_Datatype ckpt;
    int buddy = rank ^ 1;
    MPI_Get_address(work, &base);
    MPI_Get_address(x, &ax);
    MPI_Get_address(r, &ar);
    int blens[2] = {NLOC, NLOC};
    MPI_Aint disps[2] = {ax - base, ar - base};
    MPI_Datatype types[2] = {MPI_DOUBLE, MPI_DOUBLE};
    MPI_Type_create_struct(2, blens, disps, types, &ckpt);
    MPI_Type_commit(&ckpt);
    if (buddy < size) {
      double saved[2 * NLOC], mine[2] = {0, 0}, theirs[2];
      for (int i = 0; i < NLOC; ++i) {
        mine[0] += x[i] * (i + 1);
        mine[1] += r[i] * (i + 1);
      }
      MPI_Sendrecv(work, 1, ckpt, buddy, 7, saved, 2 * NLOC, MPI_DOUBLE, buddy, 7, ring,
                   MPI_STATUS_IGNORE);
      MPI_Sendrecv(mine, 2, MPI_DOUBLE, buddy, 8, theirs, 2, MPI_DOUBLE, buddy, 8, ring,
                   MPI_STATUS_IGNORE);
      double got[2] = {0, 0};
      for (int i = 0; i < NLOC; ++i) {
        got[0] += saved[i] * (i + 1);
        got[1] += saved[NLOC + i] * (i + 1);
      }
      if (got[0] != theirs[0] || got[1] != theirs[1]) {
        fprintf(stderr, "rank %d: checkpoint from %d differs: %g %g vs %g %g\n", rank, buddy,
                got[0], got[1], theirs[0], theirs[1]);
        ++bad;
      }
    }
    MPI_Type_free(&ckpt);
  }

  MPI_Allreduce(&bad, &allbad, 1, MPI_INT, MPI_SUM, ring);
  if (rank == 0) {
    printf("CG on %d rows over %d ranks: %d iterations (serial %d)\n", NLOC * size, size, it, sit);
    printf("initial residual^2 %.6e, true residual^2 below 1e-20: %s\n", rr0,
           resall <= 1e-20 ? "yes" : "no");
    printf("solution vs serial, exchanges, checkpoints: %s (%d problems)\n",
           allbad ? "FAILED" : "ok", allbad);
  }
  free(xs);
  MPI_Type_free(&to_right_t);
  MPI_Type_free(&to_left_t);
  MPI_Type_free(&ghosts_t);
  MPI_Comm_free(&ring);
  MPI_Finalize();
  return allbad ? 1 : 0;
}
