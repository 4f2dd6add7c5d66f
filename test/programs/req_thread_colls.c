/* Collectives with derived datatypes from several threads at once (MPI_THREAD_MULTIPLE): the
 * main thread creates, in the same order on every rank, one duplicate of MPI_COMM_WORLD and one
 * distributed-graph communicator (MPI_Dist_graph_create_adjacent: receive from the ranks one and
 * two to the left, send to the ranks one and two to the right) per thread; then NT pthreads, each
 * on its own communicators, concurrently run
 *  - MPI_Neighbor_alltoallw with local type arrays {column vector, subarray block};
 *  - MPI_Alltoallw with local per-peer arrays alternating two strided types of equal signature;
 *  - the same exchange as an MPI-4 persistent collective (MPI_Alltoallw_init, started twice);
 *  - MPI_Ibcast of the whole field as columns resized to one int, waited with MPI_Wait;
 *  - MPI_Sendrecv_replace of a subarray around the ring;
 *  - MPI_Comm_idup of its communicator, then MPI_Sendrecv of a column on the new one.
 * Every received element is checked against the value computed from (rank, thread, index);
 * rank 0 prints each thread's checksum gathered from all ranks.
 * NP: 4
 * CFLAGS: -pthread */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NT 3
#define ROWS 4
#define COLS 6
#define NP 4
#define VAL(r, t, i, j) ((r) * 10000 + (t) * 1000 + (i) * 10 + (j))

typedef struct {
  int tid, rank;
  MPI_Comm comm, graph;
  long errors;
  double checksum;
} task_t;

static void bad(task_t *t, const char *what, int i, int j, int got, int want) {
  if (t->errors++ < 5)
    fprintf(stderr, "rank %d thread %d: %s [%d][%d] = %d, want %d\n", t->rank, t->tid, what, i, j,
            got, want);
}

static void *worker(void *arg) {
  task_t *t = (task_t *)arg;
  const int rank = t->rank, tid = t->tid;
  const int prev = (rank + NP - 1) % NP, prev2 = (rank + NP - 2) % NP, next = (rank + 1) % NP;
  int field[ROWS][COLS], i, j, p, round;
  int sizes[2] = {ROWS, COLS}, sub[2] = {2, 3}, start[2] = {1, 1};
  MPI_Datatype col, alt, blk, colres;

  for (i = 0; i < ROWS; ++i)
    for (j = 0; j < COLS; ++j) field[i][j] = VAL(rank, tid, i, j);
  MPI_Type_vector(ROWS, 1, COLS, MPI_INT, &col);
  MPI_Type_commit(&col);
  MPI_Type_vector(ROWS, 1, 2, MPI_INT, &alt);
  MPI_Type_commit(&alt);
  MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_INT, &blk);
  MPI_Type_commit(&blk);
  MPI_Type_create_resized(col, 0, sizeof(int), &colres);
  MPI_Type_commit(&colres);

  /* 1. Neighbourhood all-to-all on the thread's graph communicator. */
  {
    int r2[2][ROWS][COLS], sc[2] = {1, 1}, rc[2] = {1, 1};
    MPI_Aint sd[2], rd[2];
    MPI_Datatype st[2] = {col, blk};
    MPI_Datatype rt[2] = {col, blk};
    sd[0] = (MPI_Aint)(tid * sizeof(int));
    sd[1] = 0;
    rd[0] = 0;
    rd[1] = (MPI_Aint)sizeof(r2[0]);
    memset(r2, 0, sizeof r2);
    MPI_Neighbor_alltoallw(field, sc, sd, st, r2, rc, rd, rt, t->graph);
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j) {
        int want = j == 0 ? VAL(prev, tid, i, tid) : 0;
        if (r2[0][i][j] != want) bad(t, "neighbor column", i, j, r2[0][i][j], want);
        want = (i >= 1 && i < 3 && j >= 1 && j < 4) ? VAL(prev2, tid, i, j) : 0;
        if (r2[1][i][j] != want) bad(t, "neighbor block", i, j, r2[1][i][j], want);
        t->checksum += r2[0][i][j] + 0.5 * r2[1][i][j];
      }
  }

  /* 2. All-to-all with per-peer types, blocking and persistent. */
  {
    int x[NP][ROWS][COLS], sc[NP], rc[NP], sd[NP], rd[NP];
    MPI_Datatype st[NP] = {col, alt, col, alt};
    MPI_Datatype rt[NP] = {alt, col, alt, col};
    MPI_Request pr;
    for (p = 0; p < NP; ++p) {
      sc[p] = rc[p] = 1;
      sd[p] = (int)(((p + tid) % COLS) * sizeof(int));
      rd[p] = (int)(p * sizeof(x[0]));
    }
    MPI_Alltoallw_init(field, sc, sd, st, x, rc, rd, rt, t->comm, MPI_INFO_NULL, &pr);
    for (round = 0; round < 3; ++round) {
      memset(x, 0, sizeof x);
      if (round == 0) {
        MPI_Alltoallw(field, sc, sd, st, x, rc, rd, rt, t->comm);
      } else {
        MPI_Start(&pr);
        MPI_Wait(&pr, MPI_STATUS_IGNORE);
      }
      for (p = 0; p < NP; ++p) {
        /* Peer p sent st[rank] (ROWS ints) from its column (rank + tid) % COLS; I received it
         * with rt[p] at the start of x[p]. */
        const int c = (rank + tid) % COLS;
        int got[ROWS];
        for (i = 0; i < ROWS; ++i)
          got[i] = rank % 2 == 0 ? VAL(p, tid, i, c) : VAL(p, tid, (c + 2 * i) / COLS, (c + 2 * i) % COLS);
        for (i = 0; i < ROWS; ++i)
          for (j = 0; j < COLS; ++j) {
            int flat = i * COLS + j, want = 0;
            if (p % 2 == 0 && flat % 2 == 0 && flat / 2 < ROWS) want = got[flat / 2];
            if (p % 2 == 1 && j == 0) want = got[i];
            if (x[p][i][j] != want) bad(t, round ? "alltoallw_init" : "alltoallw", i, j, x[p][i][j], want);
            t->checksum += x[p][i][j] * 0.25;
          }
      }
    }
    MPI_Request_free(&pr);
  }

  /* 3. MPI_Ibcast of the field as COLS resized columns, root = tid. */
  {
    int b[ROWS][COLS];
    MPI_Request r;
    if (rank == tid % NP) memcpy(b, field, sizeof b);
    else memset(b, 0, sizeof b);
    MPI_Ibcast(b, COLS, colres, tid % NP, t->comm, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j)
        if (b[i][j] != VAL(tid % NP, tid, i, j)) bad(t, "ibcast", i, j, b[i][j], VAL(tid % NP, tid, i, j));
  }

  /* 4. MPI_Sendrecv_replace of the block around the ring. */
  {
    int box[ROWS][COLS];
    MPI_Status s;
    memcpy(box, field, sizeof box);
    MPI_Sendrecv_replace(box, 1, blk, next, 9, prev, 9, t->comm, &s);
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j) {
        int inside = i >= 1 && i < 3 && j >= 1 && j < 4;
        int want = VAL(inside ? prev : rank, tid, i, j);
        if (box[i][j] != want) bad(t, "sendrecv_replace", i, j, box[i][j], want);
      }
    if (s.MPI_SOURCE != prev) bad(t, "sendrecv_replace source", 0, 0, s.MPI_SOURCE, prev);
  }

  /* 5. MPI_Comm_idup of the thread's communicator, then a column on the duplicate. */
  {
    MPI_Comm nc;
    MPI_Request r;
    int c[ROWS][COLS];
    MPI_Comm_idup(t->comm, &nc, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    memset(c, 0, sizeof c);
    MPI_Sendrecv(&field[0][COLS - 1], 1, col, prev, 11, &c[0][COLS - 1], 1, col, next, 11, nc,
                 MPI_STATUS_IGNORE);
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j) {
        int want = j == COLS - 1 ? VAL(next, tid, i, COLS - 1) : 0;
        if (c[i][j] != want) bad(t, "idup column", i, j, c[i][j], want);
        t->checksum += c[i][j] * 0.125;
      }
    MPI_Comm_free(&nc);
  }

  MPI_Type_free(&colres);
  MPI_Type_free(&blk);
  MPI_Type_free(&alt);
  MPI_Type_free(&col);
  return NULL;
}

int main(int argc, char **argv) {
  int provided = 0, rank, size, i;
  task_t tasks[NT];
  pthread_t th[NT];
  long errors = 0, total = 0;
  double sums[NT], all[NT * NP];

  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided < MPI_THREAD_MULTIPLE || size != NP) {
    if (rank == 0) printf("needs MPI_THREAD_MULTIPLE (got %d) and %d ranks (got %d)\n", provided, NP, size);
    MPI_Finalize();
    return 1;
  }
  for (i = 0; i < NT; ++i) {
    int sources[2] = {(rank + NP - 1) % NP, (rank + NP - 2) % NP};
    int dests[2] = {(rank + 1) % NP, (rank + 2) % NP};
    tasks[i].tid = i;
    tasks[i].rank = rank;
    tasks[i].errors = 0;
    tasks[i].checksum = 0.0;
    MPI_Comm_dup(MPI_COMM_WORLD, &tasks[i].comm);
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sources, MPI_UNWEIGHTED, 2, dests,
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &tasks[i].graph);
  }
  for (i = 0; i < NT; ++i)
    if (pthread_create(&th[i], NULL, worker, &tasks[i]) != 0) MPI_Abort(MPI_COMM_WORLD, 3);
  for (i = 0; i < NT; ++i) pthread_join(th[i], NULL);
  for (i = 0; i < NT; ++i) {
    errors += tasks[i].errors;
    sums[i] = tasks[i].checksum;
    MPI_Comm_free(&tasks[i].graph);
    MPI_Comm_free(&tasks[i].comm);
  }
  MPI_Gather(sums, NT, MPI_DOUBLE, all, NT, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Reduce(&errors, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    int r;
    printf("%d threads per rank, collectives on per-thread communicators\n", NT);
    for (r = 0; r < NP; ++r) {
      printf("rank %d:", r);
      for (i = 0; i < NT; ++i) printf(" %.3f", all[r * NT + i]);
      printf("\n");
    }
    printf("%s (%ld errors)\n", total ? "FAILED" : "all threads correct", total);
  }
  MPI_Finalize();
  return total != 0;
}
