/// \file
/// The per-thread stream, synchronize, copyAsync, and finalize(). Each thread gets its own
/// stream on first use. It is a BLOCKING stream on purpose: it is ordered after work the program
/// issued on the legacy default stream (a kernel that fills the send buffer, a cudaMemcpy from
/// pageable memory whose DMA may still be in flight when it returns), so an MPI call sees the data
/// the program wrote before it, as a CUDA-aware MPI would. Programs that use their own
/// non-blocking streams must synchronize them before the MPI call, as with any CUDA-aware MPI; finalize() destroys them all, and a thread that asks again afterwards gets a fresh
/// one (a generation counter tells it that its cached stream is gone).
#include "runtime/src/device/Device.h"
#include "runtime/src/device/Internal.h"
#include "tempi/kernels.cuh"

#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <vector>

namespace tempi::device {

namespace {

std::mutex streamsMutex;
std::vector<cudaStream_t> &allStreams() {
  static std::vector<cudaStream_t> v;
  return v;
}
std::atomic<unsigned> generation{1};

struct ThreadStream {
  cudaStream_t stream = nullptr;
  unsigned generation = 0;
};
thread_local ThreadStream mine;

} // namespace

Stream defaultStream() {
  if (!available()) return nullptr;
  const unsigned g = generation.load(std::memory_order_acquire);
  if (mine.stream && mine.generation == g) return mine.stream;
  cudaStream_t s = nullptr;
  if (!TEMPI_CUDA_LOG_ONLY(cudaStreamCreateWithFlags(&s, cudaStreamDefault)))
    return nullptr; // the legacy stream still works; callers pass nullptr on to CUDA
  {
    std::lock_guard<std::mutex> lock(streamsMutex);
    allStreams().push_back(s);
  }
  mine.stream = s;
  mine.generation = g;
  return s;
}

internal::AtomicCounters &internal::counters() {
  static AtomicCounters c;
  return c;
}

Counters counters() {
  const internal::AtomicCounters &c = internal::counters();
  auto get = [](const std::atomic<uint64_t> &a) { return a.load(std::memory_order_relaxed); };
  return Counters{get(c.launches),   get(c.fusedLaunches), get(c.fusedJobs),
                  get(c.synchronizations), get(c.syncMicros), get(c.copyCalls),
                  get(c.copies),     get(c.tableUploads), get(c.tableShifts),
                  get(c.graphLaunches)};
}

tempi_result synchronize(Stream s) {
  if (!available()) return TEMPI_ERR_UNSUPPORTED;
  internal::bump(internal::counters().synchronizations);
  const auto t0 = std::chrono::steady_clock::now();
  const cudaError_t e = cudaStreamSynchronize(static_cast<cudaStream_t>(s));
  internal::bump(internal::counters().syncMicros,
                 uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(
                              std::chrono::steady_clock::now() - t0)
                              .count()));
  TEMPI_CUDA_CHECK(e);
  return TEMPI_SUCCESS;
}

tempi_result copyAsync(void *dst, const void *src, size_t bytes, Stream s) {
  if (!available()) return TEMPI_ERR_UNSUPPORTED;
  if (bytes == 0) return TEMPI_SUCCESS;
  if (!dst || !src) return TEMPI_ERR_INVALID_ARG;
  internal::bump(internal::counters().copyCalls);
  internal::bump(internal::counters().copies);
  TEMPI_CUDA_CHECK(
      cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, static_cast<cudaStream_t>(s)));
  return TEMPI_SUCCESS;
}

tempi_result copyManyAsync(void *const *dsts, const void *const *srcs, const size_t *sizes,
                           size_t n, Stream s) {
  if (!available()) return TEMPI_ERR_UNSUPPORTED;
  // The batched call is one driver submission for all copies: a halo exchange stages hundreds
  // of faces, and one cudaMemcpyAsync each costs microseconds of host time apiece.
  static std::atomic<bool> batchWorks{true};
  if (n > 1 && batchWorks.load(std::memory_order_relaxed)) {
    cudaMemcpyAttributes attr = {};
    attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream; // the sources are written earlier on s
    size_t firstIndex = 0;
    const cudaError_t e = cudaMemcpyBatchAsync(dsts, srcs, sizes, n, &attr, &firstIndex, 1,
                                               static_cast<cudaStream_t>(s));
    if (e == cudaSuccess) {
      internal::bump(internal::counters().copyCalls);
      internal::bump(internal::counters().copies, n);
      return TEMPI_SUCCESS;
    }
    (void)cudaGetLastError();
    // A driver without it (or that refuses these pointers): one copy each from now on, which
    // also reports a real error through copyAsync.
    batchWorks.store(false, std::memory_order_relaxed);
    std::fprintf(stderr, "tempi: cudaMemcpyBatchAsync failed (%s); staging copies go one by one\n",
                 cudaGetErrorName(e));
  }
  for (size_t i = 0; i < n; ++i)
    if (tempi_result r = copyAsync(dsts[i], srcs[i], sizes[i], s); r != TEMPI_SUCCESS) return r;
  return TEMPI_SUCCESS;
}

void internal::releaseStreams() {
  std::lock_guard<std::mutex> lock(streamsMutex);
  for (cudaStream_t s : allStreams()) TEMPI_CUDA_LOG_ONLY(cudaStreamDestroy(s));
  allStreams().clear();
  generation.fetch_add(1, std::memory_order_acq_rel);
}

void finalize() {
  if (!available()) return;
  // everything enqueued must finish before its buffers go back
  TEMPI_CUDA_LOG_ONLY(cudaDeviceSynchronize());
  internal::releaseKernelTiming();
  internal::releasePackGraphs();
  internal::releaseIpc();
  internal::releasePools();
  internal::releaseStreams();
}

} // namespace tempi::device
