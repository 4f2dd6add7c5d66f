/* Send and receive datatypes that differ but have the same type signature, as codes that
 * reshape data in flight rely on, and type maps whose order is not the memory order:
 *  - a matrix column (vector) sent and received as contiguous doubles, contiguous doubles
 *    received into a column, and a column of an LDA-wide matrix received into a column of an
 *    LDB-wide one;
 *  - count 2 of vector(3, 2, 5) (12 doubles) received as count 3 of an hvector(2, 2, 7 doubles);
 *  - a struct of the double members of a record (skipping its int members) received by an
 *    MPI_Type_indexed with a zero-length block and displacements not sorted;
 *  - a struct type listing a record's members out of memory order ({id, v[2]} of a record laid
 *    out {v[2], c, id}), received by the struct type of another record layout;
 *  - hindexed and indexed_block types with zero-length blocks and unsorted displacements sent
 *    and received as contiguous, in both directions (a gather and a scatter by permutation),
 *    their extents printed, and MPI_Pack of them checked against the type map order;
 *  - descending indexed_block displacements, zero-length blocks above, below and between the
 *    data, a zero-length first struct member: regular once empty blocks are dropped (they set no
 *    bounds), sent with count 2 so the extent shows;
 *  - MPI_Probe of one message, then MPI_Get_count / MPI_Get_elements with several types.
 * Types are built from #defines, const ints and a helper. Every receive buffer is pre-filled
 * and compared whole. Ring over NP ranks.
 * NP: 3 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define NR 5
#define LDA 7
#define LDB 4
#define BUF 64

struct rec { double x; int n; double y[2]; int m; double z; };
struct vci { double v[2]; char c; int id; };
struct iv { int id; double v[2]; };

static int errs = 0;
#define EXPECT(cond, ...)                                                                    \
  do {                                                                                       \
    if (!(cond)) { ++errs; printf("check failed (line %d): ", __LINE__); printf(__VA_ARGS__); printf("\n"); } \
  } while (0)

static double val(int r, int i) { return r * 1000.0 + i + 0.125; }

static void clear(double *b) {
  int i;
  for (i = 0; i < BUF; ++i) b[i] = -1.0;
}

/* want[] holds what a receive must leave: -1 everywhere but the positions set. */
static void compare(const char *what, const double *got, const double *want) {
  int i;
  for (i = 0; i < BUF; ++i) EXPECT(got[i] == want[i], "%s[%d] = %g, want %g", what, i, got[i], want[i]);
}

/* got holds np doubles received as contiguous (gathered) or into a datatype (scattered);
   pos[q] is where packed double q lies in the datatype's buffer. */
static void gathered(const char *what, const double *got, const int *pos, int np, int left) {
  double want[BUF];
  int q;
  clear(want);
  for (q = 0; q < np; ++q) want[q] = val(left, pos[q]);
  compare(what, got, want);
}
static void scattered(const char *what, const double *got, const int *pos, int np, int left) {
  double want[BUF];
  int q;
  clear(want);
  for (q = 0; q < np; ++q) want[pos[q]] = val(left, q);
  compare(what, got, want);
}

/* Blocks {2 at 9, 0 at 40, 3 at 1, 1 at 6}: packed order 9, 10, 1, 2, 3, 6. */
static MPI_Datatype scrambled(void) {
  MPI_Datatype t;
  int bl[4] = {2, 0, 3, 1}, dis[4] = {9, 40, 1, 6};
  MPI_Type_indexed(4, bl, dis, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}
static const int scr_pos[6] = {9, 10, 1, 2, 3, 6};

int main(int argc, char **argv) {
  int rank, size, right, left, i, k, n;
  const int ncol = 3;
  double a[BUF], got[BUF], want[BUF];
  MPI_Datatype colA, colB, v325, hv, recd, recidx, scr, hscr, iblk, vcit, ivt;
  MPI_Status st;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  for (i = 0; i < BUF; ++i) a[i] = val(rank, i);

  /* Columns: vector(NR, 1, LDA) and vector(NR, 1, LDB). */
  MPI_Type_vector(NR, 1, LDA, MPI_DOUBLE, &colA);
  MPI_Type_commit(&colA);
  MPI_Type_vector(NR, 1, LDB, MPI_DOUBLE, &colB);
  MPI_Type_commit(&colB);
  clear(got);
  MPI_Sendrecv(&a[ncol], 1, colA, right, 1, got, NR, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &st);
  clear(want);
  for (i = 0; i < NR; ++i) want[i] = val(left, ncol + i * LDA);
  compare("column to contiguous", got, want);
  clear(got);
  MPI_Sendrecv(a, NR, MPI_DOUBLE, right, 2, &got[1], 1, colA, left, 2, MPI_COMM_WORLD, &st);
  clear(want);
  for (i = 0; i < NR; ++i) want[1 + i * LDA] = val(left, i);
  compare("contiguous to column", got, want);
  clear(got);
  MPI_Sendrecv(&a[2], 1, colA, right, 3, &got[LDB - 1], 1, colB, left, 3, MPI_COMM_WORLD, &st);
  clear(want);
  for (i = 0; i < NR; ++i) want[LDB - 1 + i * LDB] = val(left, 2 + i * LDA);
  compare("LDA column to LDB column", got, want);

  /* 2 x vector(3, 2, 5) -> 3 x hvector(2, 2, 7 doubles); both are 12 doubles. */
  MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &v325);
  MPI_Type_commit(&v325);
  MPI_Type_create_hvector(2, 2, 7 * sizeof(double), MPI_DOUBLE, &hv);
  MPI_Type_commit(&hv);
  clear(got);
  MPI_Sendrecv(a, 2, v325, right, 4, got, 3, hv, left, 4, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, hv, &n);
  EXPECT(n == 3, "hv count %d", n);
  MPI_Get_count(&st, v325, &n);
  EXPECT(n == 2, "v325 count %d", n);
  clear(want);
  {
    /* sender element e (extent 12 doubles: 3 blocks, last at 10..11 -> extent 12) */
    int src[12], q = 0, e, b, j;
    for (e = 0; e < 2; ++e)
      for (b = 0; b < 3; ++b)
        for (j = 0; j < 2; ++j) src[q++] = e * 12 + b * 5 + j;
    q = 0;
    for (e = 0; e < 3; ++e) /* receiver element extent: 7 + 2 = 9 doubles */
      for (b = 0; b < 2; ++b)
        for (j = 0; j < 2; ++j) want[e * 9 + b * 7 + j] = val(left, src[q++]);
  }
  compare("vector to hvector", got, want);

  /* The doubles of a record: x, y[0..1], z (ints skipped), into a scrambled indexed type. */
  {
    struct rec r[2];
    int bl[3] = {1, 2, 1};
    MPI_Aint dis[3] = {offsetof(struct rec, x), offsetof(struct rec, y), offsetof(struct rec, z)};
    MPI_Datatype ty[3] = {MPI_DOUBLE, MPI_DOUBLE, MPI_DOUBLE};
    int bi[3] = {0, 3, 1}, di[3] = {50, 2, 0};
    MPI_Type_create_struct(3, bl, dis, ty, &recd);
    MPI_Type_commit(&recd);
    MPI_Type_indexed(3, bi, di, MPI_DOUBLE, &recidx); /* a zero block at 50, then 2..4, then 0 */
    MPI_Type_commit(&recidx);
    for (k = 0; k < 2; ++k) {
      r[k].x = val(rank, 10 * k), r[k].y[0] = val(rank, 10 * k + 1), r[k].y[1] = val(rank, 10 * k + 2);
      r[k].z = val(rank, 10 * k + 3), r[k].n = -7, r[k].m = -8;
    }
    clear(got);
    MPI_Sendrecv(&r[1], 1, recd, right, 5, got, 1, recidx, left, 5, MPI_COMM_WORLD, &st);
    MPI_Get_elements(&st, recidx, &n);
    EXPECT(n == 4, "record elements %d", n);
    clear(want);
    want[2] = val(left, 10), want[3] = val(left, 11), want[4] = val(left, 12), want[0] = val(left, 13);
    compare("record to indexed", got, want);
  }

  /* {id, v[2]} of a {v[2], c, id} record into a {id, v[2]} record: same signature. */
  {
    struct vci s[3];
    struct iv d[3], dw[3];
    int bl[2] = {1, 2};
    MPI_Aint sd[2] = {offsetof(struct vci, id), offsetof(struct vci, v)};
    MPI_Aint dd[2] = {offsetof(struct iv, id), offsetof(struct iv, v)};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Datatype vci0, iv0;
    MPI_Type_create_struct(2, bl, sd, ty, &vci0);
    MPI_Type_create_resized(vci0, 0, sizeof(struct vci), &vcit);
    MPI_Type_commit(&vcit);
    MPI_Type_create_struct(2, bl, dd, ty, &iv0);
    MPI_Type_create_resized(iv0, 0, sizeof(struct iv), &ivt);
    MPI_Type_commit(&ivt);
    for (k = 0; k < 3; ++k) {
      s[k].v[0] = val(rank, 2 * k), s[k].v[1] = val(rank, 2 * k + 1);
      s[k].c = 'q', s[k].id = rank * 100 + k;
    }
    memset(d, 0x21, sizeof d);
    memset(dw, 0x21, sizeof dw);
    for (k = 0; k < 3; ++k) {
      dw[k].id = left * 100 + k, dw[k].v[0] = val(left, 2 * k), dw[k].v[1] = val(left, 2 * k + 1);
    }
    MPI_Sendrecv(s, 3, vcit, right, 6, d, 3, ivt, left, 6, MPI_COMM_WORLD, &st);
    EXPECT(memcmp(d, dw, sizeof d) == 0, "vci to iv records");
    MPI_Get_elements(&st, ivt, &n);
    EXPECT(n == 9, "vci elements %d", n);
    MPI_Type_free(&vci0);
    MPI_Type_free(&iv0);
  }

  /* Scrambled indexed, hindexed and indexed_block: gather and scatter by permutation. */
  scr = scrambled();
  {
    int hb[3] = {1, 0, 2};
    MPI_Aint hd[3] = {12 * sizeof(double), 0, 4 * sizeof(double)};
    const int ib_dis[4] = {7, 3, 11, 0};
    int hext; /* hscr's extent in doubles */
    double packed[32];
    int pos = 0;
    MPI_Type_create_hindexed(3, hb, hd, MPI_DOUBLE, &hscr); /* 12, then 4..5; the 0 block at 0 */
    MPI_Type_commit(&hscr);
    MPI_Type_create_indexed_block(4, 2, ib_dis, MPI_DOUBLE, &iblk); /* 7-8, 3-4, 11-12, 0-1 */
    MPI_Type_commit(&iblk);
    {
      MPI_Aint lb1, e1, lb2, e2, lb3, e3;
      MPI_Type_get_extent(scr, &lb1, &e1);
      MPI_Type_get_extent(hscr, &lb2, &e2);
      MPI_Type_get_extent(iblk, &lb3, &e3);
      if (rank == 0)
        printf("lb/extent: scrambled %ld/%ld hscr %ld/%ld iblk %ld/%ld\n", (long)lb1, (long)e1,
               (long)lb2, (long)e2, (long)lb3, (long)e3);
      hext = (int)(e2 / sizeof(double));
    }

    clear(got);
    MPI_Sendrecv(a, 1, scr, right, 7, got, 6, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &st);
    clear(want);
    for (i = 0; i < 6; ++i) want[i] = val(left, scr_pos[i]);
    compare("scrambled gather", got, want);
    clear(got);
    MPI_Sendrecv(a, 6, MPI_DOUBLE, right, 8, got, 1, scr, left, 8, MPI_COMM_WORLD, &st);
    clear(want);
    for (i = 0; i < 6; ++i) want[scr_pos[i]] = val(left, i);
    compare("scrambled scatter", got, want);

    clear(got);
    MPI_Sendrecv(&a[1], 2, hscr, right, 9, got, 6, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, &st);
    clear(want);
    for (k = 0; k < 2; ++k)
      want[3 * k] = val(left, 1 + hext * k + 12), want[3 * k + 1] = val(left, 1 + hext * k + 4),
      want[3 * k + 2] = val(left, 1 + hext * k + 5);
    compare("hindexed gather", got, want);

    clear(got);
    MPI_Sendrecv(a, 8, MPI_DOUBLE, right, 10, got, 1, iblk, left, 10, MPI_COMM_WORLD, &st);
    clear(want);
    for (k = 0; k < 4; ++k) {
      want[ib_dis[k]] = val(left, 2 * k);
      want[ib_dis[k] + 1] = val(left, 2 * k + 1);
    }
    compare("indexed_block scatter", got, want);
    /* indexed_block sent (8 doubles), received by count 3 of hscr (room for 9): the last
       element arrives in part */
    clear(got);
    MPI_Sendrecv(a, 1, iblk, right, 11, got, 3, hscr, left, 11, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, hscr, &n);
    EXPECT(n == MPI_UNDEFINED, "iblk into hscr count %d", n);
    MPI_Get_elements(&st, hscr, &n);
    EXPECT(n == 8, "iblk into hscr elements %d", n);
    clear(want);
    {
      const int at[3] = {12, 4, 5};
      int q = 0;
      for (k = 0; k < 4; ++k)
        for (i = 0; i < 2; ++i, ++q) want[(q / 3) * hext + at[q % 3]] = val(left, ib_dis[k] + i);
    }
    compare("indexed_block into hindexed", got, want);

    /* MPI_Pack follows the type map order */
    MPI_Pack(a, 1, scr, packed, sizeof packed, &pos, MPI_COMM_WORLD);
    MPI_Pack(a, 1, hscr, packed, sizeof packed, &pos, MPI_COMM_WORLD);
    EXPECT(pos == 9 * (int)sizeof(double), "packed %d bytes", pos);
    for (i = 0; i < 6; ++i) EXPECT(packed[i] == val(rank, scr_pos[i]), "packed scr %d", i);
    EXPECT(packed[6] == val(rank, 12) && packed[7] == val(rank, 4) && packed[8] == val(rank, 5),
           "packed hscr");
  }

  /* Unsorted and zero-length block lists that are regular once the empty blocks are dropped
     and the blocks sorted: descending displacements, zero-length blocks far above, below and
     between the data, a zero-length struct member at offset 0. Count 2, so the extent shows. */
  {
    const int desc[4] = {9, 6, 3, 0};
    int zb[5] = {2, 0, 2, 0, 2}, zd[5] = {0, 100, 5, -3, 10};
    int lb0[3] = {0, 3, 3}, ld0[3] = {-4, 0, 5};
    int sb[3] = {0, 2, 1};
    MPI_Aint sdisp[3] = {0, 8, 24};
    MPI_Datatype sty[3] = {MPI_CHAR, MPI_DOUBLE, MPI_DOUBLE};
    MPI_Datatype down, holes, lowzero, zmember, lst[4];
    int pos[4][16], np[4];
    const char *names[4] = {"down", "holes", "lowzero", "zmember"};
    MPI_Type_create_indexed_block(4, 2, desc, MPI_DOUBLE, &down);
    MPI_Type_commit(&down);
    MPI_Type_indexed(5, zb, zd, MPI_DOUBLE, &holes);
    MPI_Type_commit(&holes);
    MPI_Type_indexed(3, lb0, ld0, MPI_DOUBLE, &lowzero);
    MPI_Type_commit(&lowzero);
    MPI_Type_create_struct(3, sb, sdisp, sty, &zmember);
    MPI_Type_commit(&zmember);
    lst[0] = down, lst[1] = holes, lst[2] = lowzero, lst[3] = zmember;
    for (k = 0; k < 4; ++k) {
      MPI_Aint lb, ext;
      int sz;
      MPI_Type_get_extent(lst[k], &lb, &ext);
      MPI_Type_size(lst[k], &sz);
      if (rank == 0) printf("%s: size %d lb %ld extent %ld\n", names[k], sz, (long)lb, (long)ext);
    }
    /* each one: count 2 to contiguous doubles, and contiguous doubles back into it; pos[k][q]
       is where packed double q of the two elements lies */
    for (k = 0; k < 4; ++k) {
      int e;
      np[k] = 0;
      for (e = 0; e < 2; ++e)
        for (i = 0; i < (k == 0 ? 8 : k == 3 ? 3 : 6); ++i)
          pos[k][np[k]++] = k == 0 ? 11 * e + desc[i / 2] + i % 2   /* extent 11 doubles */
                          : k == 1 ? 12 * e + 5 * (i / 2) + i % 2  /* zero blocks ignored: 12 */
                          : k == 2 ? 8 * e + (i < 3 ? i : i + 2)   /* lb 0, not -4: 8 */
                                   : 3 * e + 1 + i;                 /* lb 1, extent 3 */
    }
    clear(got);
    MPI_Sendrecv(a, 2, down, right, 20, got, np[0], MPI_DOUBLE, left, 20, MPI_COMM_WORLD, &st);
    gathered("down", got, pos[0], np[0], left);
    clear(got);
    MPI_Sendrecv(a, np[0], MPI_DOUBLE, right, 21, got, 2, down, left, 21, MPI_COMM_WORLD, &st);
    scattered("down", got, pos[0], np[0], left);
    clear(got);
    MPI_Sendrecv(a, 2, holes, right, 22, got, np[1], MPI_DOUBLE, left, 22, MPI_COMM_WORLD, &st);
    gathered("holes", got, pos[1], np[1], left);
    clear(got);
    MPI_Sendrecv(a, np[1], MPI_DOUBLE, right, 23, got, 2, holes, left, 23, MPI_COMM_WORLD, &st);
    scattered("holes", got, pos[1], np[1], left);
    clear(got);
    MPI_Sendrecv(a, 2, lowzero, right, 24, got, np[2], MPI_DOUBLE, left, 24, MPI_COMM_WORLD, &st);
    gathered("lowzero", got, pos[2], np[2], left);
    clear(got);
    MPI_Sendrecv(a, np[2], MPI_DOUBLE, right, 25, got, 2, lowzero, left, 25, MPI_COMM_WORLD, &st);
    scattered("lowzero", got, pos[2], np[2], left);
    clear(got);
    MPI_Sendrecv(a, 2, zmember, right, 26, got, np[3], MPI_DOUBLE, left, 26, MPI_COMM_WORLD, &st);
    gathered("zmember", got, pos[3], np[3], left);
    clear(got);
    MPI_Sendrecv(a, np[3], MPI_DOUBLE, right, 27, got, 2, zmember, left, 27, MPI_COMM_WORLD, &st);
    scattered("zmember", got, pos[3], np[3], left);
    MPI_Type_free(&down);
    MPI_Type_free(&holes);
    MPI_Type_free(&lowzero);
    MPI_Type_free(&zmember);
  }

  /* One message, probed, counted with several types, then received with a fourth. */
  {
    double big[BUF];
    if (rank % 2 == 0) {
      MPI_Send(a, 2, v325, right, 12, MPI_COMM_WORLD); /* 12 doubles */
    }
    if (left % 2 == 0) {
      int c1, c2, c3, e1, e2;
      MPI_Probe(left, 12, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_DOUBLE, &c1);
      MPI_Get_count(&st, colA, &c2);   /* 12 / 5: MPI_UNDEFINED */
      MPI_Get_count(&st, hv, &c3);     /* 12 / 4 = 3 */
      MPI_Get_elements(&st, colA, &e1); /* 12 */
      MPI_Get_elements(&st, scr, &e2);  /* 12 */
      EXPECT(c1 == 12 && c2 == MPI_UNDEFINED && c3 == 3 && e1 == 12 && e2 == 12,
             "probe counts %d %d %d %d %d", c1, c2, c3, e1, e2);
      clear(big);
      MPI_Recv(big, 2, scr, left, 12, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, scr, &n);
      EXPECT(n == 2, "probe recv count %d", n);
      clear(want);
      {
        int src[12], q = 0, e, b, j;
        MPI_Aint lb, ext;
        MPI_Type_get_extent(scr, &lb, &ext);
        for (e = 0; e < 2; ++e)
          for (b = 0; b < 3; ++b)
            for (j = 0; j < 2; ++j) src[q++] = e * 12 + b * 5 + j;
        for (q = 0; q < 12; ++q) want[(q / 6) * (int)(ext / sizeof(double)) + scr_pos[q % 6]] = val(left, src[q]);
      }
      compare("probed receive", big, want);
      if (rank == 0) printf("probe: %d doubles, colA count %s, hv count %d\n", c1, c2 == MPI_UNDEFINED ? "MPI_UNDEFINED" : "defined", c3);
    }
  }

  MPI_Type_free(&colA);
  MPI_Type_free(&colB);
  MPI_Type_free(&v325);
  MPI_Type_free(&hv);
  MPI_Type_free(&recd);
  MPI_Type_free(&recidx);
  MPI_Type_free(&scr);
  MPI_Type_free(&hscr);
  MPI_Type_free(&iblk);
  MPI_Type_free(&vcit);
  MPI_Type_free(&ivt);
  {
    int all;
    MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("signature_mix: errors %d\n", all);
    MPI_Finalize();
    return all ? 1 : 0;
  }
}
