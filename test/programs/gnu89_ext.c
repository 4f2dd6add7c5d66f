/* An older GNU C code base, built as -std=gnu89 with warnings as errors: declarations only at
 * the start of blocks, no // comments, `static __inline__` helpers, GNU extensions that real
 * gnu89 codes lean on: a statement-expression error macro (MPI_TRY(call) yields the call's
 * result, `__builtin_expect` on the error test), a `__typeof__` SWAP macro applied to
 * MPI_Datatype variables, `__attribute__((cleanup(...)))` datatypes freed at scope exit,
 * `__attribute__((unused))`, case ranges in a switch choosing a face, and `#pragma omp` lines
 * left in the source while the build has no -fopenmp (-Wno-unknown-pragmas). Ranks form a
 * periodic ring along x over a 2-D field with an asymmetric halo (one ghost column on the west,
 * two on the east, as an upwind stencil needs). Exchanges: the west/east columns (vector types of
 * width 1 and 2), an even/odd pairing whose send and receive types are swapped by parity
 * (SWAP in a branch), a time loop that swaps two types every step (the type at the call
 * changes each iteration), and an indexed type of corner blocks from static const arrays. Every
 * received value is checked against the global index formula.
 * NP: 4
 * CFLAGS: -std=gnu89 -Wall -Wextra -Wno-unknown-pragmas -Wdeclaration-after-statement -Wold-style-definition -Wstrict-prototypes -Wmissing-prototypes -Werror */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NX = 12, NY = 9, GW = 1, GE = 2, LX = NX + GW + GE, LY = NY };
#define AT(y, x) ((y) * LX + (x))
#define GV(gy, gx) ((double)((gy) * 1000 + (gx)) + 0.125)

#define MPI_TRY(call)                                                                  \
  __extension__({                                                                      \
    int e_ = (call);                                                                   \
    if (__builtin_expect(e_ != MPI_SUCCESS, 0)) {                                      \
      fprintf(stderr, "%s:%d: MPI error %d\n", __FILE__, __LINE__, e_);               \
      MPI_Abort(MPI_COMM_WORLD, e_);                                                   \
    }                                                                                  \
    e_;                                                                                \
  })

#define SWAP(a, b)          \
  do {                      \
    __typeof__(a) t_ = (a); \
    (a) = (b);              \
    (b) = t_;               \
  } while (0)

static __inline__ void type_freep(MPI_Datatype *t) {
  if (*t != MPI_DATATYPE_NULL) MPI_Type_free(t);
}
#define SCOPED_TYPE __attribute__((cleanup(type_freep)))

static double field[LY * LX];
static double copy[LY * LX];

static __inline__ int owner_gx(int rank, int lx) { return rank * NX + lx; }

static void fill(double *__restrict__ f, int rank) {
  int y, x;
#pragma omp parallel for private(x) schedule(static)
  for (y = 0; y < LY; ++y)
    for (x = 0; x < LX; ++x)
      f[AT(y, x)] = (x >= GW && x < GW + NX) ? GV(y, owner_gx(rank, x - GW)) : -1.0;
}

/* Which global column a local column x of `rank` holds after the halo exchange. */
static int global_column(int rank, int size, int x) {
  switch (x) {
  case 0:
    return owner_gx((rank + size - 1) % size, NX - 1);
  case GW ... GW + NX - 1:
    return owner_gx(rank, x - GW);
  case GW + NX ... LX - 1:
    return owner_gx((rank + 1) % size, x - GW - NX);
  default:
    return -1;
  }
}

static int check_halo(const double *f, int rank, int size) {
  int y, x, bad = 0;
#pragma omp parallel for private(x) reduction(+ : bad)
  for (y = 0; y < LY; ++y)
    for (x = 0; x < LX; ++x)
      if (f[AT(y, x)] != GV(y, global_column(rank, size, x))) ++bad;
  return bad;
}

static int halo_exchange(int rank, int size) {
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Datatype west SCOPED_TYPE = MPI_DATATYPE_NULL;
  MPI_Datatype east SCOPED_TYPE = MPI_DATATYPE_NULL;
  MPI_Status st;

  MPI_TRY(MPI_Type_vector(NY, GW, LX, MPI_DOUBLE, &west));
  MPI_TRY(MPI_Type_vector(NY, GE, LX, MPI_DOUBLE, &east));
  MPI_TRY(MPI_Type_commit(&west));
  MPI_TRY(MPI_Type_commit(&east));
  /* my last GW interior columns -> right's west ghost; my first GE -> left's east ghost */
  MPI_TRY(MPI_Sendrecv(&field[AT(0, GW + NX - GW)], 1, west, right, 1, &field[AT(0, 0)], 1, west,
                       left, 1, MPI_COMM_WORLD, &st));
  MPI_TRY(MPI_Sendrecv(&field[AT(0, GW)], 1, east, left, 2, &field[AT(0, GW + NX)], 1, east, right,
                       2, MPI_COMM_WORLD, &st));
  return check_halo(field, rank, size);
}

/* Even ranks send a width-1 column block and receive a width-2 one; odd ranks the reverse:
 * the pair of types is swapped by parity before the one Sendrecv. */
static int parity_pairs(int rank, int size) {
  int peer = rank ^ 1, y, x, bad = 0, w_send, w_recv;
  MPI_Datatype snd SCOPED_TYPE = MPI_DATATYPE_NULL;
  MPI_Datatype rcv SCOPED_TYPE = MPI_DATATYPE_NULL;

  if (peer >= size) return 0;
  MPI_TRY(MPI_Type_vector(NY, 1, LX, MPI_DOUBLE, &snd));
  MPI_TRY(MPI_Type_vector(NY, 2, LX, MPI_DOUBLE, &rcv));
  MPI_TRY(MPI_Type_commit(&snd));
  MPI_TRY(MPI_Type_commit(&rcv));
  w_send = 1;
  w_recv = 2;
  if (rank & 1) {
    SWAP(snd, rcv);
    SWAP(w_send, w_recv);
  }
  memset(copy, 0, sizeof copy);
#pragma omp single
  MPI_TRY(MPI_Sendrecv(&field[AT(0, GW)], 1, snd, peer, 3, &copy[AT(0, 3)], 1, rcv, peer, 3,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  for (y = 0; y < LY; ++y)
    for (x = 0; x < LX; ++x) {
      double want = (x >= 3 && x < 3 + w_recv) ? GV(y, owner_gx(peer, x - 3)) : 0.0;
      if (copy[AT(y, x)] != want) ++bad;
    }
  if (w_send + w_recv != 3) ++bad;
  return bad;
}

/* A time loop that alternates two column types: on even steps the width-1 type is current, on
 * odd steps the width-2 one (SWAP at the end of every step, so the type at the call changes
 * from one iteration to the next). Both ends of a step use the current type. */
static int alternating_steps(int rank, int size) {
  int left = (rank + size - 1) % size, right = (rank + 1) % size, step, y, x, bad = 0, w;
  MPI_Datatype cur SCOPED_TYPE = MPI_DATATYPE_NULL;
  MPI_Datatype other SCOPED_TYPE = MPI_DATATYPE_NULL;

  MPI_TRY(MPI_Type_vector(NY, 1, LX, MPI_DOUBLE, &cur));
  MPI_TRY(MPI_Type_vector(NY, 2, LX, MPI_DOUBLE, &other));
  MPI_TRY(MPI_Type_commit(&cur));
  MPI_TRY(MPI_Type_commit(&other));
  for (step = 0; step < 4; ++step) {
    memset(copy, 0, sizeof copy);
    {
      MPI_Status st;
      int n = -1;
      MPI_TRY(MPI_Sendrecv(&field[AT(0, GW)], 1, cur, right, 10 + step, &copy[AT(0, 5)], 1, cur,
                           left, 10 + step, MPI_COMM_WORLD, &st));
      MPI_TRY(MPI_Get_elements(&st, MPI_DOUBLE, &n));
      w = step % 2 == 0 ? 1 : 2;
      if (n != NY * w) ++bad;
    }
    for (y = 0; y < LY; ++y)
      for (x = 0; x < LX; ++x) {
        double want = (x >= 5 && x < 5 + w) ? GV(y, owner_gx(left, x - 5)) : 0.0;
        if (copy[AT(y, x)] != want) ++bad;
      }
    SWAP(cur, other);
  }
  return bad;
}

/* The four corner blocks of the interior (2 x 2 each) as one indexed type from static const
 * arrays, sent to the right neighbour. */
static const int corner_len[4] = {2, 2, 2, 2};
static const int corner_disp[4] = {AT(0, GW), AT(1, GW), AT(0, GW + NX - 2), AT(1, GW + NX - 2)};

static int corners(int rank, int size) {
  int left = (rank + size - 1) % size, right = (rank + 1) % size, i, bad = 0, lx;
  MPI_Datatype blocks SCOPED_TYPE = MPI_DATATYPE_NULL;
  MPI_Request rq[2];
  MPI_Status st[2];
  double got[8] __attribute__((unused));

  MPI_TRY(MPI_Type_indexed(4, corner_len, corner_disp, MPI_DOUBLE, &blocks));
  MPI_TRY(MPI_Type_commit(&blocks));
  memset(copy, 0, sizeof copy);
  MPI_TRY(MPI_Irecv(copy, 1, blocks, left, 20, MPI_COMM_WORLD, &rq[0]));
  MPI_TRY(MPI_Isend(field, 1, blocks, right, 20, MPI_COMM_WORLD, &rq[1]));
  MPI_TRY(MPI_Waitall(2, rq, st));
  for (i = 0; i < 4; ++i) {
    int k;
    for (k = 0; k < 2; ++k) {
      int pos = corner_disp[i] + k, y = pos / LX;
      lx = pos % LX - GW;
      if (copy[pos] != GV(y, owner_gx(left, lx))) ++bad;
    }
  }
  return bad;
}

int main(int argc, char **argv) {
  int rank, size, b[4], all[4], i, total = 0;
  static const char *const names[4] = {"halo", "parity pairs", "alternating steps", "corners"};

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  fill(field, rank);
  b[0] = halo_exchange(rank, size);
  b[1] = parity_pairs(rank, size);
  b[2] = alternating_steps(rank, size);
  b[3] = corners(rank, size);
  MPI_Reduce(b, all, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (i = 0; i < 4; ++i) {
      printf("%-18s %d errors\n", names[i], all[i]);
      total += all[i];
    }
    printf("field %d x %d (+%d/%d ghost columns) on %d ranks: %s\n", NY, NX, GW, GE, size,
           total == 0 ? "OK" : "FAILED");
  }
  MPI_Bcast(&total, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
