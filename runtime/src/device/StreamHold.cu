/// \file
/// holdStream(): keeps a stream busy for a while, so that the work enqueued behind it is queued in
/// full before the GPU reaches it. TEMPI_TIME_KERNELS uses it in front of each timed launch: an
/// event pair on an idle stream also times the gap while the host is still enqueueing the kernel
/// (the launch call, the segment table's upload), which on an H100 is larger than a halo face
/// pack itself and varies from launch to launch. Also launchRefusedByCuda(), a launch the driver
/// refuses, for TEMPI_TEST_FAIL_LAUNCH (Pack.cu).
#include "runtime/src/device/Internal.h"

#include "tempi/kernels.cuh"

#include <cuda_runtime.h>

namespace tempi::device::internal {
namespace {

__device__ unsigned long long globalNanoseconds() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void holdKernel(unsigned long long ns) {
  const unsigned long long t0 = globalNanoseconds();
  while (globalNanoseconds() - t0 < ns) __nanosleep(1000);
}

} // namespace

void holdStream(Stream s, unsigned microseconds) {
  holdKernel<<<1, 1, 0, static_cast<cudaStream_t>(s)>>>(1000ull * microseconds);
}

tempi_result launchRefusedByCuda(Stream s) {
  holdKernel<<<0, 1, 0, static_cast<cudaStream_t>(s)>>>(0); // an empty grid: never launched
  TEMPI_CUDA_CHECK(cudaGetLastError());
  return TEMPI_ERR_INTERNAL; // CUDA accepted an empty grid: the test must not pass silently
}

} // namespace tempi::device::internal
