/* What the GPU reliability tests that move one strided device type share (ReliabilityCudaOom.c,
 * ReliabilityLaunchFailure.c): a CUDA check that aborts every rank, the GPU's free memory, the
 * byte pattern a sender fills, and the check of a received buffer against the MPI's own
 * MPI_Pack/MPI_Unpack of the same pattern on the host. Include after e2e_check.h (rank, CHECK). */
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

#endif
