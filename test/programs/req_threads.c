/* A hybrid code under MPI_THREAD_MULTIPLE: every rank runs NT pthreads that communicate at the
 * same time, each with derived datatypes built inside the thread function:
 *  - each thread has its own duplicate of MPI_COMM_WORLD (made by the main thread, in order) and
 *    swaps a column (MPI_Type_vector) and a 2 x 3 block (MPI_Type_create_subarray) of its own
 *    field with both ring neighbours through MPI_Irecv/MPI_Isend/MPI_Waitall, then again with
 *    MPI_Sendrecv;
 *  - on the shared MPI_COMM_WORLD, tag = thread id, every thread receives one strided row from
 *    every other rank with MPI_ANY_SOURCE and tells the messages apart by MPI_SOURCE;
 *  - persistent requests (MPI_Send_init/MPI_Recv_init of an hvector of pairs) started STEPS times
 *    with MPI_Startall on the thread's communicator;
 *  - type churn: every thread builds, commits, duplicates, packs (MPI_Pack, checked against the
 *    layout computed by hand) and frees indexed and resized types in a loop, concurrently.
 * Every received element is checked against the value computed from (rank, thread, index);
 * rank 0 prints each thread's checksum gathered from all ranks.
 * NP: 4
 * CFLAGS: -pthread */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NT 4      /* threads per rank */
#define ROWS 6
#define COLS 8
#define STEPS 5
#define CHURN 40
#define MAXP 16

#define VAL(r, t, i, j) ((double)((r) * 100000 + (t) * 10000 + (i) * 100 + (j)))

typedef struct {
  int tid, rank, size;
  MPI_Comm comm;
  long errors;
  double checksum;
} task_t;

static void bad(task_t *t, const char *what, long a, long b) {
  if (t->errors++ < 5)
    fprintf(stderr, "rank %d thread %d: %s: %ld != %ld\n", t->rank, t->tid, what, a, b);
}

static void *worker(void *arg) {
  task_t *t = (task_t *)arg;
  const int rank = t->rank, size = t->size, tid = t->tid;
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double field[ROWS][COLS], fromprev[ROWS][COLS], fromnext[ROWS][COLS];
  MPI_Datatype col, block, row3, pairs;
  MPI_Request q[4];
  MPI_Status st[4];
  int i, j, k, s;
  int sizes[2] = {ROWS, COLS}, sub[2] = {2, 3}, start[2] = {1, 2};

  for (i = 0; i < ROWS; ++i)
    for (j = 0; j < COLS; ++j) field[i][j] = VAL(rank, tid, i, j);

  MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &block);
  MPI_Type_commit(&block);

  /* 1. Nonblocking ring exchange on the thread's communicator. */
  memset(fromprev, 0, sizeof fromprev);
  memset(fromnext, 0, sizeof fromnext);
  MPI_Irecv(&fromprev[0][1], 1, col, prev, 1, t->comm, &q[0]);
  MPI_Irecv(fromnext, 1, block, next, 2, t->comm, &q[1]);
  MPI_Isend(&field[0][tid], 1, col, next, 1, t->comm, &q[2]);
  MPI_Isend(field, 1, block, prev, 2, t->comm, &q[3]);
  MPI_Waitall(4, q, st);
  for (i = 0; i < ROWS; ++i)
    for (j = 0; j < COLS; ++j) {
      double want = j == 1 ? VAL(prev, tid, i, tid) : 0.0;
      if (fromprev[i][j] != want) bad(t, "column", (long)fromprev[i][j], (long)want);
      want = (i >= 1 && i < 3 && j >= 2 && j < 5) ? VAL(next, tid, i, j) : 0.0;
      if (fromnext[i][j] != want) bad(t, "block", (long)fromnext[i][j], (long)want);
      t->checksum += fromprev[i][j] * (i + 1) + fromnext[i][j] * (j + 1);
    }
  if (st[0].MPI_SOURCE != prev) bad(t, "column source", st[0].MPI_SOURCE, prev);
  if (st[1].MPI_TAG != 2) bad(t, "block tag", st[1].MPI_TAG, 2);

  /* The same with MPI_Sendrecv, the other way round. */
  memset(fromnext, 0, sizeof fromnext);
  MPI_Sendrecv(&field[0][COLS - 1 - tid], 1, col, prev, 3, &fromnext[0][0], 1, col, next, 3,
               t->comm, &st[0]);
  for (i = 0; i < ROWS; ++i)
    if (fromnext[i][0] != VAL(next, tid, i, COLS - 1 - tid))
      bad(t, "sendrecv column", (long)fromnext[i][0], (long)VAL(next, tid, i, COLS - 1 - tid));
  {
    int n = -1;
    MPI_Get_count(&st[0], col, &n);
    if (n != 1) bad(t, "sendrecv count", n, 1);
  }

  /* 2. MPI_ANY_SOURCE on the shared communicator: tag = thread id. Row r of the sender, every
   * other element (4 doubles). */
  MPI_Type_vector(COLS / 2, 1, 2, MPI_DOUBLE, &row3);
  MPI_Type_commit(&row3);
  {
    double got[MAXP][COLS];
    MPI_Request rq[2 * MAXP];
    int seen[MAXP] = {0}, nr = 0;
    for (k = 0; k < size - 1; ++k) {
      for (j = 0; j < COLS; ++j) got[k][j] = -1.0;
      MPI_Irecv(got[k], 1, row3, MPI_ANY_SOURCE, tid, MPI_COMM_WORLD, &rq[nr++]);
    }
    for (k = 0; k < size; ++k)
      if (k != rank) MPI_Isend(field[(rank + tid) % ROWS], 1, row3, k, tid, MPI_COMM_WORLD, &rq[nr++]);
    {
      MPI_Status sts[2 * MAXP];
      MPI_Waitall(nr, rq, sts);
      for (k = 0; k < size - 1; ++k) {
        int src = sts[k].MPI_SOURCE, n = -1;
        if (src < 0 || src >= size || src == rank || seen[src]) {
          bad(t, "any-source sender", src, -1);
          continue;
        }
        seen[src] = 1;
        MPI_Get_count(&sts[k], row3, &n);
        if (n != 1) bad(t, "any-source count", n, 1);
        if (sts[k].MPI_TAG != tid) bad(t, "any-source tag", sts[k].MPI_TAG, tid);
        for (j = 0; j < COLS; ++j) {
          double want = j % 2 == 0 ? VAL(src, tid, (src + tid) % ROWS, j) : -1.0;
          if (got[k][j] != want) bad(t, "any-source row", (long)got[k][j], (long)want);
          if (j % 2 == 0) t->checksum += want * (src + 1);
        }
      }
    }
  }

  /* 3. Persistent requests: pairs of doubles every 3 doubles (an hvector), STEPS rounds. */
  MPI_Type_create_hvector(4, 2, 3 * sizeof(double), MPI_DOUBLE, &pairs);
  MPI_Type_commit(&pairs);
  {
    double out[12], in[12];
    MPI_Request pq[2];
    MPI_Send_init(out, 1, pairs, next, 4, t->comm, &pq[0]);
    MPI_Recv_init(in, 1, pairs, prev, 4, t->comm, &pq[1]);
    for (s = 0; s < STEPS; ++s) {
      for (k = 0; k < 12; ++k) {
        out[k] = VAL(rank, tid, s, k);
        in[k] = -1.0;
      }
      MPI_Startall(2, pq);
      MPI_Waitall(2, pq, st);
      for (k = 0; k < 12; ++k) {
        double want = k % 3 < 2 ? VAL(prev, tid, s, k) : -1.0;
        if (in[k] != want) bad(t, "persistent", (long)in[k], (long)want);
        t->checksum += in[k] > 0 ? in[k] / 1000.0 : 0.0;
      }
    }
    MPI_Request_free(&pq[0]);
    MPI_Request_free(&pq[1]);
  }

  /* 4. Type churn: build, commit, dup, pack, free, over and over in every thread at once. */
  for (s = 0; s < CHURN; ++s) {
    int len[3] = {1, 2, 3}, disp[3] = {0, 4, 9};
    MPI_Datatype idx, wide, copy;
    double src[32];
    char packed[512];
    int pos = 0, psize = 0;
    for (k = 0; k < 32; ++k) src[k] = VAL(rank, tid, s, k);
    MPI_Type_indexed(3, len, disp, MPI_DOUBLE, &idx);
    MPI_Type_create_resized(idx, 0, 16 * sizeof(double), &wide);
    MPI_Type_commit(&wide);
    MPI_Type_dup(wide, &copy);
    MPI_Type_commit(&copy);
    MPI_Pack_size(2, copy, MPI_COMM_SELF, &psize);
    if (psize < 12 * (int)sizeof(double)) bad(t, "pack size", psize, 12 * (int)sizeof(double));
    MPI_Pack(src, 2, copy, packed, (int)sizeof packed, &pos, MPI_COMM_SELF);
    if (pos != 12 * (int)sizeof(double)) bad(t, "pack position", pos, 12 * (int)sizeof(double));
    {
      static const int order[6] = {0, 4, 5, 9, 10, 11};
      double v;
      for (k = 0; k < 12; ++k) {
        memcpy(&v, packed + k * sizeof(double), sizeof v);
        if (v != src[(k / 6) * 16 + order[k % 6]])
          bad(t, "packed value", (long)v, (long)src[(k / 6) * 16 + order[k % 6]]);
      }
    }
    MPI_Type_free(&copy);
    MPI_Type_free(&wide);
    MPI_Type_free(&idx);
  }

  MPI_Type_free(&pairs);
  MPI_Type_free(&row3);
  MPI_Type_free(&block);
  MPI_Type_free(&col);
  return NULL;
}

int main(int argc, char **argv) {
  int provided = 0, rank, size, i;
  task_t tasks[NT];
  pthread_t th[NT];
  long errors = 0, total = 0;
  double sums[NT], *all = NULL;

  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0) printf("MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
    MPI_Finalize();
    return 1;
  }
  if (size > MAXP) MPI_Abort(MPI_COMM_WORLD, 2);

  for (i = 0; i < NT; ++i) {
    tasks[i].tid = i;
    tasks[i].rank = rank;
    tasks[i].size = size;
    tasks[i].errors = 0;
    tasks[i].checksum = 0.0;
    MPI_Comm_dup(MPI_COMM_WORLD, &tasks[i].comm);
  }
  for (i = 0; i < NT; ++i)
    if (pthread_create(&th[i], NULL, worker, &tasks[i]) != 0) MPI_Abort(MPI_COMM_WORLD, 3);
  for (i = 0; i < NT; ++i) pthread_join(th[i], NULL);

  for (i = 0; i < NT; ++i) {
    errors += tasks[i].errors;
    sums[i] = tasks[i].checksum;
    MPI_Comm_free(&tasks[i].comm);
  }
  if (rank == 0) all = malloc(sizeof(double) * NT * size);
  MPI_Gather(sums, NT, MPI_DOUBLE, all, NT, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Reduce(&errors, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    int r;
    printf("threads per rank: %d, ranks: %d\n", NT, size);
    for (r = 0; r < size; ++r) {
      printf("rank %d:", r);
      for (i = 0; i < NT; ++i) printf(" %.3f", all[r * NT + i]);
      printf("\n");
    }
    printf("%s (%ld errors)\n", total ? "FAILED" : "all threads correct", total);
    free(all);
  }
  MPI_Finalize();
  return total != 0;
}
