/* What the GPU reliability tests that make a CUDA call fail while one strided device type moves
 * between two ranks share (ReliabilityCudaOom.c, ReliabilityLaunchFailure.c): their start, a CUDA
 * check that aborts every rank, the GPU's free memory, the byte pattern a sender fills, the
 * receiving side of one step (checked against the MPI's own MPI_Pack/MPI_Unpack of the pattern on
 * the host), and the final check that nothing was left over. Include after e2e_check.h (rank,
 * CHECK). */
#ifndef TEMPI_TEST_RELIABILITY_DEVICE_H
#define TEMPI_TEST_RELIABILITY_DEVICE_H

#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(call)                                                                                  \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      fprintf(stderr, "rank %d: %s:%d: %s: %s\n", rank, __FILE__, __LINE__, #call,                \
              cudaGetErrorString(e_));                                                            \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                               \
    }                                                                                             \
  } while (0)

static size_t freeBytes(void) {
  size_t f = 0, t = 0;
  CK(cudaMemGetInfo(&f, &t));
  return f;
}

static unsigned char pattern(size_t i, int seed) { return (unsigned char)(i * 131 + seed * 17 + 5); }

/* Fills `extent` bytes of device memory at d with pattern(seed). */
static void fillDevice(void *d, size_t extent, int seed) {
  unsigned char *h = malloc(extent);
  for (size_t i = 0; i < extent; ++i) h[i] = pattern(i, seed);
  CK(cudaMemcpy(d, h, extent, cudaMemcpyHostToDevice));
  free(h);
}

/* The received device buffer (`extent` bytes, cleared before the receive) must hold, at the
 * type's blocks, what MPI_Pack of pattern(seed) packs (`packed` bytes), and zeros in the gaps. */
static void expectReceived(const void *d, MPI_Datatype t, size_t extent, size_t packed, int seed,
                           const char *step) {
  unsigned char *src = malloc(extent), *buf = malloc(packed), *want = calloc(extent, 1),
                *got = malloc(extent);
  for (size_t i = 0; i < extent; ++i) src[i] = pattern(i, seed);
  int pos = 0;
  MPI_Pack(src, 1, t, buf, (int)packed, &pos, MPI_COMM_SELF);
  pos = 0;
  MPI_Unpack(buf, (int)packed, &pos, want, 1, t, MPI_COMM_SELF);
  CK(cudaMemcpy(got, d, extent, cudaMemcpyDeviceToHost));
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < extent; ++i)
    if (got[i] != want[i] && bad++ == 0) first = i;
  CHECK(bad == 0, "%s: %zu of %zu bytes differ from MPI_Pack/MPI_Unpack on the host (first at %zu)",
        step, bad, extent, first);
  free(src); free(buf); free(want); free(got);
}

/* Exits 77 (skipped) without a GPU; starts MPI, requires 2 ranks (aborts otherwise), sets `rank`
 * and gives each rank a GPU (both may share one). */
static void startTwoRanks(int *argc, char ***argv, const char *program) {
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    printf("%s: SKIP: no usable CUDA device\n", program);
    exit(77);
  }
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "run with 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  CK(cudaSetDevice(rank % ndev));
}

/* The receiving side of one step: a receive from `peer` into the cleared device buffer, posted
 * before the barrier after which the peer makes its call fail and sends again; it must get
 * exactly one element, every byte as MPI_Pack packs pattern(seed). */
static void receiveOne(void *buf, MPI_Datatype t, size_t extent, size_t packed, int peer, int tag,
                       int seed, MPI_Comm comm, const char *step) {
  CK(cudaMemset(buf, 0, extent));
  CK(cudaDeviceSynchronize());
  MPI_Request r;
  CHECK(MPI_Irecv(buf, 1, t, peer, tag, comm, &r) == MPI_SUCCESS, "%s: irecv", step);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Status st;
  CHECK(MPI_Wait(&r, &st) == MPI_SUCCESS, "%s: wait", step);
  int n = -1;
  MPI_Get_count(&st, t, &n);
  CHECK(n == 1, "%s: count %d, expected 1", step, n);
  expectReceived(buf, t, extent, packed, seed, step);
}

/* Nothing left over at the end (collective): no message unmatched on comm (a failed call sent
 * nothing), and the GPU's free memory within `slack` of `baseline`, taken `since` (a staging
 * buffer leaked on an error path shows there). Under compute-sanitizer (scripts/gpu-sanitize sets
 * TEMPI_UNDER_SANITIZER=1) the tool keeps shadow memory for what the tests allocate (of
 * cuda-oom's hog, initcheck keeps about a third), so free memory says nothing about libtempi
 * there and is not compared. */
static void expectNothingLeft(MPI_Comm comm, size_t baseline, size_t slack, const char *since) {
  MPI_Barrier(MPI_COMM_WORLD);
  int stray = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &stray, MPI_STATUS_IGNORE);
  CHECK(!stray, "a message is left unmatched: a failed call sent something");
  CK(cudaDeviceSynchronize());
  MPI_Barrier(MPI_COMM_WORLD);
  const long long lost = (long long)baseline - (long long)freeBytes();
  const char *sanitized = getenv("TEMPI_UNDER_SANITIZER");
  if (sanitized && *sanitized == '1') {
    if (rank == 0) printf("GPU free memory not compared: running under compute-sanitizer\n");
  } else {
    CHECK(lost <= (long long)slack, "GPU free memory %lld bytes lower than %s", lost, since);
    if (rank == 0)
      printf("GPU free memory %s minus at the end: %lld bytes (limit %zu)\n", since, lost, slack);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

#endif
