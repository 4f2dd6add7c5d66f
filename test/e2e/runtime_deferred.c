/* runtime_deferred: deferred sends (tempi_Isend_deferred / tempi_Issend_deferred) and batched
 * completion on the fake device layer, every byte checked against what the sender wrote.
 *
 * Rank 0 sends, rank 1 receives (2 ranks). Checked:
 *  - a burst of NSEND deferred device sends of a vector type, all with ONE tag, arrives in the
 *    order the sends were made (MPI's non-overtaking rule survives the deferral), each message
 *    byte for byte;
 *  - the burst's packs ran as one fused launch (kernel launches counted by the fake device) and
 *    the receiver's Waitall unpacked its NSEND receives as one launch;
 *  - the requests are real MPI requests: after Waitall every one is MPI_REQUEST_NULL; Test and
 *    Waitany complete them one by one; a host-buffer deferred send keeps its place in the order;
 *    a deferred request freed with MPI_Request_free still delivers; Issend deferred completes;
 *  - every staging buffer is released at MPI_Finalize.
 * On a real GPU (test/e2e/runtime_gpu) the same program runs over CUDA memory; launch counts and
 * outstanding staging are not observable there and those checks are skipped.
 *   runtime_deferred            the checks above
 *   runtime_deferred errors     with TEMPI_FAKE_FAIL=pack: the flush fails, the error comes back
 *                               from the flushing call and from the request (no hang: the rank
 *                               sends to itself and cancels its own receive)
 */
#include "runtime_fake_device.h"

#include <tempi/tempi.h>

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_check.h"

enum { NSEND = 24, ROWS = 16, COLS = 8, TAG = 7 };

/* Element (msg, row) of the column each message carries. */
static double value(int msg, int row) { return msg * 1000.0 + row; }

/* A ROWS x COLS matrix on the device whose column 0 holds message `msg`. */
static double *deviceMatrix(int msg) {
  double host[ROWS * COLS];
  for (int r = 0; r < ROWS; ++r)
    for (int c = 0; c < COLS; ++c) host[r * COLS + c] = c == 0 ? value(msg, r) : -1.0;
  double *dev = fake_device_alloc(sizeof host);
  fake_device_memcpy(dev, host, sizeof host);
  return dev;
}

/* Column 0 of a device matrix equals message `msg`, and the other columns are untouched. */
static void checkColumn(const double *dev, int msg, double otherColumns, const char *what) {
  double host[ROWS * COLS];
  fake_device_memcpy(host, dev, sizeof host);
  for (int r = 0; r < ROWS; ++r) {
    CHECK(host[r * COLS] == value(msg, r), "%s: message %d row %d holds %g", what, msg, r,
          host[r * COLS]);
    for (int c = 1; c < COLS; ++c)
      CHECK(host[r * COLS + c] == otherColumns, "%s: message %d row %d column %d was written",
            what, msg, r, c);
  }
}

/* With the burst arena (TEMPI_BURST_ARENA, on by default) and the staged method (auto or forced),
 * a burst's staging copies merge into one: observable on the fake device (-1 on a real GPU). */
static int expectOneCopy(void) {
  const char *m = getenv("TEMPI_METHOD"), *a = getenv("TEMPI_BURST_ARENA");
  if (a && a[0] == '0') return 0;
  return fake_device_copies() >= 0 && (!m || !strcmp(m, "auto") || !strcmp(m, "staged"));
}

static void burst(MPI_Datatype column) {
  double *mats[NSEND];
  MPI_Request req[NSEND];
  if (rank == 0) {
    for (int i = 0; i < NSEND; ++i) mats[i] = deviceMatrix(i);
    /* Wait until every receive is posted: a message that arrived earlier would complete its
     * MPI_Irecv at once and be unpacked there, outside the receiver's batch. */
    MPI_Barrier(MPI_COMM_WORLD);
    const long before = fake_device_kernel_launches();
    for (int i = 0; i < NSEND; ++i)
      CHECK(tempi_Isend_deferred(mats[i], 1, column, 1, TAG, MPI_COMM_WORLD, &req[i], NULL) ==
                MPI_SUCCESS, "deferred send %d", i);
    if (before >= 0) /* -1: real GPU, launches not observable */
      CHECK(fake_device_kernel_launches() == before, "%ld packs ran before the flush",
            fake_device_kernel_launches() - before);
    const long copiesBefore = fake_device_copies();
    CHECK(MPI_Waitall(NSEND, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS, "sender Waitall");
    if (before >= 0)
      CHECK(fake_device_kernel_launches() - before == 1, "the burst took %ld pack launches",
            fake_device_kernel_launches() - before);
    if (expectOneCopy())
      CHECK(fake_device_copies() - copiesBefore == 1, "the burst's staging took %ld copies",
            fake_device_copies() - copiesBefore);
    for (int i = 0; i < NSEND; ++i)
      CHECK(req[i] == MPI_REQUEST_NULL, "request %d is not MPI_REQUEST_NULL after Waitall", i);
  } else {
    for (int i = 0; i < NSEND; ++i) {
      double zero[ROWS * COLS];
      memset(zero, 0, sizeof zero);
      mats[i] = fake_device_alloc(sizeof zero);
      fake_device_memcpy(mats[i], zero, sizeof zero);
      CHECK(MPI_Irecv(mats[i], 1, column, 0, TAG, MPI_COMM_WORLD, &req[i]) == MPI_SUCCESS,
            "Irecv %d", i);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted before the sender sends */
    const long before = fake_device_kernel_launches(), copiesBefore = fake_device_copies();
    MPI_Status st[NSEND];
    CHECK(MPI_Waitall(NSEND, req, st) == MPI_SUCCESS, "receiver Waitall");
    if (before >= 0)
      CHECK(fake_device_kernel_launches() - before == 1, "the receives took %ld unpack launches",
            fake_device_kernel_launches() - before);
    if (expectOneCopy())
      CHECK(fake_device_copies() - copiesBefore == 1, "the receives' staging took %ld copies",
            fake_device_copies() - copiesBefore);
    for (int i = 0; i < NSEND; ++i) {
      int n = -1;
      MPI_Get_count(&st[i], column, &n);
      CHECK(n == 1 && st[i].MPI_SOURCE == 0 && st[i].MPI_TAG == TAG, "status %d: count %d", i, n);
      checkColumn(mats[i], i, 0.0, "burst"); /* message i lands in receive i: order kept */
    }
  }
  for (int i = 0; i < NSEND; ++i) {
    if (rank == 0) checkColumn(mats[i], i, -1.0, "send buffer");
    fake_device_free(mats[i]);
  }
}

/* Deferred device, deferred host, deferred Issend, one freed request; completed by Test and
 * Waitany. Receiver checks order with blocking receives. */
static void mixed(MPI_Datatype column) {
  enum { N = 4 };
  if (rank == 0) {
    double *a = deviceMatrix(100), *c = deviceMatrix(102), *d = deviceMatrix(103);
    double hostCol[ROWS * COLS];
    for (int r = 0; r < ROWS; ++r)
      for (int k = 0; k < COLS; ++k) hostCol[r * COLS + k] = k == 0 ? value(101, r) : -1.0;
    MPI_Request req[N];
    CHECK(tempi_Isend_deferred(a, 1, column, 1, TAG, MPI_COMM_WORLD, &req[0], NULL) == MPI_SUCCESS, "a");
    CHECK(tempi_Isend_deferred(hostCol, 1, column, 1, TAG, MPI_COMM_WORLD, &req[1], NULL) == MPI_SUCCESS, "host");
    CHECK(tempi_Issend_deferred(c, 1, column, 1, TAG, MPI_COMM_WORLD, &req[2], NULL) == MPI_SUCCESS, "c");
    CHECK(tempi_Isend_deferred(d, 1, column, 1, TAG, MPI_COMM_WORLD, &req[3], NULL) == MPI_SUCCESS, "d");
    CHECK(MPI_Request_free(&req[3]) == MPI_SUCCESS && req[3] == MPI_REQUEST_NULL, "free d");
    int flag = 0;
    while (!flag) CHECK(MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS, "Test");
    CHECK(req[0] == MPI_REQUEST_NULL, "Test left the request");
    for (int k = 0; k < 2; ++k) {
      int index = -1;
      CHECK(MPI_Waitany(N, req, &index, MPI_STATUS_IGNORE) == MPI_SUCCESS, "Waitany");
      CHECK(index == 1 || index == 2, "Waitany index %d", index);
      if (index >= 0 && index < N) CHECK(req[index] == MPI_REQUEST_NULL, "Waitany left %d", index);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the receiver has everything, the freed send included */
    fake_device_free(a);
    fake_device_free(c);
    fake_device_free(d);
  } else {
    for (int i = 0; i < N; ++i) {
      double *m = fake_device_alloc(sizeof(double) * ROWS * COLS);
      double zero[ROWS * COLS];
      memset(zero, 0, sizeof zero);
      fake_device_memcpy(m, zero, sizeof zero);
      CHECK(MPI_Recv(m, 1, column, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS, "Recv");
      checkColumn(m, 100 + i, 0.0, "mixed");
      fake_device_free(m);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

/* With TEMPI_FAKE_FAIL=pack: the flush fails; the flushing call and the request report it. */
static void errors(MPI_Datatype column) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  double *a = deviceMatrix(1);
  double got[ROWS * COLS];
  MPI_Request recv, send;
  MPI_Irecv(got, ROWS * COLS, MPI_DOUBLE, rank, TAG, MPI_COMM_WORLD, &recv);
  CHECK(tempi_Isend_deferred(a, 1, column, rank, TAG, MPI_COMM_WORLD, &send, NULL) == MPI_SUCCESS,
        "a deferred send only enqueues");
  int rc = MPI_Wait(&send, MPI_STATUS_IGNORE); /* flushes: the pack fails */
  CHECK(rc != MPI_SUCCESS, "the failed flush was not reported");
  if (send != MPI_REQUEST_NULL) {
    rc = MPI_Wait(&send, MPI_STATUS_IGNORE);
    CHECK(rc != MPI_SUCCESS, "the failed request completed without an error");
    if (send != MPI_REQUEST_NULL) MPI_Request_free(&send);
  }
  MPI_Cancel(&recv); /* nothing was sent: the receive must not wait forever */
  MPI_Wait(&recv, MPI_STATUS_IGNORE);
  fake_device_free(a);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Datatype column;
  MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  if (argc > 1 && !strcmp(argv[1], "errors")) {
    errors(column);
  } else {
    burst(column);
    mixed(column);
  }
  MPI_Type_free(&column);
  MPI_Finalize();
  CHECK(fake_device_runtime_outstanding() == 0, "%ld staging buffers not released",
        fake_device_runtime_outstanding());
  if (failures) fprintf(stderr, "rank %d: %d checks failed\n", rank, failures);
  else if (rank == 0) printf("runtime_deferred: all checks passed\n");
  return failures ? 1 : 0;
}
