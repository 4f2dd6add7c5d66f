/* The datatype life cycle as long-running codes exercise it: a time loop of 100 steps that
 * builds a different shape each step (a switch over step % 4: vector, indexed_block, subarray,
 * a resized hvector of a contiguous building block that is committed and freed too), commits
 * it twice, sends it with MPI_Isend and frees it before MPI_Wait (legal: the MPI keeps it until
 * the send completes), so handles come back for other shapes every step; a shape whose count
 * follows the step (left to the runtime) in the same loop. Then empty messages: count 0 of a
 * derived type, a contiguous of 0 elements (size 0, extent 0) and a vector with blocklength 0
 * (size 0, but MPICH gives it the extent of its strides) sent with counts > 0; short messages:
 * fewer elements than posted (MPI_Get_count the number sent) and a part of an element
 * (MPI_Get_count MPI_UNDEFINED, MPI_Get_elements_x the basic elements that arrived), seen with
 * MPI_Probe first; persistent requests whose types are freed right after MPI_Send_init /
 * MPI_Recv_init, started ten times. Ranks work in pairs; every received value and every count
 * is checked, and rank 0 prints a transcript.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define N 64
#define STEPS 100
#define VAL(r, s, i) ((r) * 100000.0 + (s) * 100.0 + (i))

static int errs = 0;
#define EXPECT(cond, ...)                                                                    \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      ++errs;                                                                                \
      printf("check failed (line %d): ", __LINE__);                                          \
      printf(__VA_ARGS__);                                                                   \
      printf("\n");                                                                         \
    }                                                                                        \
  } while (0)

/* Byte offsets (in doubles) that shape k of the time loop covers, in pack order. */
static int shape_elems(int k, int step, int *idx) {
  int n = 0, i, j;
  switch (k) {
  case 0: /* vector(4, 2, 7) */
    for (i = 0; i < 4; ++i) for (j = 0; j < 2; ++j) idx[n++] = 7 * i + j;
    break;
  case 1: { /* indexed_block(5, 1, {3, 1, 12, 8, 20}) */
    static const int d[5] = {3, 1, 12, 8, 20};
    for (i = 0; i < 5; ++i) idx[n++] = d[i];
    break;
  }
  case 2: /* subarray 6x8, 3x2 at (2, 5) */
    for (i = 0; i < 3; ++i) for (j = 0; j < 2; ++j) idx[n++] = (2 + i) * 8 + 5 + j;
    break;
  case 3: /* 2 of resized(hvector(3, 1, 40 bytes, contiguous(2))) with extent 8 doubles */
    for (j = 0; j < 2; ++j) for (i = 0; i < 3; ++i) { idx[n++] = 8 * j + 5 * i; idx[n++] = 8 * j + 5 * i + 1; }
    break;
  default: /* vector(1 + step % 5, 1, 3) */
    for (i = 0; i < 1 + step % 5; ++i) idx[n++] = 3 * i;
    break;
  }
  return n;
}

int main(int argc, char **argv) {
  int rank, size, peer, step, i, k, n, count, flag;
  double a[N], b[N];
  int idx[N];
  MPI_Datatype t, pair, step_t, empty, hollow, col;
  MPI_Request req;
  MPI_Status st;
  MPI_Count elems;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  peer = rank ^ 1;
  if (peer >= size) MPI_Abort(MPI_COMM_WORLD, 2);

  for (step = 0; step < STEPS; ++step) {
    k = step % 4;
    for (i = 0; i < N; ++i) a[i] = VAL(rank, step, i);
    memset(b, 0, sizeof b);
    switch (k) {
    case 0:
      MPI_Type_vector(4, 2, 7, MPI_DOUBLE, &t);
      MPI_Type_commit(&t);
      MPI_Type_commit(&t);
      MPI_Isend(a, 1, t, peer, step, MPI_COMM_WORLD, &req);
      MPI_Type_free(&t);
      break;
    case 1: {
      int disp[5] = {3, 1, 12, 8, 20};
      MPI_Type_create_indexed_block(5, 1, disp, MPI_DOUBLE, &t);
      MPI_Type_commit(&t);
      MPI_Type_commit(&t);
      MPI_Isend(a, 1, t, peer, step, MPI_COMM_WORLD, &req);
      MPI_Type_free(&t);
      break;
    }
    case 2: {
      int sizes[2] = {6, 8}, sub[2] = {3, 2}, start[2] = {2, 5};
      MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &t);
      MPI_Type_commit(&t);
      MPI_Type_commit(&t);
      MPI_Isend(a, 1, t, peer, step, MPI_COMM_WORLD, &req);
      MPI_Type_free(&t);
      break;
    }
    default: {
      MPI_Datatype h;
      MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
      MPI_Type_commit(&pair); /* committed although only a building block */
      MPI_Type_create_hvector(3, 1, 5 * sizeof(double), pair, &h);
      MPI_Type_free(&pair);
      MPI_Type_create_resized(h, 0, 8 * sizeof(double), &t);
      MPI_Type_free(&h);
      MPI_Type_commit(&t);
      MPI_Type_commit(&t);
      MPI_Isend(a, 2, t, peer, step, MPI_COMM_WORLD, &req);
      MPI_Type_free(&t);
      break;
    }
    }
    EXPECT(t == MPI_DATATYPE_NULL, "step %d: freed handle not null", step);
    n = shape_elems(k, step, idx);
    MPI_Recv(b, N, MPI_DOUBLE, peer, step, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    EXPECT(count == n, "step %d: %d doubles, expected %d", step, count, n);
    for (i = 0; i < n; ++i)
      EXPECT(b[i] == VAL(peer, step, idx[i]), "step %d: element %d = %g", step, i, b[i]);
    MPI_Wait(&req, MPI_STATUS_IGNORE);

    /* A shape that follows the step, built and freed the same way, received with the type. */
    MPI_Type_vector(1 + step % 5, 1, 3, MPI_DOUBLE, &step_t);
    MPI_Type_commit(&step_t);
    memset(b, 0, sizeof b);
    MPI_Irecv(b, 1, step_t, peer, STEPS + step, MPI_COMM_WORLD, &req);
    MPI_Send(a, 1, step_t, peer, STEPS + step, MPI_COMM_WORLD);
    MPI_Type_free(&step_t);
    MPI_Wait(&req, &st);
    n = shape_elems(4, step, idx);
    for (i = 0; i < N; ++i) {
      int hit = i % 3 == 0 && i / 3 < n;
      EXPECT(b[i] == (hit ? VAL(peer, step, i) : 0.0), "step %d: strided [%d] = %g", step, i, b[i]);
    }
  }
  if (rank == 0) printf("time loop: %d steps, %d errors\n", STEPS, errs);

  /* Empty messages. */
  MPI_Type_contiguous(0, MPI_DOUBLE, &empty);
  MPI_Type_commit(&empty);
  MPI_Type_vector(3, 0, 5, MPI_DOUBLE, &hollow);
  MPI_Type_commit(&hollow);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  for (i = 0; i < N; ++i) a[i] = VAL(rank, 0, i);
  {
    MPI_Count sz, lb, ext;
    MPI_Type_size_x(empty, &sz);
    MPI_Type_get_extent_x(empty, &lb, &ext);
    if (rank == 0) printf("empty: size %lld lb %lld extent %lld\n", (long long)sz, (long long)lb, (long long)ext);
    MPI_Type_size_x(hollow, &sz);
    MPI_Type_get_extent_x(hollow, &lb, &ext);
    if (rank == 0) printf("hollow: size %lld lb %lld extent %lld\n", (long long)sz, (long long)lb, (long long)ext);
  }
  for (i = 0; i < N; ++i) b[i] = -1.0;
  MPI_Sendrecv(a, 5, empty, peer, 1, b, 7, empty, peer, 1, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, empty, &count);
  MPI_Get_elements_x(&st, MPI_DOUBLE, &elems);
  if (rank == 0) printf("contiguous(0): count %d elements %lld\n", count, (long long)elems);
  MPI_Sendrecv(a, 4, hollow, peer, 2, b, 4, hollow, peer, 2, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_BYTE, &count);
  EXPECT(count == 0, "hollow: %d bytes", count);
  MPI_Sendrecv(a, 0, col, peer, 3, b, 2, col, peer, 3, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, col, &count);
  MPI_Get_elements_x(&st, col, &elems);
  if (rank == 0) printf("count 0 of a vector: count %d elements %lld\n", count, (long long)elems);
  for (i = 0; i < N; ++i) EXPECT(b[i] == -1.0, "empty messages wrote b[%d] = %g", i, b[i]);

  /* Fewer elements than posted: 1 of col into a receive of 3. */
  MPI_Sendrecv(a, 1, col, peer, 4, b, 3, col, peer, 4, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, col, &count);
  MPI_Get_elements_x(&st, col, &elems);
  if (rank == 0) printf("short message: count %d elements %lld\n", count, (long long)elems);
  for (i = 0; i < N; ++i)
    EXPECT(b[i] == (i % 8 == 0 && i < 32 ? VAL(peer, 0, i) : -1.0), "short [%d] = %g", i, b[i]);

  /* Part of an element: 6 doubles into a receive of 2 columns (4 doubles each). */
  for (i = 0; i < N; ++i) b[i] = -1.0;
  if (rank < peer) {
    MPI_Send(a, 6, MPI_DOUBLE, peer, 5, MPI_COMM_WORLD);
    MPI_Recv(b, 2, col, peer, 6, MPI_COMM_WORLD, &st);
  } else {
    MPI_Probe(peer, 5, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, col, &count);
    EXPECT(count == MPI_UNDEFINED, "probe count %d", count);
    MPI_Get_elements_x(&st, col, &elems);
    EXPECT(elems == 6, "probe elements %lld", (long long)elems);
    MPI_Recv(b, 2, col, peer, 5, MPI_COMM_WORLD, &st);
    MPI_Send(a, 6, MPI_DOUBLE, peer, 6, MPI_COMM_WORLD);
  }
  MPI_Get_count(&st, col, &count);
  MPI_Get_elements_x(&st, col, &elems);
  if (rank == 0)
    printf("part of an element: count %s elements %lld\n",
           count == MPI_UNDEFINED ? "MPI_UNDEFINED" : "defined", (long long)elems);
  for (i = 0; i < N; ++i) {
    double want = -1.0;
    if (i % 8 == 0 && i < 32) want = VAL(peer, 0, i / 8); /* the first column, whole */
    else if (i == 25 || i == 33) want = VAL(peer, 0, 4 + (i - 25) / 8); /* 2 of the second's 4 */
    EXPECT(b[i] == want, "partial [%d] = %g, expected %g", i, b[i], want);
  }
  /* Pack size of nothing, and of empty types. */
  {
    int s0, s1, s2;
    MPI_Pack_size(0, col, MPI_COMM_WORLD, &s0);
    MPI_Pack_size(9, empty, MPI_COMM_WORLD, &s1);
    MPI_Pack_size(2, col, MPI_COMM_WORLD, &s2);
    EXPECT(s0 == 0 && s1 == 0 && s2 >= 64, "pack sizes %d %d %d", s0, s1, s2);
  }
  /* Persistent requests outlive their type: freed right after MPI_Send_init / MPI_Recv_init,
   * then ten rounds of MPI_Startall / MPI_Waitall with new values each round. */
  {
    MPI_Datatype ps, pr;
    MPI_Request pq[2];
    int round, hits = 0;
    MPI_Type_vector(5, 2, 6, MPI_DOUBLE, &ps);
    MPI_Type_commit(&ps);
    MPI_Type_dup(ps, &pr);
    MPI_Type_commit(&pr);
    MPI_Recv_init(b, 1, pr, peer, 7, MPI_COMM_WORLD, &pq[0]);
    MPI_Send_init(a, 1, ps, peer, 7, MPI_COMM_WORLD, &pq[1]);
    MPI_Type_free(&ps);
    MPI_Type_free(&pr);
    for (round = 0; round < 10; ++round) {
      for (i = 0; i < N; ++i) { a[i] = VAL(rank, round, i); b[i] = -1.0; }
      MPI_Startall(2, pq);
      MPI_Waitall(2, pq, MPI_STATUSES_IGNORE);
      for (i = 0; i < N; ++i) {
        int in = i < 30 && i % 6 < 2;
        EXPECT(b[i] == (in ? VAL(peer, round, i) : -1.0), "persistent round %d [%d] = %g", round, i, b[i]);
        hits += in;
      }
    }
    MPI_Request_free(&pq[0]);
    MPI_Request_free(&pq[1]);
    if (rank == 0) printf("persistent with freed types: %d rounds, %d elements\n", round, hits);
  }
  MPI_Type_free(&empty);
  MPI_Type_free(&hollow);
  MPI_Type_free(&col);
  MPI_Initialized(&flag);

  {
    int all;
    MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("errors %d\n", all);
    MPI_Finalize();
    return all ? 1 : 0;
  }
}
