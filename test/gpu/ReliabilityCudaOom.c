/* ReliabilityCudaOom: a real CUDA failure in the middle of a send or receive (issue 8).
 *
 * The failure is genuine, not simulated: one rank takes nearly all free GPU memory with
 * cudaMalloc (the "hog"), then sends or receives a 32 MiB strided device type with the staged
 * method (TEMPI_METHOD=staged), whose device staging buffer cudaMalloc cannot give. With
 * MPI_ERRORS_RETURN on the communicator the call must return MPI_ERR_NO_MEM (libtempi reports
 * through the communicator's error handler), send or consume nothing, and not hang. The rank then
 * frees the hog and repeats the call, which must succeed with every byte as MPI_Pack on the host
 * packs it. Three steps: blocking send, blocking receive, nonblocking send. At the end the GPU's
 * free memory must be back where it was before the first step (TEMPI_POOL_BYTES=0: the staging
 * pools keep nothing idle), within 8 MiB: a staging buffer leaked on an error path shows there.
 *
 *   mpiexec -n 2 tempi-gpu-reliability-cuda-oom          (env TEMPI_METHOD=staged TEMPI_POOL_BYTES=0)
 * Exit 77 without a GPU; both ranks may share one GPU.
 */
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_check.h" /* CHECK, rank, failures */
#include "gpu/ReliabilityDevice.h"

enum { BLOCKS = 4 << 20, BLOCK = 8, STRIDE = 16, MAX_HOG = 4096 };
static const size_t kPacked = (size_t)BLOCKS * BLOCK;        /* 32 MiB */
static const size_t kExtent = (size_t)BLOCKS * STRIDE;       /* 64 MiB */
static const size_t kLeakSlack = (size_t)8 << 20;

static void *hog[MAX_HOG];
static int nhog;

/* Takes GPU memory until less than `leave` bytes are free (halving the chunk when cudaMalloc
 * refuses it). */
static void hogAllBut(size_t leave) {
  size_t chunk = (size_t)1 << 30;
  while (nhog < MAX_HOG && chunk >= ((size_t)1 << 20)) {
    size_t f = freeBytes();
    if (f <= leave) break;
    size_t want = f - leave < chunk ? f - leave : chunk;
    void *p = NULL;
    if (cudaMalloc(&p, want) == cudaSuccess) hog[nhog++] = p;
    else {
      cudaGetLastError(); /* clear the refused allocation's error */
      chunk /= 2;
    }
  }
}
static void freeHog(void) {
  while (nhog > 0) CK(cudaFree(hog[--nhog]));
}

/* A device buffer of the type's extent filled with pattern(seed). */
static void *filledDevice(int seed) {
  void *d = NULL;
  CK(cudaMalloc(&d, kExtent));
  fillDevice(d, kExtent, seed);
  return d;
}

static int errorClass(int rc) {
  int cls = rc;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
  return cls;
}

static void expectNoMem(int rc, const char *step) {
  char msg[MPI_MAX_ERROR_STRING] = "";
  int len = 0;
  if (rc != MPI_SUCCESS) MPI_Error_string(rc, msg, &len);
  CHECK(errorClass(rc) == MPI_ERR_NO_MEM, "%s with the GPU full: class %d (%s), expected MPI_ERR_NO_MEM",
        step, errorClass(rc), msg);
  printf("rank %d: %s with the GPU full returned class %d: %s\n", rank, step, errorClass(rc), msg);
}

int main(int argc, char **argv) {
  startTwoRanks(&argc, &argv, "tempi-gpu-reliability-cuda-oom");
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  MPI_Datatype vec;
  MPI_Type_vector(BLOCKS, BLOCK, STRIDE, MPI_BYTE, &vec);
  MPI_Type_commit(&vec);
  const int peer = 1 - rank;
  void *buf = rank == 0 ? filledDevice(0) : NULL;
  if (rank == 1) CK(cudaMalloc(&buf, kExtent));

  /* Warm-up: one exchange each way loads the kernels and the MPI's buffers before the memory
   * baseline is taken. */
  if (rank == 0) CHECK(MPI_Send(buf, 1, vec, peer, 0, comm) == MPI_SUCCESS, "warm-up send");
  else CHECK(MPI_Recv(buf, 1, vec, peer, 0, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS, "warm-up recv");
  CK(cudaDeviceSynchronize());
  MPI_Barrier(MPI_COMM_WORLD);
  const size_t baseline = freeBytes();
  MPI_Barrier(MPI_COMM_WORLD);

  /* 1. Blocking send fails on rank 0, then goes through; rank 1's receive is posted first. */
  if (rank == 1) {
    receiveOne(buf, vec, kExtent, kPacked, peer, 1, 0, comm, "step 1 (blocking send)");
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    hogAllBut(kPacked / 4);
    expectNoMem(MPI_Send(buf, 1, vec, peer, 1, comm), "MPI_Send");
    freeHog();
    CHECK(MPI_Send(buf, 1, vec, peer, 1, comm) == MPI_SUCCESS, "step 1: the send after the hog");
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* 2. Blocking receive fails on rank 1 and consumes nothing; the repeated receive gets the
   * message. Rank 0's Isend is staged before rank 1 takes the memory. */
  if (rank == 0) {
    MPI_Request r;
    CHECK(MPI_Isend(buf, 1, vec, peer, 2, comm, &r) == MPI_SUCCESS, "step 2 isend");
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS, "step 2 wait");
  } else {
    CK(cudaMemset(buf, 0, kExtent));
    CK(cudaDeviceSynchronize());
    MPI_Barrier(MPI_COMM_WORLD);
    hogAllBut(kPacked / 4);
    expectNoMem(MPI_Recv(buf, 1, vec, peer, 2, comm, MPI_STATUS_IGNORE), "MPI_Recv");
    freeHog();
    MPI_Status st;
    CHECK(MPI_Recv(buf, 1, vec, peer, 2, comm, &st) == MPI_SUCCESS, "step 2: the receive after the hog");
    CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == 2, "step 2: status source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
    expectReceived(buf, vec, kExtent, kPacked, 0, "step 2 (blocking receive)");
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* 3. Nonblocking send fails at MPI_Isend, then goes through. */
  if (rank == 1) {
    receiveOne(buf, vec, kExtent, kPacked, peer, 3, 0, comm, "step 3 (nonblocking send)");
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    hogAllBut(kPacked / 4);
    MPI_Request r = MPI_REQUEST_NULL;
    expectNoMem(MPI_Isend(buf, 1, vec, peer, 3, comm, &r), "MPI_Isend");
    freeHog();
    CHECK(MPI_Isend(buf, 1, vec, peer, 3, comm, &r) == MPI_SUCCESS, "step 3: the isend after the hog");
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS, "step 3 wait");
  }

  expectNothingLeft(comm, baseline, kLeakSlack, "before the failures");

  CK(cudaFree(buf));
  MPI_Type_free(&vec);
  MPI_Comm_free(&comm);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("tempi-gpu-reliability-cuda-oom: %s (%d failed checks)\n", all ? "FAILED" : "passed", all);
  MPI_Finalize();
  return all ? 1 : 0;
}
