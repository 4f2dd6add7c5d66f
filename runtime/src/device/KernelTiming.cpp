/// \file
/// TEMPI_TIME_KERNELS: CUDA events around each fused pack/unpack launch, read when asked
/// (kernelTimes(), called at MPI_Finalize). What the compile-time tier's kernels cost on the GPU,
/// to hold against a hand-written fused kernel timed the same way (examples/benchmarks/bench-halo).
/// Off by default: an event pair per launch costs host time the measured program should not pay,
/// and each timed launch is delayed by a 100 us hold of its stream (StreamHold.cu) so that the
/// pair times the kernel's execution only.
#include "runtime/src/device/Device.h"
#include "runtime/src/device/Internal.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

namespace tempi::device {
namespace {

/// Launches beyond this many are not timed (the medians need far fewer; memory stays bounded).
constexpr size_t kMaxTimed = 4096;
/// How long the stream is held before each timed launch (host enqueue time, with margin).
constexpr unsigned kHoldMicros = 100;

struct Timed {
  cudaEvent_t start, stop;
  bool pack;
};

std::atomic<bool> timingOn{false};
std::mutex timedMutex;
std::vector<Timed> timed;

double medianOf(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

void setKernelTiming(bool on) { timingOn.store(on, std::memory_order_relaxed); }

internal::TimedLaunch internal::beginTimedLaunch(Stream s) {
  TimedLaunch t;
  if (!timingOn.load(std::memory_order_relaxed)) return t;
  {
    std::lock_guard<std::mutex> lock(timedMutex);
    if (timed.size() >= kMaxTimed) return t;
  }
  cudaEvent_t a = nullptr, b = nullptr;
  if (cudaEventCreate(&a) != cudaSuccess) return t;
  if (cudaEventCreate(&b) != cudaSuccess) {
    cudaEventDestroy(a);
    return t;
  }
  // Without the hold, the pair would also time the GPU idling while the host enqueues the
  // launch (see StreamHold.cu); 100 us covers the upload check and the launch call.
  holdStream(s, kHoldMicros);
  cudaEventRecord(a, static_cast<cudaStream_t>(s));
  t.start = a;
  t.stop = b;
  return t;
}

void internal::dropTimedLaunch(const TimedLaunch &t) {
  if (t.start) cudaEventDestroy(static_cast<cudaEvent_t>(t.start));
  if (t.stop) cudaEventDestroy(static_cast<cudaEvent_t>(t.stop));
}

void internal::endTimedLaunch(const TimedLaunch &t, bool pack, Stream s) {
  if (!t.start) return;
  auto a = static_cast<cudaEvent_t>(t.start), b = static_cast<cudaEvent_t>(t.stop);
  cudaEventRecord(b, static_cast<cudaStream_t>(s));
  std::lock_guard<std::mutex> lock(timedMutex);
  timed.push_back({a, b, pack});
}

KernelTimes kernelTimes() {
  std::lock_guard<std::mutex> lock(timedMutex);
  std::vector<double> pack, unpack;
  for (const Timed &t : timed) {
    float ms = 0;
    if (cudaEventSynchronize(t.stop) == cudaSuccess &&
        cudaEventElapsedTime(&ms, t.start, t.stop) == cudaSuccess)
      (t.pack ? pack : unpack).push_back(ms * 1e3);
  }
  return KernelTimes{pack.size(), unpack.size(), medianOf(pack), medianOf(unpack)};
}

void internal::releaseKernelTiming() {
  std::lock_guard<std::mutex> lock(timedMutex);
  for (const Timed &t : timed) {
    cudaEventDestroy(t.start);
    cudaEventDestroy(t.stop);
  }
  timed.clear();
}

} // namespace tempi::device
