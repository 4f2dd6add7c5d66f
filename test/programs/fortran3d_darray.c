/* A 3-D field in Fortran (column-major) order distributed from rank 0, as a code with a Fortran
 * heritage does it, and the distribution datatypes of MPI_Type_create_darray:
 *  - 3-D MPI_ORDER_FORTRAN subarray blocks of an uneven 2 x 2 x 1 decomposition (GX = 7 splits
 *    4 + 3), built per destination inside rank 0's loop and sent with MPI_Send; each rank
 *    receives its block as contiguous doubles and, a second time, into the interior of a ghosted
 *    local block (a Fortran subarray built from the run-time block shape);
 *  - degenerate types: a Fortran subarray of one element (every subsize 1), a pencil along z
 *    (subsizes 1, 1, GZ), an empty vector (blocks of length 0) sent with count 3;
 *  - a Fortran block sent and received as a C-order block of another shape (same signature);
 *  - darrays in Fortran order (BLOCK x CYCLIC(2) x NONE over 2 x 2 x 1) and in C order
 *    (CYCLIC x BLOCK over 2 x 2), built by rank 0 for every destination and sent, received both as
 *    contiguous doubles and with the receiver's own darray into a global-shaped buffer;
 *  - 1-D darrays where a process owns nothing (BLOCK of 3 over 4) or an uneven CYCLIC(3) share.
 * Every received double is checked against its global (i, j, k); buffers are pre-filled with -1
 * and every element outside the expected footprint must keep it.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define GX 7
#define GY 6
#define GZ 5
#define GALL (GX * GY * GZ)
#define PX 2
#define PY 2
#define G(i, j, k) (10000.0 * (k) + 100.0 * (j) + (i) + 0.5)
#define FIDX(i, j, k) ((i) + GX * ((j) + GY * (k)))

static int errs = 0;
#define EXPECT(cond, ...)                                                                    \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      ++errs;                                                                                \
      if (errs < 20) {                                                                       \
        printf("check failed (line %d): ", __LINE__);                                        \
        printf(__VA_ARGS__);                                                                 \
        printf("\n");                                                                        \
      }                                                                                      \
    }                                                                                        \
  } while (0)

/* BLOCK share of n over p with the default block size ceil(n / p). */
static int blk_lo(int n, int p, int c) {
  int b = (n + p - 1) / p, lo = c * b;
  return lo < n ? lo : n;
}
static int blk_hi(int n, int p, int c) {
  int b = (n + p - 1) / p, hi = (c + 1) * b;
  return hi < n ? hi : n;
}
static int cyc_owns(int i, int d, int p, int c) { return (i / d) % p == c; }

/* Owner p's share of the GX x GY plane: C order, CYCLIC over PX rows, BLOCK over PY columns. */
static MPI_Datatype cshare(int p) {
  MPI_Datatype t;
  int gc[2] = {GX, GY}, pc[2] = {PX, PY};
  int dc[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
  int ac[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
  MPI_Type_create_darray(PX * PY, p, 2, gc, dc, ac, pc, MPI_ORDER_C, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

/* 1-D shares over 4 processes: BLOCK of 3 (process 3 owns nothing) or CYCLIC(3) of 10. */
static MPI_Datatype share(int cyclic, int p) {
  MPI_Datatype t;
  int p4[1] = {4};
  if (cyclic) {
    int g[1] = {10}, d[1] = {MPI_DISTRIBUTE_CYCLIC}, a[1] = {3};
    MPI_Type_create_darray(4, p, 1, g, d, a, p4, MPI_ORDER_FORTRAN, MPI_INT, &t);
  } else {
    int g[1] = {3}, d[1] = {MPI_DISTRIBUTE_BLOCK}, a[1] = {MPI_DISTRIBUTE_DFLT_DARG};
    MPI_Type_create_darray(4, p, 1, g, d, a, p4, MPI_ORDER_C, MPI_INT, &t);
  }
  MPI_Type_commit(&t);
  return t;
}

static void fill(double *b, int n) {
  int i;
  for (i = 0; i < n; ++i) b[i] = -1.0;
}

int main(int argc, char **argv) {
  int rank, size, p, i, j, k, n, all;
  double *glob, recv[GALL], full[GALL];
  MPI_Status st;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != PX * PY) MPI_Abort(MPI_COMM_WORLD, 2);
  glob = malloc(sizeof(double) * GALL);
  for (k = 0; k < GZ; ++k)
    for (j = 0; j < GY; ++j)
      for (i = 0; i < GX; ++i) glob[FIDX(i, j, k)] = G(i, j, k);
  int px = rank / PY, py = rank % PY; /* row-major process grid */
  int x0 = blk_lo(GX, PX, px), x1 = blk_hi(GX, PX, px);
  int y0 = blk_lo(GY, PY, py), y1 = blk_hi(GY, PY, py);

  /* Fortran subarray blocks from rank 0, one type per destination. */
  if (rank == 0) {
    for (p = 1; p < PX * PY; ++p) {
      int sizes[3] = {GX, GY, GZ};
      int sub[3] = {p / PY == 0 ? 4 : 3, 3, GZ};
      int start[3] = {p / PY == 0 ? 0 : 4, p % PY == 0 ? 0 : 3, 0};
      MPI_Datatype blk;
      MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_FORTRAN, MPI_DOUBLE, &blk);
      MPI_Type_commit(&blk);
      MPI_Send(glob, 1, blk, p, 1, MPI_COMM_WORLD);
      MPI_Send(glob, 1, blk, p, 2, MPI_COMM_WORLD);
      MPI_Type_free(&blk);
    }
  } else {
    int lsz[3] = {x1 - x0 + 2, y1 - y0 + 2, GZ + 2}, lsub[3] = {x1 - x0, y1 - y0, GZ};
    int one[3] = {1, 1, 1};
    int lx = lsz[0], ly = lsz[1];
    MPI_Datatype interior;
    fill(recv, GALL);
    MPI_Recv(recv, GALL, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &n);
    EXPECT(n == (x1 - x0) * (y1 - y0) * GZ, "block count %d", n);
    n = 0;
    for (k = 0; k < GZ; ++k)
      for (j = y0; j < y1; ++j)
        for (i = x0; i < x1; ++i, ++n) EXPECT(recv[n] == G(i, j, k), "block %d,%d,%d = %g", i, j, k, recv[n]);
    for (; n < GALL; ++n) EXPECT(recv[n] == -1.0, "block tail %d = %g", n, recv[n]);
    MPI_Type_create_subarray(3, lsz, lsub, one, MPI_ORDER_FORTRAN, MPI_DOUBLE, &interior);
    MPI_Type_commit(&interior);
    fill(full, GALL);
    MPI_Recv(full, 1, interior, 0, 2, MPI_COMM_WORLD, &st);
    for (k = 0; k < GZ + 2; ++k)
      for (j = 0; j < ly; ++j)
        for (i = 0; i < lx; ++i) {
          int ghost = i == 0 || j == 0 || k == 0 || i == lx - 1 || j == ly - 1 || k == GZ + 1;
          double v = full[i + lx * (j + ly * k)];
          EXPECT(v == (ghost ? -1.0 : G(x0 + i - 1, y0 + j - 1, k - 1)), "ghosted %d,%d,%d = %g", i, j, k, v);
        }
    for (i = lx * ly * (GZ + 2); i < GALL; ++i) EXPECT(full[i] == -1.0, "ghosted tail %d", i);
    MPI_Type_free(&interior);
  }

  /* Degenerate Fortran subarrays, ring to the right. */
  {
    const int sizes[3] = {GX, GY, GZ};
    const int ones[3] = {1, 1, 1}, at[3] = {5, 2, 3};
    const int pen[3] = {1, 1, GZ}, pat[3] = {GX - 1, 0, 0};
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Datatype point, pencil, empty;
    double mine[GALL];
    MPI_Type_create_subarray(3, sizes, ones, at, MPI_ORDER_FORTRAN, MPI_DOUBLE, &point);
    MPI_Type_commit(&point);
    MPI_Type_create_subarray(3, sizes, pen, pat, MPI_ORDER_FORTRAN, MPI_DOUBLE, &pencil);
    MPI_Type_commit(&pencil);
    MPI_Type_vector(GZ, 0, GX * GY, MPI_DOUBLE, &empty); /* blocks of length 0 */
    MPI_Type_commit(&empty);
    for (i = 0; i < GALL; ++i) mine[i] = glob[i] + rank * 1e6;
    /* one element (every subsize 1) into the same place of the receiver's array */
    fill(full, GALL);
    MPI_Sendrecv(mine, 1, point, right, 3, full, 1, point, left, 3, MPI_COMM_WORLD, &st);
    for (i = 0; i < GALL; ++i)
      EXPECT(full[i] == (i == FIDX(5, 2, 3) ? G(5, 2, 3) + left * 1e6 : -1.0), "point %d = %g", i, full[i]);
    /* a pencil into contiguous doubles, and GZ consecutive doubles (along x) into a pencil */
    fill(recv, GALL);
    MPI_Sendrecv(mine, 1, pencil, right, 4, recv, GZ, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &st);
    for (i = 0; i < GALL; ++i)
      EXPECT(recv[i] == (i < GZ ? G(GX - 1, 0, i) + left * 1e6 : -1.0), "pencil %d = %g", i, recv[i]);
    fill(full, GALL);
    MPI_Sendrecv(&mine[FIDX(2, 1, 0)], GZ, MPI_DOUBLE, right, 5, full, 1, pencil, left, 5, MPI_COMM_WORLD, &st);
    for (i = 0; i < GALL; ++i) {
      int on = i % (GX * GY) == GX - 1;
      EXPECT(full[i] == (on ? G(2 + i / (GX * GY), 1, 0) + left * 1e6 : -1.0), "pencil in %d = %g", i, full[i]);
    }
    /* empty both ways, count 3, then Get_count with the empty type */
    fill(full, GALL);
    MPI_Sendrecv(mine, 3, empty, right, 6, full, 3, empty, left, 6, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &n);
    EXPECT(n == 0, "empty count %d", n);
    for (i = 0; i < GALL; ++i) EXPECT(full[i] == -1.0, "empty wrote %d", i);
    if (rank == 0) {
      int s1, s2, s3;
      MPI_Aint lb, ext;
      MPI_Type_size(point, &s1);
      MPI_Type_size(pencil, &s2);
      MPI_Type_size(empty, &s3);
      MPI_Type_get_extent(pencil, &lb, &ext);
      printf("degenerate sizes: point %d pencil %d (extent %ld) empty %d\n", s1, s2, (long)ext, s3);
    }
    /* a 4 x 3 x 2 Fortran block received as a 2 x 3 x 4 C-order block of a bigger array */
    {
      const int bsub[3] = {4, 3, 2}, bat[3] = {2, 1, 2};
      int csz[3] = {3, 4, 6}, csub[3] = {2, 3, 4}, cat[3] = {1, 1, 2};
      MPI_Datatype fblk, cblk;
      MPI_Type_create_subarray(3, sizes, bsub, bat, MPI_ORDER_FORTRAN, MPI_DOUBLE, &fblk);
      MPI_Type_commit(&fblk);
      MPI_Type_create_subarray(3, csz, csub, cat, MPI_ORDER_C, MPI_DOUBLE, &cblk);
      MPI_Type_commit(&cblk);
      fill(full, GALL);
      MPI_Sendrecv(mine, 1, fblk, right, 7, full, 1, cblk, left, 7, MPI_COMM_WORLD, &st);
      for (i = 0; i < 3 * 4 * 6; ++i) {
        int a = i / 24, b = i / 6 % 4, c = i % 6;
        double want = -1.0;
        if (a >= 1 && a < 3 && b >= 1 && b < 4 && c >= 2 && c < 6) {
          int q = ((a - 1) * 3 + (b - 1)) * 4 + (c - 2); /* packed position */
          want = G(2 + q % 4, 1 + q / 4 % 3, 2 + q / 12) + left * 1e6;
        }
        EXPECT(full[i] == want, "fortran->C %d = %g, want %g", i, full[i], want);
      }
      for (i = 3 * 4 * 6; i < GALL; ++i) EXPECT(full[i] == -1.0, "fortran->C tail %d", i);
      MPI_Type_free(&fblk);
      MPI_Type_free(&cblk);
    }
    MPI_Type_free(&point);
    MPI_Type_free(&pencil);
    MPI_Type_free(&empty);
  }

  /* darrays: Fortran BLOCK x CYCLIC(2) x NONE, and C-order CYCLIC x BLOCK on a GX x GY plane. */
  {
    int gs[3] = {GX, GY, GZ}, ps[3] = {PX, PY, 1};
    int ds[3] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE};
    int da[3] = {MPI_DISTRIBUTE_DFLT_DARG, 2, MPI_DISTRIBUTE_DFLT_DARG};
    int gc[2] = {GX, GY}, pc[2] = {PX, PY};
    int dc[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
    int ac[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
    MPI_Datatype own, ownc;
    MPI_Request rq[3 * PX * PY];
    double plane[GX * GY];
    if (rank == 0) {
      for (i = 0; i < GX * GY; ++i) plane[i] = 1000.0 + i; /* C order: plane[x * GY + y] */
      for (p = 0; p < PX * PY; ++p) {
        MPI_Datatype f, c;
        MPI_Type_create_darray(PX * PY, p, 3, gs, ds, da, ps, MPI_ORDER_FORTRAN, MPI_DOUBLE, &f);
        MPI_Type_commit(&f);
        MPI_Type_create_darray(PX * PY, p, 2, gc, dc, ac, pc, MPI_ORDER_C, MPI_DOUBLE, &c);
        MPI_Type_commit(&c);
        MPI_Isend(glob, 1, f, p, 8, MPI_COMM_WORLD, &rq[3 * p]);
        MPI_Isend(glob, 1, f, p, 9, MPI_COMM_WORLD, &rq[3 * p + 1]);
        MPI_Isend(plane, 1, c, p, 10, MPI_COMM_WORLD, &rq[3 * p + 2]);
        MPI_Type_free(&f); /* pending sends keep what they need */
        MPI_Type_free(&c);
      }
    }
    MPI_Type_create_darray(size, rank, 3, gs, ds, da, ps, MPI_ORDER_FORTRAN, MPI_DOUBLE, &own);
    MPI_Type_commit(&own);
    MPI_Type_create_darray(size, rank, 2, gc, dc, ac, pc, MPI_ORDER_C, MPI_DOUBLE, &ownc);
    MPI_Type_commit(&ownc);
    fill(recv, GALL);
    MPI_Recv(recv, GALL, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &n);
    {
      int q = 0;
      for (k = 0; k < GZ; ++k)
        for (j = 0; j < GY; ++j)
          for (i = 0; i < GX; ++i)
            if (i >= x0 && i < x1 && cyc_owns(j, 2, PY, py)) {
              EXPECT(q < n && recv[q] == G(i, j, k), "darray f %d,%d,%d = %g", i, j, k, q < GALL ? recv[q] : 0.0);
              ++q;
            }
      EXPECT(q == n, "darray f count %d, want %d", n, q);
      for (; q < GALL; ++q) EXPECT(recv[q] == -1.0, "darray f tail %d", q);
    }
    fill(full, GALL);
    MPI_Recv(full, 1, own, 0, 9, MPI_COMM_WORLD, &st);
    for (k = 0; k < GZ; ++k)
      for (j = 0; j < GY; ++j)
        for (i = 0; i < GX; ++i) {
          int mineq = i >= x0 && i < x1 && cyc_owns(j, 2, PY, py);
          EXPECT(full[FIDX(i, j, k)] == (mineq ? G(i, j, k) : -1.0), "darray own %d,%d,%d", i, j, k);
        }
    fill(recv, GALL);
    MPI_Recv(recv, GX * GY, MPI_DOUBLE, 0, 10, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &n);
    {
      int q = 0;
      for (i = 0; i < GX; ++i)
        for (j = 0; j < GY; ++j)
          if (cyc_owns(i, 1, PX, px) && j >= blk_lo(GY, PY, py) && j < blk_hi(GY, PY, py)) {
            EXPECT(q < n && recv[q] == 1000.0 + i * GY + j, "darray c %d,%d", i, j);
            ++q;
          }
      EXPECT(q == n, "darray c count %d, want %d", n, q);
      for (; q < GALL; ++q) EXPECT(recv[q] == -1.0, "darray c tail %d", q);
    }
    if (rank == 0) MPI_Waitall(3 * PX * PY, rq, MPI_STATUSES_IGNORE); /* its own three matched too */
    /* the C-order piece back to rank 0 with the owner's own darray, as a gather by hand */
    if (rank != 0) {
      for (i = 0; i < GX * GY; ++i) plane[i] = 1000.0 + i + rank * 0.25;
      MPI_Send(plane, 1, ownc, 0, 11, MPI_COMM_WORLD);
    } else {
      double back[GX * GY];
      for (i = 0; i < GX * GY; ++i) back[i] = -1.0;
      /* one receive per owner, types from a helper called with each owner's rank */
      MPI_Datatype c1 = cshare(1), c2 = cshare(2), c3 = cshare(3);
      MPI_Recv(back, 1, c2, 2, 11, MPI_COMM_WORLD, &st);
      MPI_Recv(back, 1, c1, 1, 11, MPI_COMM_WORLD, &st);
      MPI_Recv(back, 1, c3, 3, 11, MPI_COMM_WORLD, &st);
      MPI_Type_free(&c1);
      MPI_Type_free(&c2);
      MPI_Type_free(&c3);
      for (i = 0; i < GX; ++i)
        for (j = 0; j < GY; ++j) {
          int owner = (i % PX) * PY + (j / ((GY + PY - 1) / PY));
          EXPECT(back[i * GY + j] == (owner ? 1000.0 + i * GY + j + owner * 0.25 : -1.0), "gather %d,%d", i, j);
        }
    }
    MPI_Type_free(&own);
    MPI_Type_free(&ownc);
  }

  /* 1-D darrays: BLOCK of 3 over 4 (rank 3 owns nothing), CYCLIC(3) of 10 over 4. */
  {
    int vals[10], got[10];
    for (i = 0; i < 10; ++i) vals[i] = 100 * rank + i;
    if (rank == 0) {
      MPI_Datatype b1 = share(0, 1), b2 = share(0, 2), b3 = share(0, 3);
      MPI_Datatype y1 = share(1, 1), y2 = share(1, 2), y3 = share(1, 3);
      MPI_Send(vals, 1, b1, 1, 12, MPI_COMM_WORLD);
      MPI_Send(vals, 1, y1, 1, 13, MPI_COMM_WORLD);
      MPI_Send(vals, 1, b2, 2, 12, MPI_COMM_WORLD);
      MPI_Send(vals, 1, y2, 2, 13, MPI_COMM_WORLD);
      MPI_Send(vals, 1, b3, 3, 12, MPI_COMM_WORLD); /* rank 3 owns nothing: an empty message */
      MPI_Send(vals, 1, y3, 3, 13, MPI_COMM_WORLD);
      MPI_Type_free(&b1);
      MPI_Type_free(&b2);
      MPI_Type_free(&b3);
      MPI_Type_free(&y1);
      MPI_Type_free(&y2);
      MPI_Type_free(&y3);
    } else {
      for (i = 0; i < 10; ++i) got[i] = -1;
      MPI_Recv(got, 10, MPI_INT, 0, 12, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_INT, &n);
      EXPECT(n == (rank < 3), "block of 3: rank %d got %d", rank, n);
      for (i = 0; i < 10; ++i) EXPECT(got[i] == (i < n ? rank : -1), "block of 3 [%d] = %d", i, got[i]);
      for (i = 0; i < 10; ++i) got[i] = -1;
      MPI_Recv(got, 10, MPI_INT, 0, 13, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_INT, &n);
      EXPECT(n == (rank < 3 ? 3 : 1), "cyclic(3): rank %d got %d", rank, n);
      for (i = 0; i < 10; ++i) EXPECT(got[i] == (i < n ? 3 * rank + i : -1), "cyclic(3) [%d] = %d", i, got[i]);
    }
  }

  MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("fortran3d_darray: errors %d\n", all);
  free(glob);
  MPI_Finalize();
  return all ? 1 : 0;
}
