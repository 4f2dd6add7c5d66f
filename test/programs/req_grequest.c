/* Completion of mixed request kinds with derived datatypes, as an event loop of a library sees
 * them:
 *  - MPI_Testany polling over a derived-type MPI_Irecv, an MPI_Isend, a generalized request
 *    (MPI_Grequest_start, completed by the program once the others are done; its query function
 *    sets the count, source and tag of its status), MPI_REQUEST_NULL and an inactive persistent
 *    receive;
 *  - an MPI_Waitsome loop over receives of a strided type from every peer, each sender sending
 *    a different number of elements, plus one message that ends inside an element: every status
 *    is checked (MPI_SOURCE, MPI_TAG, MPI_Get_count, MPI_Get_elements); the sends complete in a
 *    second MPI_Waitsome loop with MPI_STATUSES_IGNORE;
 *  - MPI_Request_get_status polling of a subarray receive, then MPI_Wait to release it;
 *  - MPI_Cancel of a pending derived-type receive and of a started persistent receive
 *    (MPI_Test_cancelled, buffer untouched), the persistent receive then restarted and used;
 *  - MPI_Improbe from MPI_ANY_SOURCE sizing MPI_Imrecv of a strided type, completed in one
 *    MPI_Waitall with the sends and a generalized request.
 * Every received element is checked against the value computed from its sender and index; rank
 * 0 prints a summary and the checksums of all ranks.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 6
#define COLS 5
#define MAXP 16
#define MAXC 8            /* receive capacity, in elements of `tri` */
#define TRI_EXT 5         /* extent of `tri`, in doubles */

static long errors = 0;
#define EXPECT(cond, ...)                                                  \
  do {                                                                     \
    if (!(cond)) {                                                         \
      if (errors++ < 10) {                                                 \
        fprintf(stderr, "rank %d line %d: ", g_rank, __LINE__);           \
        fprintf(stderr, __VA_ARGS__);                                      \
        fprintf(stderr, "\n");                                             \
      }                                                                    \
    }                                                                      \
  } while (0)
static int g_rank;

static double dval(int src, int k) { return src * 1000.0 + k; }

/* ---- a generalized request: "an operation" that reports n ints from `source` with `tag` ---- */
typedef struct {
  int n, source, tag, freed, queried;
} greq_state;

static int query_fn(void *extra, MPI_Status *status) {
  greq_state *g = (greq_state *)extra;
  g->queried++;
  MPI_Status_set_elements(status, MPI_INT, g->n);
  MPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = g->source;
  status->MPI_TAG = g->tag;
  return MPI_SUCCESS;
}
static int free_fn(void *extra) {
  ((greq_state *)extra)->freed++;
  return MPI_SUCCESS;
}
static int cancel_fn(void *extra, int complete) {
  (void)extra;
  (void)complete;
  return MPI_SUCCESS;
}

int main(int argc, char **argv) {
  int rank, size, next, prev, i, j, k, p;
  int grid[ROWS][COLS];
  double check = 0.0;
  MPI_Datatype col, tri, blk;
  int sizes[2] = {ROWS, COLS}, sub[2] = {3, 2}, start[2] = {2, 1};

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  g_rank = rank;
  if (size > MAXC) MPI_Abort(MPI_COMM_WORLD, 1);
  next = (rank + 1) % size;
  prev = (rank + size - 1) % size;

  MPI_Type_vector(ROWS, 1, COLS, MPI_INT, &col);      /* one column of grid */
  MPI_Type_commit(&col);
  MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &tri);         /* 3 doubles, every other one */
  MPI_Type_commit(&tri);
  MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_INT, &blk);
  MPI_Type_commit(&blk);

  for (i = 0; i < ROWS; ++i)
    for (j = 0; j < COLS; ++j) grid[i][j] = rank * 100 + i * 10 + j;

  /* ---- A. Testany over p2p, a generalized request, a null and an inactive request ---- */
  {
    int colbuf[ROWS][COLS], idle[ROWS][COLS], done01 = 0, order[5], norder = 0, flag, idx;
    MPI_Request r[5];
    MPI_Status st;
    greq_state g = {7, -1, 99, 0, 0};
    g.source = prev;
    memset(colbuf, 0, sizeof colbuf);
    memset(idle, 0, sizeof idle);
    MPI_Irecv(&colbuf[0][COLS - 1], 1, col, prev, 1, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(&grid[0][rank % COLS], 1, col, next, 1, MPI_COMM_WORLD, &r[1]);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g, &r[2]);
    r[3] = MPI_REQUEST_NULL;
    MPI_Recv_init(idle, 1, col, prev, 2, MPI_COMM_WORLD, &r[4]); /* never started */
    for (;;) {
      MPI_Testany(5, r, &idx, &flag, &st);
      if (!flag) continue;
      if (idx == MPI_UNDEFINED) break;
      order[norder++] = idx;
      if (idx == 0) {
        int n = -1;
        MPI_Get_count(&st, col, &n);
        EXPECT(n == 1 && st.MPI_SOURCE == prev && st.MPI_TAG == 1, "A: recv status n=%d src=%d tag=%d", n, st.MPI_SOURCE, st.MPI_TAG);
      }
      if (idx == 2) {
        int n = -1, cancelled = 1;
        MPI_Get_count(&st, MPI_INT, &n);
        MPI_Test_cancelled(&st, &cancelled);
        EXPECT(n == 7 && st.MPI_SOURCE == prev && st.MPI_TAG == 99 && !cancelled,
               "A: grequest status n=%d src=%d tag=%d cancelled=%d", n, st.MPI_SOURCE, st.MPI_TAG, cancelled);
      }
      if (idx == 0 || idx == 1) done01++;
      if (done01 == 2) {
        done01 = 3;
        MPI_Grequest_complete(r[2]);
      }
    }
    EXPECT(norder == 3 && order[2] == 2, "A: %d completions, last %d", norder, order[norder - 1]);
    EXPECT(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL && r[2] == MPI_REQUEST_NULL &&
           r[4] != MPI_REQUEST_NULL, "A: request handles after completion");
    EXPECT(g.freed == 1 && g.queried >= 1, "A: grequest freed %d queried %d", g.freed, g.queried);
    MPI_Request_free(&r[4]);
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j) {
        int want = j == COLS - 1 ? prev * 100 + i * 10 + prev % COLS : 0;
        EXPECT(colbuf[i][j] == want, "A: colbuf[%d][%d] = %d, want %d", i, j, colbuf[i][j], want);
        EXPECT(idle[i][j] == 0, "A: idle buffer written");
        check += colbuf[i][j] * (i + 1);
      }
  }

  /* ---- B. Waitsome over receives of different lengths, statuses checked ---- */
  {
    static double in[MAXP + 1][MAXC * TRI_EXT], out[MAXC * TRI_EXT], part[4];
    MPI_Request rr[MAXP + 1], sr[MAXP + 1];
    MPI_Status sts[MAXP + 1];
    int indices[MAXP + 1], nr = 0, ns = 0, left, out_n, from[MAXP + 1];
    for (k = 0; k < MAXC * TRI_EXT; ++k) out[k] = dval(rank, k);
    for (k = 0; k < 4; ++k) part[k] = dval(rank, 500 + k);
    for (p = 0; p < size; ++p) {
      if (p == rank) continue;
      for (k = 0; k < MAXC * TRI_EXT; ++k) in[nr][k] = -1.0;
      from[nr] = p;
      MPI_Irecv(in[nr], MAXC, tri, p, 10 + p, MPI_COMM_WORLD, &rr[nr]);
      nr++;
    }
    /* One message that ends inside an element: 4 doubles received as `tri`. */
    for (k = 0; k < MAXC * TRI_EXT; ++k) in[nr][k] = -1.0;
    from[nr] = prev;
    MPI_Irecv(in[nr], 2, tri, prev, 30, MPI_COMM_WORLD, &rr[nr]);
    nr++;
    for (p = 0; p < size; ++p)
      if (p != rank) MPI_Isend(out, rank + 1, tri, p, 10 + rank, MPI_COMM_WORLD, &sr[ns++]);
    MPI_Isend(part, 4, MPI_DOUBLE, next, 30, MPI_COMM_WORLD, &sr[ns++]);

    left = nr;
    while (left > 0) {
      MPI_Waitsome(nr, rr, &out_n, indices, sts);
      for (k = 0; k < out_n; ++k) {
        int q = indices[k], n = -2, e = -2, partial = q == nr - 1, src = from[q];
        MPI_Get_count(&sts[k], tri, &n);
        MPI_Get_elements(&sts[k], tri, &e);
        EXPECT(sts[k].MPI_SOURCE == src, "B: source %d want %d", sts[k].MPI_SOURCE, src);
        EXPECT(sts[k].MPI_TAG == (partial ? 30 : 10 + src), "B: tag %d", sts[k].MPI_TAG);
        if (partial) {
          EXPECT(n == MPI_UNDEFINED && e == 4, "B: partial count %d elements %d", n, e);
          for (j = 0; j < MAXC * TRI_EXT; ++j) {
            double want = -1.0;
            if (j == 0 || j == 2 || j == 4) want = dval(src, 500 + j / 2);
            if (j == 5) want = dval(src, 503);
            EXPECT(in[q][j] == want, "B: partial [%d] = %g want %g", j, in[q][j], want);
          }
        } else {
          EXPECT(n == src + 1 && e == 3 * (src + 1), "B: from %d count %d elements %d", src, n, e);
          for (j = 0; j < MAXC * TRI_EXT; ++j) {
            int elt = j / TRI_EXT, off = j % TRI_EXT;
            double want = (elt <= src && off % 2 == 0 && off < 5) ? dval(src, j) : -1.0;
            EXPECT(in[q][j] == want, "B: from %d [%d] = %g want %g", src, j, in[q][j], want);
          }
        }
        for (j = 0; j < MAXC * TRI_EXT; ++j) check += in[q][j] > 0 ? in[q][j] * 1e-3 : 0.0;
      }
      left -= out_n;
    }
    EXPECT(MPI_SUCCESS == MPI_Waitsome(nr, rr, &out_n, indices, sts) && out_n == MPI_UNDEFINED,
           "B: Waitsome over completed requests gave %d", out_n);
    left = ns;
    while (left > 0) {
      MPI_Waitsome(ns, sr, &out_n, indices, MPI_STATUSES_IGNORE);
      left -= out_n;
    }
  }

  /* ---- C. MPI_Request_get_status polling of a subarray receive ---- */
  {
    int box[ROWS][COLS], flag = 0, polls = 0, n = -1;
    MPI_Request r, s;
    MPI_Status st;
    memset(box, 0, sizeof box);
    MPI_Irecv(box, 1, blk, next, 3, MPI_COMM_WORLD, &r);
    MPI_Isend(grid, 1, blk, prev, 3, MPI_COMM_WORLD, &s);
    while (!flag) {
      MPI_Request_get_status(r, &flag, &st);
      polls++;
    }
    EXPECT(r != MPI_REQUEST_NULL, "C: get_status freed the request");
    MPI_Get_count(&st, blk, &n);
    EXPECT(n == 1 && st.MPI_SOURCE == next && st.MPI_TAG == 3, "C: status n=%d src=%d", n, st.MPI_SOURCE);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    EXPECT(r == MPI_REQUEST_NULL && s == MPI_REQUEST_NULL, "C: handles not released");
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j) {
        int want = (i >= 2 && i < 5 && j >= 1 && j < 3) ? next * 100 + i * 10 + j : 0;
        EXPECT(box[i][j] == want, "C: box[%d][%d] = %d want %d", i, j, box[i][j], want);
        check += box[i][j];
      }
  }

  /* ---- D. Cancelled receives of derived types ---- */
  {
    int never[ROWS][COLS], pers[ROWS][COLS], cancelled = 0, n = -1;
    MPI_Request r, pr;
    MPI_Status st;
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j) never[i][j] = pers[i][j] = -7;
    MPI_Irecv(never, 1, blk, prev, 777, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &cancelled);
    EXPECT(cancelled == 1, "D: receive not cancelled");

    MPI_Recv_init(pers, 1, col, prev, 4, MPI_COMM_WORLD, &pr);
    MPI_Start(&pr);
    MPI_Cancel(&pr);
    MPI_Wait(&pr, &st);
    MPI_Test_cancelled(&st, &cancelled);
    EXPECT(cancelled == 1, "D: persistent receive not cancelled");
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j)
        EXPECT(never[i][j] == -7 && pers[i][j] == -7, "D: cancelled receive wrote [%d][%d]", i, j);
    /* Everyone's cancel is done before anyone sends tag 4. */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Start(&pr);
    MPI_Send(&grid[0][1], 1, col, next, 4, MPI_COMM_WORLD);
    MPI_Wait(&pr, &st);
    MPI_Test_cancelled(&st, &cancelled);
    MPI_Get_count(&st, col, &n);
    EXPECT(!cancelled && n == 1, "D: restarted receive cancelled=%d n=%d", cancelled, n);
    MPI_Request_free(&pr);
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j) {
        int want = j == 0 ? prev * 100 + i * 10 + 1 : -7;
        EXPECT(pers[i][j] == want, "D: pers[%d][%d] = %d want %d", i, j, pers[i][j], want);
        check += pers[i][j] * 0.5;
      }
  }

  /* ---- E. MPI_Improbe + MPI_Imrecv, one Waitall with sends and a generalized request ---- */
  {
    static double out[MAXC * TRI_EXT];
    double *bufs[MAXP];
    int srcs[MAXP], counts[MAXP], got = 0, nreq = 0, flag;
    MPI_Request all[3 * MAXP];
    MPI_Status sts[3 * MAXP];
    greq_state g = {0, 0, 5, 0, 0};
    for (k = 0; k < MAXC * TRI_EXT; ++k) out[k] = dval(rank, 2000 + k);
    for (p = 0; p < size; ++p)
      if (p != rank) MPI_Isend(out, (rank + p) % 3 + 1, tri, p, 50, MPI_COMM_WORLD, &all[nreq++]);
    while (got < size - 1) {
      MPI_Message msg;
      MPI_Status st;
      MPI_Improbe(MPI_ANY_SOURCE, 50, MPI_COMM_WORLD, &flag, &msg, &st);
      if (!flag) continue;
      MPI_Get_count(&st, tri, &counts[got]);
      srcs[got] = st.MPI_SOURCE;
      bufs[got] = malloc(sizeof(double) * (size_t)(counts[got] * TRI_EXT));
      for (k = 0; k < counts[got] * TRI_EXT; ++k) bufs[got][k] = -1.0;
      MPI_Imrecv(bufs[got], counts[got], tri, &msg, &all[nreq++]);
      EXPECT(msg == MPI_MESSAGE_NULL, "E: message handle not consumed");
      got++;
    }
    g.n = got;
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g, &all[nreq++]);
    MPI_Grequest_complete(all[nreq - 1]);
    MPI_Waitall(nreq, all, sts);
    {
      int n = -1;
      MPI_Get_count(&sts[nreq - 1], MPI_INT, &n);
      EXPECT(n == size - 1 && sts[nreq - 1].MPI_TAG == 5 && g.freed == 1, "E: grequest n=%d", n);
    }
    for (k = 0; k < got; ++k) {
      int src = srcs[k], n = -1;
      MPI_Status *s = &sts[(size - 1) + k];
      MPI_Get_count(s, tri, &n);
      EXPECT(counts[k] == (src + rank) % 3 + 1 && n == counts[k] && s->MPI_SOURCE == src,
             "E: from %d count %d/%d", src, counts[k], n);
      for (j = 0; j < counts[k] * TRI_EXT; ++j) {
        int off = j % TRI_EXT;
        double want = off % 2 == 0 ? dval(src, 2000 + j) : -1.0;
        EXPECT(bufs[k][j] == want, "E: from %d [%d] = %g want %g", src, j, bufs[k][j], want);
        check += want > 0 ? want * 1e-3 * (src + 1) : 0.0;
      }
      free(bufs[k]);
    }
  }

  MPI_Type_free(&blk);
  MPI_Type_free(&tri);
  MPI_Type_free(&col);

  {
    long total = 0;
    double *sums = NULL;
    if (rank == 0) sums = malloc(sizeof(double) * size);
    MPI_Reduce(&errors, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Gather(&check, 1, MPI_DOUBLE, sums, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      printf("mixed completions on %d ranks\n", size);
      for (p = 0; p < size; ++p) printf("rank %d checksum %.3f\n", p, sums[p]);
      printf("%s (%ld errors)\n", total ? "FAILED" : "all requests correct", total);
      free(sums);
    }
    MPI_Finalize();
    return total != 0;
  }
}
