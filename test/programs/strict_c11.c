/* A C11 stencil code built with the strict warning set many projects use in CI (-Wconversion,
 * -Wshadow, -pedantic, -Werror) and with its sizes given on the command line (-DNX=24 -DNY=16,
 * the #ifndef defaults are not used). Idioms: _Static_assert on the sizes, a _Generic macro
 * choosing the MPI datatype from the element type (MPI_FLOAT for a single-precision copy,
 * MPI_DOUBLE for a ghost-column hvector, MPI_INT for a reduction; none is the first association),
 * compound literals as the size arrays of MPI_Type_create_subarray ((int[]){LY, LX}),
 * designated initializers (a file-scope const struct, a local const struct and an array of
 * structs indexed by designators; the column types' arguments are members of the two structs),
 * restrict pointers in the helpers, _Alignas buffers, a C99 VLA sized by a const int for a
 * packing buffer (MPI_Pack / MPI_Unpack with sizeof of the VLA). Ranks form a periodic ring along x; each owns
 * an NY x NX block with one ghost layer. Three steps: fill from closed-form values of the
 * global indices, exchange ghost columns (double field, int mask, float copy), check every
 * ghost; then rank 0 collects the interiors into the global field and checks all of it.
 * NP: 4
 * CFLAGS: -std=c11 -pedantic -Wall -Wextra -Wshadow -Wconversion -Wsign-conversion -Wcast-qual -Wstrict-prototypes -Wmissing-prototypes -Wdouble-promotion -Wfloat-equal -Werror -DNX=24 -DNY=16 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NX
#define NX 8
#endif
#ifndef NY
#define NY 6
#endif
#define NG 1
#define LX (NX + 2 * NG)
#define LY (NY + 2 * NG)
#define NPX 4 /* the ring the program is written for (NP: 4) */
#define GX (NPX * NX)

_Static_assert(NX == 24 && NY == 16, "the build must pass -DNX=24 -DNY=16");
_Static_assert(LX * LY * (int)sizeof(double) < (1 << 20), "block too large");

#define MPI_TYPE_OF(x)                                                                          \
  _Generic((x), char: MPI_CHAR, short: MPI_SHORT, float: MPI_FLOAT, int: MPI_INT,             \
           long: MPI_LONG, double: MPI_DOUBLE, default: MPI_BYTE)

struct layout {
  int nx, ny, ghost, ld;
};
/* Designated initializers, not in declaration order. */
static const struct layout G = {.ld = LX, .ghost = NG, .ny = NY, .nx = NX};

enum { TAG_D = 10, TAG_I = 20, TAG_F = 30, TAG_GATHER = 40 };

struct side {
  int shift; /* +1: send to the right neighbour */
  int send_col, recv_col, tag_off;
};
static const struct side SIDES[2] = {
    [1] = {.shift = -1, .send_col = NG, .recv_col = NX + NG, .tag_off = 1},
    [0] = {.shift = +1, .send_col = NX, .recv_col = 0, .tag_off = 0},
};

static _Alignas(64) double u[LY][LX];
static _Alignas(64) int mask[LY][LX];
static _Alignas(64) float uf[LY][LX];
static double glob[NY][GX];

static double value(int gy, int gx) { return (double)(gy * 1000 + gx) + 0.25; }
static int mask_value(int gy, int gx) { return (gy * 7 + gx * 3) % 11 - 5; }

static void fill(double *restrict pu, int *restrict pm, float *restrict pf, int rank) {
  int i, j;
  for (i = 0; i < LY * LX; ++i) {
    pu[i] = -1.0;
    pm[i] = -99;
    pf[i] = -1.0f;
  }
  for (i = NG; i < NY + NG; ++i)
    for (j = NG; j < NX + NG; ++j) {
      int gy = i - NG, gx = rank * NX + j - NG;
      pu[i * LX + j] = value(gy, gx);
      pm[i * LX + j] = mask_value(gy, gx);
      pf[i * LX + j] = (float)(gy * 100 + gx);
    }
}

/* Ghost column c of this rank holds the owner's column gx. */
static int check_ghost(const double *restrict pu, const int *restrict pm,
                       const float *restrict pf, int c, int gx) {
  int i, bad = 0;
  for (i = NG; i < NY + NG; ++i) {
    int gy = i - NG;
    double d = pu[i * LX + c] - value(gy, gx);
    if (d > 0.0 || d < 0.0) ++bad;
    if (pm[i * LX + c] != mask_value(gy, gx)) ++bad;
    if ((int)pf[i * LX + c] != gy * 100 + gx) ++bad;
  }
  /* Ghost rows are never written. */
  if (pm[c] != -99 || pm[(LY - 1) * LX + c] != -99) ++bad;
  return bad;
}

static int exchange_columns(int rank, int left, int right) {
  const struct layout g = {.ny = NY, .ghost = NG, .ld = LX, .nx = NX};
  MPI_Datatype dcol, icol, fcol;
  MPI_Request req[12];
  MPI_Status sts[12]; /* not MPI_STATUSES_IGNORE: gcc 12's -Wstringop-overflow rejects MPICH's */
  int s, n = 0, bad = 0;

  MPI_Type_vector(g.ny, g.ghost, g.ld, MPI_DOUBLE, &dcol);
  MPI_Type_vector(G.ny, G.ghost, G.ld, MPI_INT, &icol);
  MPI_Type_create_subarray(2, (int[]){LY, LX}, (int[]){NY, NG}, (int[]){NG, 0}, MPI_ORDER_C,
                           MPI_TYPE_OF(uf[0][0]), &fcol);
  MPI_Type_commit(&dcol);
  MPI_Type_commit(&icol);
  MPI_Type_commit(&fcol);

  for (s = 0; s < 2; ++s) {
    const int from = SIDES[s].shift > 0 ? left : right;
    MPI_Irecv(&u[NG][SIDES[s].recv_col], 1, dcol, from, TAG_D + SIDES[s].tag_off, MPI_COMM_WORLD,
              &req[n++]);
    MPI_Irecv(&mask[NG][SIDES[s].recv_col], 1, icol, from, TAG_I + SIDES[s].tag_off,
              MPI_COMM_WORLD, &req[n++]);
    MPI_Irecv(&uf[0][SIDES[s].recv_col], 1, fcol, from, TAG_F + SIDES[s].tag_off, MPI_COMM_WORLD,
              &req[n++]);
  }
  for (s = 0; s < 2; ++s) {
    const int to = SIDES[s].shift > 0 ? right : left;
    MPI_Isend(&u[NG][SIDES[s].send_col], 1, dcol, to, TAG_D + SIDES[s].tag_off, MPI_COMM_WORLD,
              &req[n++]);
    MPI_Isend(&mask[NG][SIDES[s].send_col], 1, icol, to, TAG_I + SIDES[s].tag_off,
              MPI_COMM_WORLD, &req[n++]);
    MPI_Isend(&uf[0][SIDES[s].send_col], 1, fcol, to, TAG_F + SIDES[s].tag_off, MPI_COMM_WORLD,
              &req[n++]);
  }
  MPI_Waitall(n, req, sts);

  bad += check_ghost(&u[0][0], &mask[0][0], &uf[0][0], 0, ((rank + NPX - 1) % NPX) * NX + NX - 1);
  bad += check_ghost(&u[0][0], &mask[0][0], &uf[0][0], NX + NG, ((rank + 1) % NPX) * NX);

  MPI_Type_free(&fcol);
  MPI_Type_free(&icol);
  MPI_Type_free(&dcol);
  return bad;
}

/* Pack two interior rows and the two ghost columns' interior into a VLA sized by a const int,
 * send the packed bytes to the right neighbour, unpack them into a zeroed copy there. */
static int packed_rows(int rank, int left, int right) {
  const int nrow = 2;
  double buf[nrow * NX + 2 * NY];
  double copy[LY][LX];
  MPI_Datatype rows, ghosts;
  int pos = 0, size_rows = 0, size_ghosts = 0, bad = 0, i, j, got = 0;
  MPI_Status st;

  MPI_Type_create_subarray(2, (int[2]){LY, LX}, (int[2]){nrow, NX}, (int[2]){NG, NG},
                           MPI_ORDER_C, MPI_DOUBLE, &rows);
  MPI_Type_create_hvector(NY, 1, (MPI_Aint)(LX * (int)sizeof(double)), MPI_TYPE_OF(copy[0][0]),
                          &ghosts);
  MPI_Type_commit(&rows);
  MPI_Type_commit(&ghosts);
  MPI_Pack_size(1, rows, MPI_COMM_WORLD, &size_rows);
  MPI_Pack_size(2, ghosts, MPI_COMM_WORLD, &size_ghosts);
  if ((size_t)(size_rows + size_ghosts) > sizeof buf) {
    fprintf(stderr, "rank %d: pack sizes %d + %d exceed %zu\n", rank, size_rows, size_ghosts,
            sizeof buf);
    return 1;
  }
  MPI_Pack(&u[0][0], 1, rows, buf, (int)sizeof buf, &pos, MPI_COMM_WORLD);
  MPI_Pack(&u[NG][0], 1, ghosts, buf, (int)sizeof buf, &pos, MPI_COMM_WORLD);
  MPI_Pack(&u[NG][NX + NG], 1, ghosts, buf, (int)sizeof buf, &pos, MPI_COMM_WORLD);
  MPI_Sendrecv_replace(buf, pos, MPI_PACKED, right, TAG_D + 5, left, TAG_D + 5, MPI_COMM_WORLD,
                       &st);
  MPI_Get_count(&st, MPI_PACKED, &got);
  memset(copy, 0, sizeof copy);
  pos = 0;
  MPI_Unpack(buf, got, &pos, &copy[0][0], 1, rows, MPI_COMM_WORLD);
  MPI_Unpack(buf, got, &pos, &copy[NG][0], 1, ghosts, MPI_COMM_WORLD);
  MPI_Unpack(buf, got, &pos, &copy[NG][NX + NG], 1, ghosts, MPI_COMM_WORLD);
  for (i = 0; i < LY; ++i)
    for (j = 0; j < LX; ++j) {
      int in_rows = i >= NG && i < NG + nrow && j >= NG && j < NG + NX;
      int in_ghost = i >= NG && i < NG + NY && (j == 0 || j == NX + NG);
      double want = 0.0;
      if (in_rows || in_ghost) want = u[i][j] + (double)((left - rank) * NX);
      if (in_ghost && j == 0) want = value(i - NG, ((left + NPX - 1) % NPX) * NX + NX - 1);
      if (in_ghost && j == NX + NG) want = value(i - NG, ((left + 1) % NPX) * NX);
      if (copy[i][j] < want || copy[i][j] > want) ++bad;
    }
  MPI_Type_free(&ghosts);
  MPI_Type_free(&rows);
  return bad + (got != pos);
}

static int gather_interiors(int rank) {
  MPI_Datatype interior, slot;
  int r, bad = 0, i, j;

  MPI_Type_create_subarray(2, (int[]){LY, LX}, (int[]){NY, NX}, (int[]){NG, NG}, MPI_ORDER_C,
                           MPI_DOUBLE, &interior);
  MPI_Type_vector(NY, NX, GX, MPI_DOUBLE, &slot);
  MPI_Type_commit(&interior);
  MPI_Type_commit(&slot);
  if (rank == 0) {
    MPI_Request req[NPX];
    MPI_Status sts[NPX];
    for (i = 0; i < NY; ++i)
      for (j = 0; j < GX; ++j) glob[i][j] = -2.0;
    for (r = 0; r < NPX; ++r)
      MPI_Irecv(&glob[0][r * NX], 1, slot, r, TAG_GATHER, MPI_COMM_WORLD, &req[r]);
    MPI_Send(&u[0][0], 1, interior, 0, TAG_GATHER, MPI_COMM_WORLD);
    MPI_Waitall(NPX, req, sts);
    for (i = 0; i < NY; ++i)
      for (j = 0; j < GX; ++j)
        if (glob[i][j] < value(i, j) || glob[i][j] > value(i, j)) ++bad;
  } else {
    MPI_Send(&u[0][0], 1, interior, 0, TAG_GATHER, MPI_COMM_WORLD);
  }
  MPI_Type_free(&slot);
  MPI_Type_free(&interior);
  return bad;
}

int main(int argc, char **argv) {
  int rank, size, left, right, bad_x, bad_p, bad_g, local, total = 0;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != NPX) {
    if (rank == 0) printf("needs %d ranks\n", NPX);
    MPI_Finalize();
    return 2;
  }
  left = (rank + NPX - 1) % NPX;
  right = (rank + 1) % NPX;
  if (rank == 0)
    printf("grid %d x %d per rank (layout %d x %d, ld %d), %d ranks, global %d x %d\n", G.ny,
           G.nx, LY, LX, G.ld, size, NY, GX);

  fill(&u[0][0], &mask[0][0], &uf[0][0], rank);
  bad_x = exchange_columns(rank, left, right);
  bad_p = packed_rows(rank, left, right);
  bad_g = gather_interiors(rank);

  local = bad_x + bad_p + bad_g;
  MPI_Reduce(&local, &total, 1, MPI_TYPE_OF(local), MPI_SUM, 0, MPI_COMM_WORLD);
  {
    int all[3] = {bad_x, bad_p, bad_g}, sums[3] = {0, 0, 0};
    MPI_Reduce(all, sums, 3, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      printf("column exchange (double, int, float): %d errors\n", sums[0]);
      printf("packed rows and ghost columns: %d errors\n", sums[1]);
      printf("gather of the interiors: %d errors\n", sums[2]);
      printf("glob[%d][%d] = %.2f, glob[0][%d] = %.2f\n", NY - 1, GX - 1, glob[NY - 1][GX - 1],
             NX, glob[0][NX]);
      printf("%s\n", total == 0 ? "OK" : "FAILED");
    }
  }
  MPI_Bcast(&total, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
