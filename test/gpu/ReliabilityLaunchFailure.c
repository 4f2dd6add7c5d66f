/* ReliabilityLaunchFailure: a pack kernel launch that CUDA refuses in the middle of a send
 * (issue 8).
 *
 * Rank 0 sets TEMPI_TEST_FAIL_LAUNCH=2 after MPI_Init (libtempi reads it at its first launch):
 * its 2nd, 4th, ... pack launches are made with an empty grid, which the real driver refuses
 * (CUDA 13 reports cudaErrorInvalidValue). Rank 0 sends a 4 MiB strided device type to rank 1
 * with the staged method: a warm-up send (launch 1), then
 *   1. MPI_Send: launch 2 fails; the call must return an error, reported through the
 *      communicator's error handler (a counting handler here), and send nothing; the repeated
 *      MPI_Send (launch 3) delivers the message;
 *   2. MPI_Isend + MPI_Wait: launch 4 fails; exactly one of the two calls reports it, and the
 *      repeated pair (launch 5) delivers the message.
 * Rank 1 posts each receive before the send and must get exactly one message per step, every
 * byte as MPI_Pack on the host packs it; at the end no message is left unmatched and the GPU's
 * free memory is back within 8 MiB of the baseline taken after the warm-up (TEMPI_POOL_BYTES=0).
 *
 *   mpiexec -n 2 tempi-gpu-reliability-launch-failure   (env TEMPI_METHOD=staged TEMPI_POOL_BYTES=0)
 * Exit 77 without a GPU; both ranks may share one GPU.
 */
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_check.h" /* CHECK, rank, failures */
#include "gpu/ReliabilityDevice.h"

enum { BLOCKS = 512 << 10, BLOCK = 8, STRIDE = 16 };
static const size_t kPacked = (size_t)BLOCKS * BLOCK;  /* 4 MiB */
static const size_t kExtent = (size_t)BLOCKS * STRIDE; /* 8 MiB */
static const size_t kLeakSlack = (size_t)8 << 20;

static int handlerCalls, handlerLastCode;
static void countingHandler(MPI_Comm *comm, int *code, ...) {
  (void)comm;
  ++handlerCalls;
  handlerLastCode = *code;
}

static void expectFailure(int rc, int handlerBefore, const char *step) {
  char msg[MPI_MAX_ERROR_STRING] = "";
  int len = 0, cls = rc;
  if (rc != MPI_SUCCESS) {
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
  }
  CHECK(rc != MPI_SUCCESS, "%s with a refused launch returned MPI_SUCCESS", step);
  CHECK(handlerCalls == handlerBefore + 1 && handlerLastCode == rc,
        "%s: the communicator's error handler ran %d times (code %d), expected once with %d",
        step, handlerCalls - handlerBefore, handlerLastCode, rc);
  printf("rank %d: %s with a refused launch returned class %d: %s\n", rank, step, cls, msg);
}

int main(int argc, char **argv) {
  startTwoRanks(&argc, &argv, "tempi-gpu-reliability-launch-failure");
  if (rank == 0) setenv("TEMPI_TEST_FAIL_LAUNCH", "2", 1); /* before libtempi's first launch */
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Errhandler eh;
  MPI_Comm_create_errhandler(countingHandler, &eh);
  MPI_Comm_set_errhandler(comm, eh);
  MPI_Datatype vec;
  MPI_Type_vector(BLOCKS, BLOCK, STRIDE, MPI_BYTE, &vec);
  MPI_Type_commit(&vec);
  void *buf = NULL;
  CK(cudaMalloc(&buf, kExtent));
  if (rank == 0) fillDevice(buf, kExtent, 0);

  /* Warm-up (rank 0's launch 1), then the memory baseline. */
  if (rank == 0) CHECK(MPI_Send(buf, 1, vec, 1, 0, comm) == MPI_SUCCESS, "warm-up send");
  else CHECK(MPI_Recv(buf, 1, vec, 0, 0, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS, "warm-up recv");
  CK(cudaDeviceSynchronize());
  MPI_Barrier(MPI_COMM_WORLD);
  const size_t baseline = freeBytes();
  MPI_Barrier(MPI_COMM_WORLD);

  /* 1. Blocking send. */
  if (rank == 1) {
    receiveOne(buf, vec, kExtent, kPacked, 0, 1, 0, comm, "step 1 (blocking send)");
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    const int before = handlerCalls;
    expectFailure(MPI_Send(buf, 1, vec, 1, 1, comm), before, "MPI_Send");
    CHECK(MPI_Send(buf, 1, vec, 1, 1, comm) == MPI_SUCCESS, "step 1: the repeated send");
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* 2. Nonblocking send: the failure shows at MPI_Isend or at MPI_Wait, once. */
  if (rank == 1) {
    receiveOne(buf, vec, kExtent, kPacked, 0, 2, 0, comm, "step 2 (nonblocking send)");
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    const int before = handlerCalls;
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = MPI_Isend(buf, 1, vec, 1, 2, comm, &r);
    if (rc == MPI_SUCCESS) rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    else CHECK(r == MPI_REQUEST_NULL || MPI_Request_free(&r) == MPI_SUCCESS, "step 2: request");
    expectFailure(rc, before, "MPI_Isend/MPI_Wait");
    CHECK(MPI_Isend(buf, 1, vec, 1, 2, comm, &r) == MPI_SUCCESS, "step 2: the repeated isend");
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS, "step 2: the repeated wait");
  }

  expectNothingLeft(comm, baseline, kLeakSlack, "after the warm-up");
  if (rank == 0) CHECK(handlerCalls == 2, "the error handler ran %d times, expected 2", handlerCalls);
  MPI_Barrier(MPI_COMM_WORLD);

  CK(cudaFree(buf));
  MPI_Type_free(&vec);
  MPI_Comm_free(&comm);
  MPI_Errhandler_free(&eh);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("tempi-gpu-reliability-launch-failure: %s (%d failed checks)\n", all ? "FAILED" : "passed", all);
  MPI_Finalize();
  return all ? 1 : 0;
}
