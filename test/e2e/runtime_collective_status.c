/* Regression test: completing a host-mirrored nonblocking collective must not read the status.
 *
 * For a nonblocking collective MPICH leaves the status it is given as it was. libtempi read the
 * "cancelled" bit of that status to decide whether to copy the result back to the device buffer,
 * so garbage in the status (here: a status the program marked cancelled before the Wait) lost the
 * result. Fixed by zeroing statuses before the MPI fills them (Requests.cpp, cleared()).
 * 2 ranks, fake device layer: MPI_Ibcast and MPI_Iallreduce into device buffers, completed by
 * MPI_Wait, MPI_Waitall and MPI_Test with statuses pre-marked cancelled. */
#include "runtime_fake_device.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N = 64 };
static int rank, failures;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "rank %d: %s:%d: ", rank, __FILE__, __LINE__);                              \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fprintf(stderr, "\n");                                                                       \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

static void markCancelled(MPI_Status *st) {
  memset(st, 0xff, sizeof *st); /* garbage, as an uninitialized status may hold */
  MPI_Status_set_cancelled(st, 1);
}

/* A device buffer of N ints, filled with v (rank 0) or -1. */
static int *deviceInts(int v) {
  int host[N];
  for (int i = 0; i < N; ++i) host[i] = v + i;
  int *d = fake_device_alloc(sizeof host);
  fake_device_memcpy(d, host, sizeof host);
  return d;
}

static void expect(const int *d, int v, const char *what) {
  int host[N];
  fake_device_memcpy(host, d, sizeof host);
  for (int i = 0; i < N; ++i)
    if (host[i] != v + i) {
      CHECK(0, "%s: element %d is %d, expected %d", what, i, host[i], v + i);
      return;
    }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Status st, sts[2];

  /* MPI_Ibcast + MPI_Wait */
  int *b = deviceInts(rank == 0 ? 100 : -1000);
  MPI_Request q;
  CHECK(MPI_Ibcast(b, N, MPI_INT, 0, MPI_COMM_WORLD, &q) == MPI_SUCCESS, "Ibcast");
  markCancelled(&st);
  CHECK(MPI_Wait(&q, &st) == MPI_SUCCESS, "Wait");
  expect(b, 100, "Ibcast + Wait");

  /* MPI_Iallreduce (sum of rank+1 ... over 2 ranks) and MPI_Ibcast + MPI_Waitall */
  int *s = deviceInts(rank + 1), *r = deviceInts(0), *b2 = deviceInts(rank == 0 ? 7 : 0);
  MPI_Request qs[2];
  CHECK(MPI_Iallreduce(s, r, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &qs[0]) == MPI_SUCCESS,
        "Iallreduce");
  CHECK(MPI_Ibcast(b2, N, MPI_INT, 0, MPI_COMM_WORLD, &qs[1]) == MPI_SUCCESS, "Ibcast 2");
  markCancelled(&sts[0]);
  markCancelled(&sts[1]);
  CHECK(MPI_Waitall(2, qs, sts) == MPI_SUCCESS, "Waitall");
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  { /* element i: sum over ranks k of (k + 1 + i) */
    int host[N];
    fake_device_memcpy(host, r, sizeof host);
    for (int i = 0; i < N; ++i) {
      const int want = size * (size + 1) / 2 + size * i;
      if (host[i] != want) {
        CHECK(0, "Iallreduce + Waitall: element %d is %d, expected %d", i, host[i], want);
        break;
      }
    }
  }
  expect(b2, 7, "Ibcast + Waitall");

  /* MPI_Ibcast + MPI_Test until done */
  int *b3 = deviceInts(rank == 0 ? 55 : 0);
  CHECK(MPI_Ibcast(b3, N, MPI_INT, 0, MPI_COMM_WORLD, &q) == MPI_SUCCESS, "Ibcast 3");
  int flag = 0;
  while (!flag) {
    markCancelled(&st);
    CHECK(MPI_Test(&q, &flag, &st) == MPI_SUCCESS, "Test");
  }
  expect(b3, 55, "Ibcast + Test");

  fake_device_free(b);
  fake_device_free(s);
  fake_device_free(r);
  fake_device_free(b2);
  fake_device_free(b3);
  const long left = fake_device_runtime_outstanding();
  CHECK(left == 0, "%ld staging allocations left", left);
  if (rank == 0) printf("runtime_collective_status: %s\n", failures ? "FAILED" : "all checks passed");
  MPI_Finalize();
  return failures ? 1 : 0;
}
