/* Resized datatypes whose extent is not their true extent, beyond the one-column idiom:
 *  - sliding windows: a WR x WW window of a row-major int matrix (vector) resized to one int and
 *    sent with count NWIN, so consecutive windows overlap on the send side (one int goes out up
 *    to WW times); the same window resized to one row and slid down the rows; both received as
 *    contiguous ints, and a contiguous(3) of doubles resized to lb = -1 double and extent 2 doubles
 *    (extent smaller than the true extent, negative lower bound) sent with count 4;
 *  - a pair interleave: vector(2, 2, 6) of ints resized to 2 ints, built in a helper, count 3
 *    (a permutation of 12 ints) used as the receive type of a contiguous send and as the send type
 *    of a contiguous receive;
 *  - ghost-relative rows: an hindexed with displacements below the buffer pointer and not sorted
 *    (right ghosts, left ghosts, one interior cell), resized to lb = -GH doubles and the padded
 *    row length, sent with count NR from the first interior cell by MPI_Isend and received with
 *    the same type by MPI_Irecv; its extent and true extent are printed;
 *  - an array of padded structs: one member of each (a one-member struct resized to the struct's
 *    size, then MPI_Type_contiguous of it; its arrays are the addresses of scalars, `&bl`), one
 *    member of every other struct (one-element arrays, resized to two structs), two members,
 *    the whole struct, and MPI_INT resized
 *    to lb = -offsetof(id) from &cells[0].id; received into doubles and into other arrays of
 *    structs whose other members and padding bytes must stay untouched (memcmp of whole arrays).
 * Ring over NP ranks: each rank sends to its right and receives from its left; every receive
 * buffer is pre-filled and compared whole against what the left rank's values give.
 * NP: 3 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define ROWLEN 8
#define NROW 6
#define WR 3
#define WW 2
#define NWIN 5
#define GH 2
#define NI 6
#define LD (NI + 2 * GH + 1) /* padded row: GH ghosts, NI interior, GH ghosts, 1 pad */
#define NR 4
#define NC 7

struct cell {
  char tag;
  double v;
  short s;
  int id;
  float w;
};

static int errs = 0;
#define EXPECT(cond, ...)                                                                    \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      ++errs;                                                                                \
      printf("check failed (line %d): ", __LINE__);                                          \
      printf(__VA_ARGS__);                                                                   \
      printf("\n");                                                                          \
    }                                                                                        \
  } while (0)

static int ival(int r, int i) { return r * 1000 + i; }
static double dval(int r, int i) { return r * 100.0 + i * 0.5; }

static void fill_cells(struct cell *c, int r) {
  int i;
  memset(c, 0x5A, NC * sizeof *c); /* padding bytes too */
  for (i = 0; i < NC; ++i) {
    c[i].tag = (char)('a' + r + i);
    c[i].v = dval(r, i);
    c[i].s = (short)(r * 10 + i);
    c[i].id = ival(r, i);
    c[i].w = (float)(r + i * 0.25);
  }
}

/* Element k covers ints 2k, 2k+1, 2k+6, 2k+7 (k = 0..2): every int of 12 exactly once. */
static MPI_Datatype pair_interleave(void) {
  MPI_Datatype v, t;
  MPI_Type_vector(2, 2, 6, MPI_INT, &v);
  MPI_Type_create_resized(v, 0, 2 * sizeof(int), &t);
  MPI_Type_commit(&t);
  MPI_Type_free(&v);
  return t;
}
static int pair_pos(int j) { /* where packed int j of count 3 lies */
  int k = j / 4, q = j % 4;
  return 2 * k + (q % 2) + (q / 2) * 6;
}

int main(int argc, char **argv) {
  int rank, size, right, left, i, k, r, c, all;
  const int one_int = sizeof(int);
  int m[NROW * ROWLEN], got[64];
  double d[16], dg[16];
  MPI_Datatype win0, win, slide, sub, subr, pairs, around0, around, vm0, vm, vcol, iw0, iw,
      iwcol, whole0, whole, idres, idcol, wm0, wm, wcol;
  MPI_Status st;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  for (i = 0; i < NROW * ROWLEN; ++i) m[i] = ival(rank, i);
  for (i = 0; i < 16; ++i) d[i] = dval(rank, i);

  /* Sliding windows along a row: overlapping elements on the send side. */
  MPI_Type_vector(WR, WW, ROWLEN, MPI_INT, &win0);
  MPI_Type_create_resized(win0, 0, one_int, &win);
  MPI_Type_commit(&win);
  memset(got, 0x7F, sizeof got);
  MPI_Sendrecv(m, NWIN, win, right, 1, got, NWIN * WR * WW, MPI_INT, left, 1, MPI_COMM_WORLD, &st);
  for (k = 0; k < 64; ++k) {
    int want = 0x7F7F7F7F;
    if (k < NWIN * WR * WW) {
      int w = k / (WR * WW), rr = k % (WR * WW) / WW, cc = k % WW;
      want = ival(left, rr * ROWLEN + w + cc);
    }
    EXPECT(got[k] == want, "window int %d = %d, want %d", k, got[k], want);
  }
  if (rank == 0) printf("row windows: %d %d %d ... %d\n", got[0], got[1], got[2], got[NWIN * WR * WW - 1]);

  /* The window slid down the rows: extent one row, true extent WR rows. */
  MPI_Type_create_resized(win0, 0, ROWLEN * sizeof(int), &slide);
  MPI_Type_commit(&slide);
  memset(got, 0x7F, sizeof got);
  MPI_Sendrecv(&m[1], NROW - WR + 1, slide, right, 2, got, 64, MPI_INT, left, 2, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_INT, &c);
  EXPECT(c == (NROW - WR + 1) * WR * WW, "slide count %d", c);
  for (k = 0; k < 64; ++k) {
    int want = 0x7F7F7F7F;
    if (k < (NROW - WR + 1) * WR * WW) {
      int w = k / (WR * WW), rr = k % (WR * WW) / WW, cc = k % WW;
      want = ival(left, (w + rr) * ROWLEN + 1 + cc);
    }
    EXPECT(got[k] == want, "slide int %d = %d, want %d", k, got[k], want);
  }

  /* contiguous(3) resized to lb -1, extent 2 doubles: element e reads d[2e .. 2e+2]. */
  MPI_Type_contiguous(3, MPI_DOUBLE, &sub);
  MPI_Type_create_resized(sub, -(MPI_Aint)sizeof(double), 2 * sizeof(double), &subr);
  MPI_Type_commit(&subr);
  for (i = 0; i < 16; ++i) dg[i] = -1.0;
  MPI_Sendrecv(d, 4, subr, right, 3, dg, 12, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &st);
  for (i = 0; i < 16; ++i) {
    double want = i < 12 ? dval(left, 2 * (i / 3) + i % 3) : -1.0;
    EXPECT(dg[i] == want, "subr %d = %g, want %g", i, dg[i], want);
  }
  {
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_get_extent(subr, &lb, &ext);
    MPI_Type_get_true_extent(subr, &tlb, &text);
    if (rank == 0)
      printf("subr: lb %ld extent %ld true lb %ld true extent %ld\n", (long)lb, (long)ext, (long)tlb, (long)text);
  }

  /* Pair interleave on the receive side, then on the send side. */
  pairs = pair_interleave();
  memset(got, 0x7F, sizeof got);
  MPI_Sendrecv(m, 12, MPI_INT, right, 4, got, 3, pairs, left, 4, MPI_COMM_WORLD, &st);
  for (k = 0; k < 64; ++k) {
    int want = 0x7F7F7F7F;
    for (i = 0; i < 12; ++i)
      if (pair_pos(i) == k) want = ival(left, i);
    EXPECT(got[k] == want, "pairs recv %d = %d, want %d", k, got[k], want);
  }
  memset(got, 0x7F, sizeof got);
  MPI_Sendrecv(m, 3, pairs, right, 5, got, 12, MPI_INT, left, 5, MPI_COMM_WORLD, &st);
  for (k = 0; k < 64; ++k)
    EXPECT(got[k] == (k < 12 ? ival(left, pair_pos(k)) : 0x7F7F7F7F), "pairs send %d = %d", k, got[k]);

  /* Ghost-relative rows: the buffer points at the first interior cell of row 0. */
  {
    int bl[3] = {GH, GH, 1};
    MPI_Aint dis[3] = {NI * (MPI_Aint)sizeof(double), -GH * (MPI_Aint)sizeof(double), 3 * sizeof(double)};
    double f[NR * LD], g[NR * LD];
    MPI_Request rq[2];
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_create_hindexed(3, bl, dis, MPI_DOUBLE, &around0);
    MPI_Type_create_resized(around0, -GH * (MPI_Aint)sizeof(double), LD * sizeof(double), &around);
    MPI_Type_commit(&around);
    MPI_Type_get_extent(around, &lb, &ext);
    MPI_Type_get_true_extent(around, &tlb, &text);
    if (rank == 0)
      printf("around: lb %ld extent %ld true lb %ld true extent %ld\n", (long)lb, (long)ext, (long)tlb, (long)text);
    for (i = 0; i < NR * LD; ++i) {
      f[i] = dval(rank, i);
      g[i] = -2.0;
    }
    MPI_Irecv(&g[GH], NR, around, left, 6, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(&f[GH], NR, around, right, 6, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    for (r = 0; r < NR; ++r)
      for (c = 0; c < LD; ++c) {
        int moved = c < GH || c == GH + 3 || (c >= GH + NI && c < 2 * GH + NI);
        double want = moved ? dval(left, r * LD + c) : -2.0;
        EXPECT(g[r * LD + c] == want, "around row %d col %d = %g, want %g", r, c, g[r * LD + c], want);
      }
    /* The same rows received as packed doubles, in type-map order (right ghosts first). */
    for (i = 0; i < 16 && i < NR * LD; ++i) dg[i] = -3.0;
    MPI_Sendrecv(&f[GH], 2, around, right, 7, dg, 2 * (2 * GH + 1), MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &st);
    for (i = 0; i < 16; ++i) {
      double want = -3.0;
      if (i < 2 * (2 * GH + 1)) {
        int row = i / (2 * GH + 1), j = i % (2 * GH + 1);
        int col = j < GH ? GH + NI + j : j < 2 * GH ? j - GH : GH + 3;
        want = dval(left, row * LD + col);
      }
      EXPECT(dg[i] == want, "around packed %d = %g, want %g", i, dg[i], want);
    }
  }

  /* One member, two members, the whole padded struct. */
  {
    struct cell src[NC], dst[NC], want[NC];
    int bl1 = 1, bl2[2] = {1, 1}, bl5[5] = {1, 1, 1, 1, 1};
    MPI_Aint d1 = offsetof(struct cell, v);
    MPI_Aint d2[2] = {offsetof(struct cell, id), offsetof(struct cell, w)};
    MPI_Aint d5[5] = {offsetof(struct cell, tag), offsetof(struct cell, v), offsetof(struct cell, s),
                      offsetof(struct cell, id), offsetof(struct cell, w)};
    MPI_Datatype t1 = MPI_DOUBLE, t2[2] = {MPI_INT, MPI_FLOAT},
                 t5[5] = {MPI_CHAR, MPI_DOUBLE, MPI_SHORT, MPI_INT, MPI_FLOAT};
    MPI_Type_create_struct(1, &bl1, &d1, &t1, &vm0);
    MPI_Type_create_resized(vm0, 0, sizeof(struct cell), &vm);
    MPI_Type_contiguous(NC, vm, &vcol);
    MPI_Type_commit(&vcol);
    MPI_Type_create_struct(2, bl2, d2, t2, &iw0);
    MPI_Type_create_resized(iw0, 0, sizeof(struct cell), &iw);
    MPI_Type_contiguous(NC, iw, &iwcol);
    MPI_Type_commit(&iwcol);
    MPI_Type_create_struct(5, bl5, d5, t5, &whole0);
    MPI_Type_create_resized(whole0, 0, sizeof(struct cell), &whole);
    MPI_Type_commit(&whole);
    MPI_Type_create_resized(MPI_INT, -(MPI_Aint)offsetof(struct cell, id), sizeof(struct cell), &idres);
    MPI_Type_contiguous(NC, idres, &idcol);
    MPI_Type_commit(&idcol);

    fill_cells(src, rank);
    /* v of every cell into plain doubles */
    for (i = 0; i < 16; ++i) dg[i] = -1.0;
    MPI_Sendrecv(src, 1, vcol, right, 8, dg, NC, MPI_DOUBLE, left, 8, MPI_COMM_WORLD, &st);
    for (i = 0; i < 16; ++i) EXPECT(dg[i] == (i < NC ? dval(left, i) : -1.0), "v[%d] = %g", i, dg[i]);
    /* plain doubles into v of every cell of another array */
    memset(dst, 0x33, sizeof dst);
    memset(want, 0x33, sizeof want);
    for (i = 0; i < NC; ++i) want[i].v = dval(left, i + 1);
    MPI_Sendrecv(&d[1], NC, MPI_DOUBLE, right, 9, dst, 1, vcol, left, 9, MPI_COMM_WORLD, &st);
    EXPECT(memcmp(dst, want, sizeof dst) == 0, "v member receive");
    /* id and w, struct to struct */
    memset(dst, 0x44, sizeof dst);
    memset(want, 0x44, sizeof want);
    for (i = 0; i < NC; ++i) {
      want[i].id = ival(left, i);
      want[i].w = (float)(left + i * 0.25);
    }
    MPI_Sendrecv(src, 1, iwcol, right, 10, dst, 1, iwcol, left, 10, MPI_COMM_WORLD, &st);
    EXPECT(memcmp(dst, want, sizeof dst) == 0, "id/w members receive");
    /* whole structs, count NC - 2 from the second cell: padding stays as the receiver had it */
    memset(dst, 0x55, sizeof dst);
    fill_cells(want, left);
    memset(want, 0x55, sizeof(struct cell));
    memset(&want[NC - 1], 0x55, sizeof(struct cell));
    for (i = 1; i < NC - 1; ++i) {
      struct cell t;
      memset(&t, 0x55, sizeof t);
      t.tag = want[i].tag;
      t.v = want[i].v;
      t.s = want[i].s;
      t.id = want[i].id;
      t.w = want[i].w;
      want[i] = t;
    }
    MPI_Sendrecv(&src[1], NC - 2, whole, right, 11, &dst[1], NC - 2, whole, left, 11, MPI_COMM_WORLD, &st);
    EXPECT(memcmp(dst, want, sizeof dst) == 0, "whole struct receive");
    /* id through a pointer to the first id: lb = -offsetof(id) */
    memset(got, 0x7F, sizeof got);
    MPI_Sendrecv(&src[0].id, 1, idcol, right, 12, got, NC, MPI_INT, left, 12, MPI_COMM_WORLD, &st);
    for (k = 0; k < 64; ++k) EXPECT(got[k] == (k < NC ? ival(left, k) : 0x7F7F7F7F), "id %d = %d", k, got[k]);
    memset(dst, 0x66, sizeof dst);
    memset(want, 0x66, sizeof want);
    for (i = 0; i < NC; ++i) want[i].id = ival(left, 3 * i);
    MPI_Sendrecv(m, 1, pairs, right, 13, &dst[0].id, 1, idcol, left, 13, MPI_COMM_WORLD, &st);
    /* pairs sends ints 0, 1, 6, 7 of m; idcol takes NC = 7 ints: a short message, 4 ids set */
    MPI_Get_count(&st, MPI_INT, &c);
    EXPECT(c == 4, "pairs into idcol: %d ints", c);
    memset(want, 0x66, sizeof want);
    want[0].id = ival(left, 0);
    want[1].id = ival(left, 1);
    want[2].id = ival(left, 6);
    want[3].id = ival(left, 7);
    EXPECT(memcmp(dst, want, sizeof dst) == 0, "id receive through lb < 0");
    /* w of every other cell: the one-member struct from one-element arrays this time,
       resized to two cells, MPI_Type_contiguous of (NC + 1) / 2 of them */
    {
      const int one[1] = {1};
      const MPI_Aint woff[1] = {offsetof(struct cell, w)};
      const MPI_Datatype wty[1] = {MPI_FLOAT};
      float wf[NC];
      MPI_Type_create_struct(1, one, woff, wty, &wm0);
      MPI_Type_create_resized(wm0, 0, 2 * sizeof(struct cell), &wm);
      MPI_Type_contiguous((NC + 1) / 2, wm, &wcol);
      MPI_Type_commit(&wcol);
      for (i = 0; i < NC; ++i) wf[i] = -1.0f;
      MPI_Sendrecv(src, 1, wcol, right, 14, wf, NC, MPI_FLOAT, left, 14, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_FLOAT, &c);
      EXPECT(c == (NC + 1) / 2, "w count %d", c);
      for (i = 0; i < NC; ++i)
        EXPECT(wf[i] == (i < (NC + 1) / 2 ? (float)(left + 2 * i * 0.25) : -1.0f), "w[%d] = %g", i, wf[i]);
      memset(dst, 0x77, sizeof dst);
      memset(want, 0x77, sizeof want);
      for (i = 0; i < NC; i += 2) want[i].w = (float)(left + i * 0.25);
      MPI_Sendrecv(src, 1, wcol, right, 15, dst, 1, wcol, left, 15, MPI_COMM_WORLD, &st);
      EXPECT(memcmp(dst, want, sizeof dst) == 0, "w member receive");
    }
    if (rank == 0) printf("cells: sizeof %d, v at %d, id at %d\n", (int)sizeof(struct cell), (int)offsetof(struct cell, v), (int)offsetof(struct cell, id));
  }

  MPI_Type_free(&win0);
  MPI_Type_free(&win);
  MPI_Type_free(&slide);
  MPI_Type_free(&sub);
  MPI_Type_free(&subr);
  MPI_Type_free(&pairs);
  MPI_Type_free(&around0);
  MPI_Type_free(&around);
  MPI_Type_free(&vm0);
  MPI_Type_free(&vm);
  MPI_Type_free(&vcol);
  MPI_Type_free(&iw0);
  MPI_Type_free(&iw);
  MPI_Type_free(&iwcol);
  MPI_Type_free(&whole0);
  MPI_Type_free(&whole);
  MPI_Type_free(&idres);
  MPI_Type_free(&idcol);
  MPI_Type_free(&wm0);
  MPI_Type_free(&wm);
  MPI_Type_free(&wcol);
  MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("resize_windows: errors %d\n", all);
  MPI_Finalize();
  return all ? 1 : 0;
}
