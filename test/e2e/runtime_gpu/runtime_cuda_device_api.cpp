/// \file
/// The test API of runtime_fake_device.h over real CUDA memory, so runtime_device_paths.c runs
/// unchanged on a GPU against libtempi with its CUDA device layer. What only the fake layer can
/// observe is reported as unknown: runtime_outstanding is 0 (libtempi's pools are not visible
/// here) and kernel_launches is -1 (the test then skips its kernel-count checks).
#include "../runtime_fake_device.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace {
void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "runtime_cuda_device_api: %s: %s\n", what, cudaGetErrorString(e));
    abort();
  }
}
} // namespace

extern "C" {
void *fake_device_alloc(size_t bytes) {
  void *p = nullptr;
  check(cudaMalloc(&p, bytes ? bytes : 1), "cudaMalloc");
  return p;
}
void fake_device_free(void *p) { check(cudaFree(p), "cudaFree"); }
void fake_device_memcpy(void *dst, const void *src, size_t bytes) {
  check(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault), "cudaMemcpy");
  // cudaMemcpy from pageable memory may return before the DMA lands; the data must be in place
  // before MPI is called with the buffer (as with any CUDA-aware MPI).
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}
int fake_device_is_device(const void *p) {
  cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return a.type == cudaMemoryTypeDevice;
}
long fake_device_runtime_outstanding(void) { return 0; }
long fake_device_kernel_launches(void) { return -1; }
long fake_device_copies(void) { return -1; }
long fake_device_ipc_slabs(void) { return -1; }
void fake_device_select(int rank) {
  int n = 0;
  check(cudaGetDeviceCount(&n), "cudaGetDeviceCount");
  check(cudaSetDevice(rank % n), "cudaSetDevice");
}
long fake_device_ipc_mapped(void) { return -1; }
}
