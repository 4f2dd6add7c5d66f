/* A vectorized stencil as performance codes write it for -O3 -march=native builds: the leading
 * dimension of the field is padded to the SIMD width that the target's predefined macros give
 * (__AVX512F__: 64 bytes, __AVX__: 32, __SSE2__: 16), so every row starts on a vector boundary;
 * the field comes from aligned_alloc with that alignment, and the inner loops carry
 * `#pragma GCC ivdep` and __builtin_assume_aligned. The ranks form a periodic 2 x 2 Cartesian
 * grid (MPI_Cart_create); the halo is exchanged with a column type whose stride is the padded
 * leading dimension (MPI_Type_vector(NY, 1, LDA, ...)) and a row type (contiguous NX), and the
 * interiors are gathered on rank 0 through a subarray of the padded block. Each of three steps
 * adds a constant in a vectorized loop, exchanges the halo, checks every ghost and a 5-point
 * stencil sum against closed-form values of the global indices; rank 0 checks the gathered
 * global field. The output does not depend on the padding (it differs between machines).
 * NP: 4
 * CFLAGS: -std=c11 -O3 -march=native -Wall -Wextra -Werror */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__AVX512F__)
#define SIMD_BYTES 64
#elif defined(__AVX__)
#define SIMD_BYTES 32
#elif defined(__SSE2__)
#define SIMD_BYTES 16
#else
#define SIMD_BYTES 8
#endif
#define VLEN (SIMD_BYTES / (int)sizeof(double))
#define PAD_TO(n, v) ((((n) + (v)-1) / (v)) * (v))

#define NX 19
#define NY 13
#define PX 2
#define PY 2
#define GXN (PX * NX)
#define GYN (PY * NY)
#define LDA PAD_TO(NX + 2, VLEN) /* padded leading dimension: row starts are aligned */
#define ROWS (NY + 2)
#define AT(y, x) ((size_t)(y) * LDA + (size_t)(x))

static double gval(int gy, int gx, int step) {
  gy = (gy + GYN) % GYN;
  gx = (gx + GXN) % GXN;
  return (double)(step * 100000 + gy * 1000 + gx);
}

struct grid {
  MPI_Comm cart;
  int rank, coords[2];
  int north, south, west, east; /* north: y - 1 */
};

static void add_constant(double *u, double c) {
  double *a = __builtin_assume_aligned(u, SIMD_BYTES);
  int y, x;
  for (y = 1; y <= NY; ++y) {
#pragma GCC ivdep
    for (x = 1; x <= NX; ++x) a[AT(y, x)] += c;
  }
}

/* 5-point sums of the interior into s (same padded layout). */
static void stencil_sum(const double *u, double *s) {
  const double *a = __builtin_assume_aligned(u, SIMD_BYTES);
  double *b = __builtin_assume_aligned(s, SIMD_BYTES);
  int y, x;
  for (y = 1; y <= NY; ++y) {
#pragma GCC ivdep
    for (x = 1; x <= NX; ++x)
      b[AT(y, x)] = a[AT(y - 1, x)] + a[AT(y + 1, x)] + a[AT(y, x - 1)] + a[AT(y, x + 1)];
  }
}

static int exchange(const struct grid *g, double *u, int step) {
  MPI_Datatype col, row;
  MPI_Request req[8];
  MPI_Status st[8];
  int tag = 100 * step;

  MPI_Type_vector(NY, 1, LDA, MPI_DOUBLE, &col);
  MPI_Type_contiguous(NX, MPI_DOUBLE, &row);
  MPI_Type_commit(&col);
  MPI_Type_commit(&row);
  MPI_Irecv(&u[AT(1, 0)], 1, col, g->west, tag + 1, g->cart, &req[0]);
  MPI_Irecv(&u[AT(1, NX + 1)], 1, col, g->east, tag + 2, g->cart, &req[1]);
  MPI_Irecv(&u[AT(0, 1)], 1, row, g->north, tag + 3, g->cart, &req[2]);
  MPI_Irecv(&u[AT(NY + 1, 1)], 1, row, g->south, tag + 4, g->cart, &req[3]);
  MPI_Isend(&u[AT(1, NX)], 1, col, g->east, tag + 1, g->cart, &req[4]);
  MPI_Isend(&u[AT(1, 1)], 1, col, g->west, tag + 2, g->cart, &req[5]);
  MPI_Isend(&u[AT(NY, 1)], 1, row, g->south, tag + 3, g->cart, &req[6]);
  MPI_Isend(&u[AT(1, 1)], 1, row, g->north, tag + 4, g->cart, &req[7]);
  MPI_Waitall(8, req, st);
  MPI_Type_free(&row);
  MPI_Type_free(&col);
  return 0;
}

static int check(const struct grid *g, const double *u, const double *s, int step) {
  int y, x, bad = 0, gy0 = g->coords[0] * NY, gx0 = g->coords[1] * NX;
  for (y = 0; y <= NY + 1; ++y)
    for (x = 0; x <= NX + 1; ++x) {
      int corner = (y == 0 || y == NY + 1) && (x == 0 || x == NX + 1);
      double want = corner ? -1.0 : gval(gy0 + y - 1, gx0 + x - 1, step);
      if (u[AT(y, x)] != want) ++bad;
    }
  for (y = 1; y <= NY; ++y)
    for (x = 1; x <= NX; ++x) {
      int gy = gy0 + y - 1, gx = gx0 + x - 1;
      double want = gval(gy - 1, gx, step) + gval(gy + 1, gx, step) + gval(gy, gx - 1, step) +
                    gval(gy, gx + 1, step);
      if (s[AT(y, x)] != want) ++bad;
    }
  /* the padding after the east ghost is never touched */
  for (y = 0; y <= NY + 1; ++y)
    for (x = NX + 2; x < LDA; ++x)
      if (u[AT(y, x)] != -7.0) ++bad;
  return bad;
}

static int gather(const struct grid *g, const double *u, int step) {
  static double global[GYN][GXN];
  MPI_Datatype interior, block;
  int r, y, x, bad = 0;

  MPI_Type_create_subarray(2, (const int[]){ROWS, LDA}, (const int[]){NY, NX},
                           (const int[]){1, 1}, MPI_ORDER_C, MPI_DOUBLE, &interior);
  MPI_Type_vector(NY, NX, GXN, MPI_DOUBLE, &block);
  MPI_Type_commit(&interior);
  MPI_Type_commit(&block);
  if (g->rank == 0) {
    MPI_Request req[PX * PY];
    MPI_Status st[PX * PY];
    memset(global, 0, sizeof global);
    for (r = 0; r < PX * PY; ++r) {
      int c[2];
      MPI_Cart_coords(g->cart, r, 2, c);
      MPI_Irecv(&global[c[0] * NY][c[1] * NX], 1, block, r, 7, g->cart, &req[r]);
    }
    MPI_Send(u, 1, interior, 0, 7, g->cart);
    MPI_Waitall(PX * PY, req, st);
    for (y = 0; y < GYN; ++y)
      for (x = 0; x < GXN; ++x)
        if (global[y][x] != gval(y, x, step)) ++bad;
  } else {
    MPI_Send(u, 1, interior, 0, 7, g->cart);
  }
  MPI_Type_free(&block);
  MPI_Type_free(&interior);
  return bad;
}

int main(int argc, char **argv) {
  struct grid g;
  int dims[2] = {PY, PX}, periods[2] = {1, 1}, size, step, y, x;
  int bad[3] = {0, 0, 0}, sum[3] = {0, 0, 0};
  double *u, *s;
  size_t bytes = sizeof(double) * ROWS * LDA;

  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != PX * PY) {
    MPI_Finalize();
    return 2;
  }
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &g.cart);
  MPI_Comm_rank(g.cart, &g.rank);
  MPI_Cart_coords(g.cart, g.rank, 2, g.coords);
  MPI_Cart_shift(g.cart, 0, 1, &g.north, &g.south);
  MPI_Cart_shift(g.cart, 1, 1, &g.west, &g.east);

  bytes = (bytes + SIMD_BYTES - 1) / SIMD_BYTES * SIMD_BYTES;
  u = aligned_alloc(SIMD_BYTES, bytes);
  s = aligned_alloc(SIMD_BYTES, bytes);
  if (!u || !s) MPI_Abort(MPI_COMM_WORLD, 3);
  for (y = 0; y < ROWS; ++y)
    for (x = 0; x < LDA; ++x) {
      int inside = y >= 1 && y <= NY && x >= 1 && x <= NX;
      u[AT(y, x)] = inside ? gval(g.coords[0] * NY + y - 1, g.coords[1] * NX + x - 1, 0)
                           : (x < NX + 2 ? -1.0 : -7.0);
      s[AT(y, x)] = 0.0;
    }

  for (step = 1; step <= 3; ++step) {
    add_constant(u, 100000.0);
    exchange(&g, u, step);
    stencil_sum(u, s);
    bad[0] += check(&g, u, s, step);
    bad[1] += gather(&g, u, step);
  }
  bad[2] = ((size_t)u % SIMD_BYTES != 0) + ((size_t)s % SIMD_BYTES != 0);
  MPI_Reduce(bad, sum, 3, MPI_INT, MPI_SUM, 0, g.cart);
  if (g.rank == 0) {
    printf("%d x %d ranks, %d x %d points each, 3 steps\n", PY, PX, NY, NX);
    printf("halo and stencil: %d errors\n", sum[0]);
    printf("gathered field: %d errors\n", sum[1]);
    printf("alignment: %d errors\n", sum[2]);
    printf("%s\n", sum[0] + sum[1] + sum[2] == 0 ? "OK" : "FAILED");
  }
  MPI_Bcast(sum, 3, MPI_INT, 0, g.cart);
  free(s);
  free(u);
  MPI_Comm_free(&g.cart);
  MPI_Finalize();
  return sum[0] + sum[1] + sum[2] == 0 ? 0 : 1;
}
