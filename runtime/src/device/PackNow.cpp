/// \file
/// packNow/unpackNow (Device.h): a pack or unpack that returns once the data are in place, for
/// MPI_Pack and MPI_Unpack between device buffers. A call that repeats one made before (the same
/// shape, addresses, count and direction) replays a CUDA graph of its launch instead of launching
/// the kernel again. On the H100 of docs/performance.md a graph launch and synchronize took about
/// 2.3 us less than even an empty kernel's launch and synchronize, most of a small pack's cost.
///
/// The graph is captured at the second sighting of a call (the very launch pack() would make,
/// captured on a private stream), so a call made once costs no capture. It is launched on the
/// thread's stream, which keeps the launch path's ordering after the program's legacy-stream work
/// (Streams.cpp). The cache holds the last kPackGraphs calls by use; an evicted graph is freed by
/// CUDA when its launches finish. A change of the registered (generated) kernels empties it, so
/// no graph outlives the kernel it launches. Graphs off (setPackGraphs(false)) or any failure to
/// capture: the plain launch, which is always correct.
#include "runtime/src/device/Device.h"
#include "runtime/src/device/Internal.h"
#include "tempi/kernels.cuh"

#include <cuda_runtime.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace tempi::device {

namespace {

constexpr size_t kPackGraphs = 32; ///< calls remembered (with or without a graph)

struct CallKey {
  int device = 0; ///< a graph belongs to one device's context
  bool pack = true;
  const void *strided = nullptr;
  const void *packed = nullptr;
  int64_t count = 0;
  StridedBlock shape;
  bool operator==(const CallKey &) const = default;
};

/// An instantiated graph; destroyed with its last reference (CUDA frees it after its launches).
struct GraphExec {
  cudaGraphExec_t exec = nullptr;
  ~GraphExec() {
    if (exec) TEMPI_CUDA_LOG_ONLY(cudaGraphExecDestroy(exec));
  }
};

struct Entry {
  CallKey key;
  std::shared_ptr<GraphExec> graph; ///< null: seen once, or capture failed (then `failed`)
  bool failed = false;
  uint64_t lastUse = 0;
};

class GraphCache {
public:
  /// What to do with call `key`: replay `graph` when set; otherwise capture when `capture`,
  /// else launch plainly. Remembers the call.
  struct Decision {
    std::shared_ptr<GraphExec> graph;
    bool capture = false;
  };
  Decision decide(const CallKey &key) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (Entry &e : entries_)
      if (e.key.strided == key.strided && e.key.packed == key.packed && e.key == key) {
        e.lastUse = ++clock_;
        if (e.graph) return {e.graph, false};
        return {nullptr, !e.failed};
      }
    Entry fresh{key, nullptr, false, ++clock_};
    if (entries_.size() < kPackGraphs) {
      entries_.push_back(std::move(fresh));
    } else {
      Entry *oldest = &entries_[0];
      for (Entry &e : entries_)
        if (e.lastUse < oldest->lastUse) oldest = &e;
      *oldest = std::move(fresh);
    }
    return {};
  }

  /// The graph of call `key` (captured by the caller), or its failure to capture.
  void store(const CallKey &key, std::shared_ptr<GraphExec> graph) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (Entry &e : entries_)
      if (e.key == key) {
        e.failed = graph == nullptr;
        e.graph = std::move(graph);
        return;
      }
  }

  /// Captures what `launch` enqueues on a private stream into an instantiated graph; nullptr
  /// when that fails (nothing has run: a captured launch only records).
  template <class Launch> std::shared_ptr<GraphExec> capture(Launch launch) {
    std::lock_guard<std::mutex> lock(captureMutex_);
    if (!captureStream_ &&
        !TEMPI_CUDA_LOG_ONLY(cudaStreamCreateWithFlags(&captureStream_, cudaStreamNonBlocking)))
      return nullptr;
    if (!TEMPI_CUDA_LOG_ONLY(
            cudaStreamBeginCapture(captureStream_, cudaStreamCaptureModeThreadLocal)))
      return nullptr;
    const tempi_result r = launch(captureStream_);
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(captureStream_, &graph);
    auto exec = std::make_shared<GraphExec>();
    const bool ok = r == TEMPI_SUCCESS && ended == cudaSuccess && graph &&
                    cudaGraphInstantiate(&exec->exec, graph, 0) == cudaSuccess;
    if (graph) TEMPI_CUDA_LOG_ONLY(cudaGraphDestroy(graph));
    if (!ok) {
      (void)cudaGetLastError(); // the plain launch reports any real error
      exec->exec = nullptr;
      return nullptr;
    }
    return exec;
  }

  /// Every remembered call (their graphs are freed once their launches finish).
  void forget() {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_.clear();
  }

  void release() {
    forget();
    std::lock_guard<std::mutex> lock(captureMutex_);
    if (captureStream_) TEMPI_CUDA_LOG_ONLY(cudaStreamDestroy(captureStream_));
    captureStream_ = nullptr;
  }

private:
  std::mutex mutex_, captureMutex_;
  std::vector<Entry> entries_;
  uint64_t clock_ = 0;
  cudaStream_t captureStream_ = nullptr;
};

GraphCache &cache() {
  static GraphCache c;
  return c;
}
std::atomic<bool> graphsOn{true};

template <bool Pack>
tempi_result runNow(const KernelPlan &plan, void *strided, void *packed, int64_t count) {
  Stream s = defaultStream();
  auto launch = [&](Stream on) {
    return Pack ? device::pack(plan, strided, count, packed, on)
                : device::unpack(plan, strided, packed, count, on);
  };
  auto launchAndWait = [&] {
    const tempi_result r = launch(s);
    return r == TEMPI_SUCCESS ? synchronize(s) : r;
  };
  if (!graphsOn.load(std::memory_order_relaxed) || count <= 0 || plan.shape.size() <= 0 ||
      !strided || !packed || !available())
    return launchAndWait();
  const CallKey key{currentDevice(), Pack, strided, packed, count, plan.shape};
  GraphCache::Decision d = cache().decide(key);
  if (!d.graph && d.capture) {
    d.graph = cache().capture([&](cudaStream_t on) { return launch(on); });
    cache().store(key, d.graph);
    if (d.graph) internal::counters().launches.fetch_sub(1, std::memory_order_relaxed); // recorded only
  }
  if (!d.graph)
    return launchAndWait();
  TEMPI_CUDA_CHECK(cudaGraphLaunch(d.graph->exec, static_cast<cudaStream_t>(s)));
  internal::bump(internal::counters().launches);
  internal::bump(internal::counters().graphLaunches);
  return synchronize(s);
}

} // namespace

void setPackGraphs(bool on) { graphsOn.store(on, std::memory_order_relaxed); }

tempi_result packNow(const KernelPlan &plan, const void *base, int64_t count, void *packed) {
  return runNow<true>(plan, const_cast<void *>(base), packed, count);
}

tempi_result unpackNow(const KernelPlan &plan, void *base, const void *packed, int64_t count) {
  return runNow<false>(plan, base, const_cast<void *>(packed), count);
}

void internal::releasePackGraphs() { cache().release(); }

void internal::forgetPackGraphs() { cache().forget(); }

} // namespace tempi::device
