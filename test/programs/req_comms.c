/* Derived datatypes on communicators other than MPI_COMM_WORLD, as coupled codes use them: the
 * ranks split into two halves (even and odd world ranks) joined by MPI_Intercomm_create;
 *  - across the inter-communicator: Isend/Irecv of a column and of a subarray block with the
 *    partner of the same local rank, and an MPI_ANY_SOURCE receive of a strided row from every
 *    remote rank (MPI_SOURCE is the remote rank);
 *  - MPI_Alltoallw on the inter-communicator with local per-peer type arrays (one entry per
 *    remote rank);
 *  - MPI_Intercomm_merge, then MPI_Sendrecv_replace of a subarray around the merged ring;
 *  - MPI_Comm_create_group (ranks 0, 1, 3 only): MPI_Alltoallv of a column resized to one int;
 *  - MPI_Comm_idup completed in one MPI_Waitall with derived-type p2p on MPI_COMM_WORLD; on the
 *    duplicate, MPI_Ibcast of a struct, MPI_Igatherv of resized columns, MPI_Ialltoallw and a
 *    ring MPI_Isend/MPI_Irecv in one MPI_Waitall;
 *  - a persistent collective (MPI_Bcast_init of a vector type) started three times, and
 *    partitioned communication (MPI_Psend_init/MPI_Precv_init, one resized column a partition,
 *    MPI_Pready in reverse order).
 * Every received element is checked against the value computed from its sender's world rank
 * and index; rank 0 prints the checksums of all ranks.
 * NP: 4 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 5
#define COLS 6
#define HALF 2              /* ranks per half with NP = 4 */
#define VAL(w, i, j) ((w) * 1000 + (i) * 10 + (j))

static long errors = 0;
static int g_world;
#define EXPECT(cond, ...)                                                  \
  do {                                                                     \
    if (!(cond) && errors++ < 10) {                                        \
      fprintf(stderr, "rank %d line %d: ", g_world, __LINE__);            \
      fprintf(stderr, __VA_ARGS__);                                        \
      fprintf(stderr, "\n");                                               \
    }                                                                      \
  } while (0)

typedef struct {
  int steps;
  double dt;
  char name[8];
} config_t;

static void fill(int grid[ROWS][COLS], int w) {
  int i, j;
  for (i = 0; i < ROWS; ++i)
    for (j = 0; j < COLS; ++j) grid[i][j] = VAL(w, i, j);
}

int main(int argc, char **argv) {
  int world, size, color, lrank, i, j, k;
  int grid[ROWS][COLS];
  double check = 0.0;
  MPI_Comm half, inter, merged, dupc;
  MPI_Datatype col, blk, alt, colres, cfg;
  int sizes[2] = {ROWS, COLS}, sub[2] = {2, 3}, start[2] = {1, 1};

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  g_world = world;
  if (size != 2 * HALF) {
    if (world == 0) printf("needs %d ranks\n", 2 * HALF);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  fill(grid, world);

  MPI_Type_vector(ROWS, 1, COLS, MPI_INT, &col);          /* a column: ROWS ints */
  MPI_Type_commit(&col);
  MPI_Type_vector(ROWS, 1, 2, MPI_INT, &alt);             /* every other int: ROWS ints */
  MPI_Type_commit(&alt);
  MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_INT, &blk);
  MPI_Type_commit(&blk);
  MPI_Type_create_resized(col, 0, sizeof(int), &colres);  /* columns interleave */
  MPI_Type_commit(&colres);
  {
    int bl[3] = {1, 1, 8};
    MPI_Aint disp[3] = {offsetof(config_t, steps), offsetof(config_t, dt), offsetof(config_t, name)};
    MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, tmp;
    MPI_Type_create_struct(3, bl, disp, ty, &tmp);
    MPI_Type_create_resized(tmp, 0, sizeof(config_t), &cfg);
    MPI_Type_commit(&cfg);
    MPI_Type_free(&tmp);
  }

  /* ---- 1. Inter-communicator between the even and the odd world ranks ---- */
  color = world % 2;
  MPI_Comm_split(MPI_COMM_WORLD, color, world, &half);
  MPI_Comm_rank(half, &lrank);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color == 0 ? 1 : 0, 17, &inter);
  {
    int rsize = 0, a[ROWS][COLS], b[ROWS][COLS], rows[HALF][2 * ROWS], seen = 0;
    int partner = 2 * lrank + (1 - color); /* world rank of the remote rank lrank */
    MPI_Request q[4 + HALF];
    MPI_Status st[4 + HALF];
    MPI_Comm_remote_size(inter, &rsize);
    EXPECT(rsize == HALF, "remote size %d", rsize);
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    for (k = 0; k < HALF; ++k)
      for (j = 0; j < 2 * ROWS; ++j) rows[k][j] = -1;
    MPI_Irecv(&a[0][2], 1, col, lrank, 1, inter, &q[0]);
    MPI_Irecv(b, 1, blk, lrank, 2, inter, &q[1]);
    MPI_Isend(&grid[0][world % COLS], 1, col, lrank, 1, inter, &q[2]);
    MPI_Isend(grid, 1, blk, lrank, 2, inter, &q[3]);
    for (k = 0; k < HALF; ++k)
      MPI_Irecv(rows[k], 1, alt, MPI_ANY_SOURCE, 3, inter, &q[4 + k]);
    for (k = 0; k < HALF; ++k)
      MPI_Send(&grid[lrank][0], 1, alt, k, 3, inter);
    MPI_Waitall(4 + HALF, q, st);
    EXPECT(st[0].MPI_SOURCE == lrank && st[1].MPI_TAG == 2, "inter status %d %d", st[0].MPI_SOURCE, st[1].MPI_TAG);
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j) {
        int want = j == 2 ? VAL(partner, i, partner % COLS) : 0;
        EXPECT(a[i][j] == want, "inter column [%d][%d] = %d want %d", i, j, a[i][j], want);
        want = (i >= 1 && i < 3 && j >= 1 && j < 4) ? VAL(partner, i, j) : 0;
        EXPECT(b[i][j] == want, "inter block [%d][%d] = %d want %d", i, j, b[i][j], want);
        check += a[i][j] + 2.0 * b[i][j];
      }
    for (k = 0; k < HALF; ++k) {
      int src = st[4 + k].MPI_SOURCE, w = 2 * src + (1 - color), n = -1;
      MPI_Get_count(&st[4 + k], alt, &n);
      EXPECT(src >= 0 && src < HALF && !(seen & (1 << src)) && n == 1, "any-source %d n %d", src, n);
      seen |= 1 << src;
      /* The sender's row `src` flattened: ROWS ints, every other one of 2*ROWS. */
      for (j = 0; j < 2 * ROWS; ++j) {
        int want = j % 2 == 0 ? VAL(w, src + (j / COLS), j % COLS) : -1;
        EXPECT(rows[k][j] == want, "any-source row from %d [%d] = %d want %d", src, j, rows[k][j], want);
        check += rows[k][j] * 0.25;
      }
    }
  }

  /* ---- 2. MPI_Alltoallw on the inter-communicator ---- */
  {
    int rb[HALF][ROWS][COLS];
    int sc[HALF] = {1, 1}, rc[HALF] = {1, 1}, sd[HALF], rd[HALF];
    MPI_Datatype stypes[HALF] = {col, alt};
    MPI_Datatype rtypes[HALF] = {alt, col};
    memset(rb, 0, sizeof rb);
    for (k = 0; k < HALF; ++k) {
      sd[k] = (int)((k + 1) * sizeof(int));               /* start at column k + 1 */
      rd[k] = (int)(k * sizeof(rb[0]));
    }
    MPI_Alltoallw(grid, sc, sd, stypes, rb, rc, rd, rtypes, inter);
    /* From remote rank k (world w) I get its sendtypes[lrank] starting at its column lrank + 1,
     * received with rtypes[k]. */
    for (k = 0; k < HALF; ++k) {
      int w = 2 * k + (1 - color), got[ROWS];
      for (i = 0; i < ROWS; ++i)
        got[i] = lrank == 0 ? VAL(w, i, 1) : VAL(w, (2 + 2 * i) / COLS, (2 + 2 * i) % COLS);
      for (i = 0; i < ROWS; ++i)
        for (j = 0; j < COLS; ++j) {
          int flat = i * COLS + j, want = 0;
          if (k == 0 && flat % 2 == 0 && flat / 2 < ROWS) want = got[flat / 2];
          if (k == 1 && j == 0) want = got[i];
          EXPECT(rb[k][i][j] == want, "alltoallw from %d [%d][%d] = %d want %d", k, i, j, rb[k][i][j], want);
          check += rb[k][i][j] * (k + 1);
        }
    }
  }

  /* ---- 3. MPI_Intercomm_merge: even ranks first, then odd ---- */
  MPI_Intercomm_merge(inter, color == 1, &merged);
  {
    int m, msize, box[ROWS][COLS], right, left, wl;
    MPI_Comm_rank(merged, &m);
    MPI_Comm_size(merged, &msize);
    EXPECT(m == (color == 0 ? lrank : HALF + lrank), "merged rank %d", m);
    right = (m + 1) % msize;
    left = (m + msize - 1) % msize;
    wl = left < HALF ? 2 * left : 2 * (left - HALF) + 1;
    memcpy(box, grid, sizeof box);
    MPI_Sendrecv_replace(box, 1, blk, right, 5, left, 5, merged, MPI_STATUS_IGNORE);
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j) {
        int inside = i >= 1 && i < 3 && j >= 1 && j < 4;
        int want = inside ? VAL(wl, i, j) : VAL(world, i, j);
        EXPECT(box[i][j] == want, "merged box [%d][%d] = %d want %d", i, j, box[i][j], want);
        check += inside ? box[i][j] : 0;
      }
  }

  /* ---- 4. MPI_Comm_create_group of world ranks 0, 1, 3 ---- */
  if (world != 2) {
    static const int members[3] = {0, 1, 3};
    MPI_Group wg, g3;
    MPI_Comm c3;
    int me, n3, cnt[3] = {1, 1, 1}, sdisp[3], rdisp[3], out[ROWS][COLS];
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_incl(wg, 3, members, &g3);
    MPI_Comm_create_group(MPI_COMM_WORLD, g3, 42, &c3);
    MPI_Comm_rank(c3, &me);
    MPI_Comm_size(c3, &n3);
    EXPECT(n3 == 3 && members[me] == world, "group rank %d of %d", me, n3);
    for (k = 0; k < 3; ++k) {
      sdisp[k] = 2 * k + 1;   /* column 2k+1 goes to member k */
      rdisp[k] = 2 * k;       /* member k's lands in column 2k */
    }
    memset(out, 0, sizeof out);
    MPI_Alltoallv(grid, cnt, sdisp, colres, out, cnt, rdisp, colres, c3);
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j) {
        int want = j % 2 == 0 ? VAL(members[j / 2], i, 2 * me + 1) : 0;
        EXPECT(out[i][j] == want, "group alltoallv [%d][%d] = %d want %d", i, j, out[i][j], want);
        check += out[i][j] * 0.5;
      }
    MPI_Comm_free(&c3);
    MPI_Group_free(&g3);
    MPI_Group_free(&wg);
  }

  /* ---- 5. MPI_Comm_idup with p2p in one Waitall, then nonblocking collectives ---- */
  {
    int next = (world + 1) % size, prev = (world + size - 1) % size, c[ROWS][COLS];
    MPI_Request q[3];
    memset(c, 0, sizeof c);
    MPI_Comm_idup(MPI_COMM_WORLD, &dupc, &q[0]);
    MPI_Irecv(&c[0][COLS - 1], 1, col, prev, 6, MPI_COMM_WORLD, &q[1]);
    MPI_Isend(&grid[0][0], 1, col, next, 6, MPI_COMM_WORLD, &q[2]);
    MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
    for (i = 0; i < ROWS; ++i)
      EXPECT(c[i][COLS - 1] == VAL(prev, i, 0), "idup ring [%d] = %d", i, c[i][COLS - 1]);
  }
  {
    int next = (world + 1) % size, prev = (world + size - 1) % size;
    config_t conf;
    int gathered[ROWS][COLS], counts[2 * HALF], displs[2 * HALF];
    int x[2 * HALF][ROWS][COLS], sc[2 * HALF], rc[2 * HALF], sd[2 * HALF], rd[2 * HALF];
    MPI_Datatype st[2 * HALF], rt[2 * HALF];
    int ring[ROWS][COLS];
    MPI_Request q[5];
    MPI_Status sts[5];
    memset(&conf, 0, sizeof conf);
    if (world == 0) {
      conf.steps = 12;
      conf.dt = 0.125;
      strcpy(conf.name, "ocean");
    }
    memset(gathered, 0, sizeof gathered);
    memset(x, 0, sizeof x);
    memset(ring, 0, sizeof ring);
    for (k = 0; k < size; ++k) {
      counts[k] = 1;
      displs[k] = k;
      sc[k] = rc[k] = 1;
      st[k] = (k % 2 == 0) ? col : alt;
      rt[k] = (world % 2 == 0) ? col : alt;   /* what peer k sends me: its st[world] */
      sd[k] = (int)(k * sizeof(int));
      rd[k] = (int)(k * sizeof(x[0]));
    }
    MPI_Ibcast(&conf, 1, cfg, 0, dupc, &q[0]);
    MPI_Igatherv(&grid[0][world % COLS], 1, colres, gathered, counts, displs, colres, 0, dupc, &q[1]);
    MPI_Ialltoallw(grid, sc, sd, st, x, rc, rd, rt, dupc, &q[2]);
    MPI_Irecv(ring, 1, blk, prev, 7, dupc, &q[3]);
    MPI_Isend(grid, 1, blk, next, 7, dupc, &q[4]);
    MPI_Waitall(5, q, sts);
    EXPECT(conf.steps == 12 && conf.dt == 0.125 && strcmp(conf.name, "ocean") == 0, "ibcast config");
    if (world == 0)
      for (i = 0; i < ROWS; ++i)
        for (j = 0; j < COLS; ++j) {
          int want = j < size ? VAL(j, i, j % COLS) : 0;
          EXPECT(gathered[i][j] == want, "igatherv [%d][%d] = %d want %d", i, j, gathered[i][j], want);
          check += gathered[i][j];
        }
    for (k = 0; k < size; ++k)
      for (i = 0; i < ROWS; ++i)
        for (j = 0; j < COLS; ++j) {
          /* Peer k sent ROWS ints of its grid from column `world`, as col or alt (by my parity),
           * and I received them with the same type at the start of x[k]. */
          int want = 0, flat = i * COLS + j;
          if (world % 2 == 0 && j == 0) want = VAL(k, i, world);
          if (world % 2 == 1 && flat % 2 == 0 && flat / 2 < ROWS)
            want = VAL(k, (world + 2 * (flat / 2)) / COLS, (world + 2 * (flat / 2)) % COLS);
          EXPECT(x[k][i][j] == want, "ialltoallw from %d [%d][%d] = %d want %d", k, i, j, x[k][i][j], want);
          check += x[k][i][j] * 0.125;
        }
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j) {
        int want = (i >= 1 && i < 3 && j >= 1 && j < 4) ? VAL(prev, i, j) : 0;
        EXPECT(ring[i][j] == want, "dup ring [%d][%d] = %d want %d", i, j, ring[i][j], want);
      }
    EXPECT(sts[3].MPI_SOURCE == prev && sts[3].MPI_TAG == 7, "dup ring status");
  }

  /* ---- 6. A persistent collective: MPI_Bcast_init of a column ---- */
  {
    int b[ROWS][COLS], round;
    MPI_Request pb;
    MPI_Bcast_init(&b[0][1], 1, col, 1, dupc, MPI_INFO_NULL, &pb);
    for (round = 0; round < 3; ++round) {
      if (world == 1) fill(b, 100 + round);
      else memset(b, 0, sizeof b);
      MPI_Start(&pb);
      MPI_Wait(&pb, MPI_STATUS_IGNORE);
      for (i = 0; i < ROWS; ++i)
        for (j = 0; j < COLS; ++j) {
          int want = (world == 1 || j == 1) ? VAL(100 + round, i, j) : 0;
          EXPECT(b[i][j] == want, "bcast_init round %d [%d][%d] = %d", round, i, j, b[i][j]);
          check += j == 1 ? b[i][j] * 0.001 : 0;
        }
    }
    MPI_Request_free(&pb);
  }

  /* ---- 7. Partitioned communication: one resized column per partition ---- */
  {
    int next = (world + 1) % size, prev = (world + size - 1) % size, in[ROWS][COLS], p, flag;
    MPI_Request ps, pr;
    memset(in, 0, sizeof in);
    MPI_Psend_init(grid, COLS, 1, colres, next, 8, dupc, MPI_INFO_NULL, &ps);
    MPI_Precv_init(in, COLS, 1, colres, prev, 8, dupc, MPI_INFO_NULL, &pr);
    MPI_Start(&pr);
    MPI_Start(&ps);
    for (p = COLS - 1; p >= 0; --p) MPI_Pready(p, ps);
    for (flag = 0, p = 0; p < COLS; ++p) { /* every partition, polled in turn */
      int arrived = 0;
      while (!arrived) MPI_Parrived(pr, p, &arrived);
      flag += arrived;
    }
    EXPECT(flag == COLS, "%d partitions arrived", flag);
    MPI_Wait(&ps, MPI_STATUS_IGNORE);
    MPI_Wait(&pr, MPI_STATUS_IGNORE);
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j) {
        EXPECT(in[i][j] == VAL(prev, i, j), "partitioned [%d][%d] = %d", i, j, in[i][j]);
        check += in[i][j] * 0.01;
      }
    MPI_Request_free(&ps);
    MPI_Request_free(&pr);
  }

  MPI_Comm_free(&dupc);
  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
  MPI_Type_free(&cfg);
  MPI_Type_free(&colres);
  MPI_Type_free(&blk);
  MPI_Type_free(&alt);
  MPI_Type_free(&col);
  {
    long total = 0;
    double sums[2 * HALF];
    MPI_Reduce(&errors, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Gather(&check, 1, MPI_DOUBLE, sums, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (world == 0) {
      printf("communicators: split, intercomm, merge, create_group, idup on %d ranks\n", size);
      for (k = 0; k < size; ++k) printf("rank %d checksum %.3f\n", k, sums[k]);
      printf("%s (%ld errors)\n", total ? "FAILED" : "all communicators correct", total);
    }
  }
  MPI_Finalize();
  return errors != 0;
}
