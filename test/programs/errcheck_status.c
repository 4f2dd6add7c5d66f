/* Defensive error handling as production codes write it: MPI_ERRORS_RETURN on the communicator,
 * every call through CHECK(call) (records the failing line) or MPI_CALL(MPI_Fn, args...) (a
 * variadic macro that takes the function name and its arguments separately and prints #fn on
 * failure), datatype queries (MPI_Type_size, MPI_Type_get_extent, MPI_Type_get_true_extent),
 * MPI_Get_count / MPI_Get_elements on the statuses of derived-type receives, including a short
 * message (count MPI_UNDEFINED, elements partial) and a truncated nonblocking receive reported
 * through MPI_ERR_IN_STATUS, and erroneous calls with a derived type whose error classes must be
 * what the MPI says: a bad rank, a negative tag, a negative count, an uncommitted type.
 * Ranks work in pairs (0-1, 2-3); rank 0 prints its transcript and gathers the others' results.
 * NP: 4
 * CFLAGS: -std=c99 -Wall -Wextra */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NR 6
#define NC 5

static int failures = 0;
static int last_line = 0;

#define CHECK(call)                                                                                \
  do {                                                                                             \
    int check_rc_ = (call);                                                                        \
    if (check_rc_ != MPI_SUCCESS) {                                                                \
      ++failures;                                                                                  \
      last_line = __LINE__;                                                                        \
    }                                                                                              \
  } while (0)

#define MPI_CALL(fn, ...)                                                                          \
  do {                                                                                             \
    int call_rc_ = fn(__VA_ARGS__);                                                                \
    if (call_rc_ != MPI_SUCCESS) {                                                                 \
      char msg_[MPI_MAX_ERROR_STRING];                                                             \
      int len_, cls_;                                                                              \
      MPI_Error_class(call_rc_, &cls_);                                                            \
      MPI_Error_string(cls_, msg_, &len_);                                                         \
      printf("%s failed at line %d: %s\n", #fn, __LINE__, msg_);                                   \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

/* The error class of an expected failure, or -1 when the call succeeded. */
static int expect_fail(int rc) {
  int cls;
  if (rc == MPI_SUCCESS) return -1;
  MPI_Error_class(rc, &cls);
  return cls;
}

static const char *class_name(int cls) {
  if (cls == -1) return "success";
  if (cls == MPI_ERR_RANK) return "MPI_ERR_RANK";
  if (cls == MPI_ERR_TAG) return "MPI_ERR_TAG";
  if (cls == MPI_ERR_COUNT) return "MPI_ERR_COUNT";
  if (cls == MPI_ERR_TYPE) return "MPI_ERR_TYPE";
  if (cls == MPI_ERR_TRUNCATE) return "MPI_ERR_TRUNCATE";
  if (cls == MPI_ERR_IN_STATUS) return "MPI_ERR_IN_STATUS";
  if (cls == MPI_ERR_PENDING) return "MPI_ERR_PENDING";
  return "other";
}

int main(int argc, char **argv) {
  int rank, size, peer, i, j, n, elems, tsize, bad = 0;
  double a[NR][NC], b[NR][NC], line[NR * NC];
  MPI_Datatype col, cols2, inner, loose;
  MPI_Aint lb, extent, tlb, textent;
  MPI_Status st, sts[2];
  MPI_Request reqs[2];
  char out[1024] = "";
  size_t used = 0;

  MPI_Init(&argc, &argv);
  CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
  if (size % 2) MPI_Abort(MPI_COMM_WORLD, 1);
  peer = rank ^ 1;

  for (i = 0; i < NR; ++i)
    for (j = 0; j < NC; ++j) {
      a[i][j] = rank * 100 + i * NC + j;
      b[i][j] = -1;
    }

  /* Types, and what the MPI says about them. */
  CHECK(MPI_Type_vector(NR, 1, NC, MPI_DOUBLE, &col));
  CHECK(MPI_Type_commit(&col));
  CHECK(MPI_Type_vector(NR, 2, NC, MPI_DOUBLE, &cols2));
  CHECK(MPI_Type_commit(&cols2));
  CHECK(MPI_Type_vector(2, 2, NC, MPI_DOUBLE, &inner));
  CHECK(MPI_Type_create_resized(inner, -(MPI_Aint)sizeof(double), 4 * (MPI_Aint)sizeof(double), &loose));
  CHECK(MPI_Type_commit(&loose));
  CHECK(MPI_Type_size(cols2, &tsize));
  CHECK(MPI_Type_get_extent(cols2, &lb, &extent));
  CHECK(MPI_Type_get_true_extent(loose, &tlb, &textent));
  used += (size_t)snprintf(out + used, sizeof out - used, "cols2 size %d extent %ld lb %ld; loose true lb %ld true extent %ld\n",
                           tsize, (long)extent, (long)lb, (long)tlb, (long)textent);
  CHECK(MPI_Type_get_extent(loose, &lb, &extent));
  used += (size_t)snprintf(out + used, sizeof out - used, "loose lb %ld extent %ld\n", (long)lb, (long)extent);

  /* 1. A column, both ways, through the variadic wrapper; count 1 on the status. */
  MPI_CALL(MPI_Sendrecv, &a[0][1], 1, col, peer, 1, &b[0][3], 1, col, peer, 1, MPI_COMM_WORLD, &st);
  CHECK(MPI_Get_count(&st, col, &n));
  CHECK(MPI_Get_elements(&st, col, &elems));
  for (i = 0; i < NR; ++i)
    if (b[i][3] != peer * 100 + i * NC + 1) ++bad;
  used += (size_t)snprintf(out + used, sizeof out - used, "column: count %d elements %d\n", n, elems);

  /* 2. A short message: 7 doubles into two columns (12 doubles): count undefined, 7 elements. */
  if (rank % 2 == 0) {
    for (i = 0; i < NR * NC; ++i) line[i] = 1000 + i;
    CHECK(MPI_Send(line, 7, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD));
    CHECK(MPI_Recv(b, 1, cols2, peer, 3, MPI_COMM_WORLD, &st));
  } else {
    CHECK(MPI_Recv(b, 1, cols2, peer, 2, MPI_COMM_WORLD, &st));
    for (i = 0; i < NR * NC; ++i) line[i] = 2000 + i;
    CHECK(MPI_Send(line, 7, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD));
  }
  CHECK(MPI_Get_count(&st, cols2, &n));
  CHECK(MPI_Get_elements(&st, cols2, &elems));
  used += (size_t)snprintf(out + used, sizeof out - used, "short: count %s elements %d\n",
                           n == MPI_UNDEFINED ? "MPI_UNDEFINED" : "defined", elems);
  {
    double base = rank % 2 == 0 ? 2000 : 1000;
    /* rows 0..2 get columns 0,1; row 3 gets column 0 only */
    if (b[0][0] != base || b[0][1] != base + 1 || b[3][0] != base + 6 || b[3][1] != -1) ++bad;
  }

  /* 3. The resized type with a negative lower bound (4 elements of a 2 x 2 block). */
  for (i = 0; i < NR; ++i)
    for (j = 0; j < NC; ++j) b[i][j] = -1;
  MPI_CALL(MPI_Sendrecv, &a[0][1], 1, loose, peer, 4, &b[0][1], 1, loose, peer, 4, MPI_COMM_WORLD,
           &st);
  CHECK(MPI_Get_elements(&st, loose, &elems));
  if (elems != 4 || b[0][1] != peer * 100 + 1 || b[1][2] != peer * 100 + NC + 2 || b[0][0] != -1) ++bad;

  /* 4. A truncated nonblocking receive: the peer sends two columns, we post one. */
  reqs[0] = MPI_REQUEST_NULL;
  reqs[1] = MPI_REQUEST_NULL;
  {
    int rc, cls0, cls1;
    CHECK(MPI_Irecv(b, 1, col, peer, 5, MPI_COMM_WORLD, &reqs[0]));
    CHECK(MPI_Isend(a, 1, cols2, peer, 5, MPI_COMM_WORLD, &reqs[1]));
    sts[0].MPI_ERROR = sts[1].MPI_ERROR = MPI_SUCCESS;
    rc = MPI_Waitall(2, reqs, sts);
    cls0 = expect_fail(sts[0].MPI_ERROR);
    cls1 = expect_fail(sts[1].MPI_ERROR);
    used += (size_t)snprintf(out + used, sizeof out - used, "truncated waitall: %s, recv %s, send %s\n",
                             class_name(expect_fail(rc)), class_name(cls0), class_name(cls1));
    /* A request reported MPI_ERR_PENDING is still active: complete it. */
    if (rc == MPI_ERR_IN_STATUS && sts[1].MPI_ERROR == MPI_ERR_PENDING) {
      rc = MPI_Wait(&reqs[1], &sts[1]);
      used += (size_t)snprintf(out + used, sizeof out - used, "pending send: wait %s, request %s\n",
                               class_name(expect_fail(rc)),
                               reqs[1] == MPI_REQUEST_NULL ? "freed" : "still active");
    }
  }

  /* 5. Erroneous calls with a derived type. */
  {
    int c1, c2, c3, c4;
    MPI_Datatype never;
    c1 = expect_fail(MPI_Send(a, 1, col, size + 3, 6, MPI_COMM_WORLD));
    c2 = expect_fail(MPI_Send(a, 1, col, peer, -7, MPI_COMM_WORLD));
    c3 = expect_fail(MPI_Send(a, -1, col, peer, 6, MPI_COMM_WORLD));
    CHECK(MPI_Type_vector(2, 1, 3, MPI_DOUBLE, &never));
    c4 = expect_fail(MPI_Send(a, 1, never, peer, 6, MPI_COMM_WORLD));
    CHECK(MPI_Type_free(&never));
    used += (size_t)snprintf(out + used, sizeof out - used, "bad rank: %s; bad tag: %s; bad count: %s; uncommitted: %s\n",
                             class_name(c1), class_name(c2), class_name(c3), class_name(c4));
  }

  /* 6. Nothing should be pending: an Iprobe finds no message. */
  {
    int flag = 1;
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    if (flag) ++bad;
  }

  CHECK(MPI_Type_free(&col));
  CHECK(MPI_Type_free(&cols2));
  CHECK(MPI_Type_free(&inner));
  CHECK(MPI_Type_free(&loose));

  /* Transcripts: rank 0 prints its own, then every rank's counters. */
  {
    int mine[3] = {bad, failures, last_line}, *all = NULL, r;
    if (rank == 0) all = malloc(3 * (size_t)size * sizeof *all);
    MPI_CALL(MPI_Gather, mine, 3, MPI_INT, all, 3, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      fputs(out, stdout);
      for (r = 0; r < size; ++r)
        printf("rank %d: %d wrong values, %d failed checks (last at line %d)\n", r, all[3 * r],
               all[3 * r + 1], all[3 * r + 2]);
      for (r = 0; r < size; ++r)
        if (all[3 * r]) bad = 1;
      printf("%s\n", bad ? "FAILED" : "OK");
      free(all);
    }
  }
  MPI_Finalize();
  return bad ? 1 : 0;
}
