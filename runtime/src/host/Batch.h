/// \file
/// Batch: the device work of one or more wires, enqueued together on the thread's stream and
/// synchronized once. A halo exchange completes hundreds of small requests at a time; one
/// synchronization (and one fused kernel launch) for all of them, instead of one per request, is
/// what makes it fast (docs/runtime.md, "Bursts").
///
/// Order on the stream: the `before` copies (receive staging to the device), the strided jobs
/// (one fused pack or unpack launch, device::packMany/unpackMany), the `after` copies (send
/// staging to the host, straight copies). Work that must keep its own order (a block-list kernel
/// and its staging copy) is enqueued directly by the caller, who then calls noteEnqueued().
/// Each list of copies goes to CUDA in one batched call (device::copyManyAsync; TEMPI_COPY_BATCH=0:
/// one call each). run() always synchronizes when anything was enqueued, also after an error, so
/// that no staging buffer is released while the GPU may still use it.
#pragma once

#include "runtime/src/device/Device.h"
#include "tempi/tempi.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace tempi {

class Batch {
public:
  /// pack: the jobs are packs (strided -> packed), else unpacks.
  explicit Batch(bool pack) : pack_(pack) {}
  /// Work that must not start before the batch's (IPC acknowledgements) runs anyway.
  ~Batch() { runAfterRun(); }
  Batch(const Batch &) = delete;
  Batch &operator=(const Batch &) = delete;

  /// Copies of one list must not overlap each other: they may run in any order. chain/slice: a
  /// copy between the two blocks of a burst arena (BurstArena.h), whose slice follows the
  /// previous copy's slice of the same chain, extends that copy instead (over the alignment gap
  /// between the slices, which no one owns): one DMA copy for a whole burst.
  void copyBefore(void *dst, const void *src, size_t bytes, uint64_t chain = 0,
                  uint64_t slice = 0) {
    before_.add(dst, src, bytes, chain, slice);
  }
  void copyAfter(void *dst, const void *src, size_t bytes, uint64_t chain = 0,
                 uint64_t slice = 0) {
    after_.add(dst, src, bytes, chain, slice);
  }
  void job(const device::StridedJob &j) { jobs_.push_back(j); }
  void noteEnqueued() { enqueued_ = true; }
  /// Records the first error of work the caller enqueued itself.
  void fail(tempi_result r) {
    if (error_ == TEMPI_SUCCESS) error_ = r;
  }
  bool empty() const { return !enqueued_ && before_.empty() && jobs_.empty() && after_.empty(); }
  /// f runs once the batch's work has finished (at run(), after the synchronization).
  void afterRun(std::function<void()> f) { afterRun_.push_back(std::move(f)); }
  /// f runs after every afterRun function, once per key however often it is asked for (IPC
  /// acknowledgements: the afterRun functions gather them, this sends them together).
  void afterRunOnce(const void *key, std::function<void()> f) {
    for (const auto &k : once_)
      if (k.first == key) return;
    once_.emplace_back(key, std::move(f));
  }

  /// Enqueues everything gathered and synchronizes the stream, then runs the afterRun work; the
  /// first error.
  tempi_result run();

private:
  struct Copies { // as cudaMemcpyBatchAsync takes them
    std::vector<void *> dsts;
    std::vector<const void *> srcs;
    std::vector<size_t> sizes;
    uint64_t lastChain = 0, lastSlice = 0; ///< of the last copy, when it is a burst slice's
    void add(void *dst, const void *src, size_t bytes, uint64_t chain, uint64_t slice) {
      if (!bytes) return;
      if (chain != 0 && chain == lastChain && slice == lastSlice + 1 && !sizes.empty() &&
          static_cast<char *>(dst) - static_cast<char *>(dsts.back()) ==
              static_cast<const char *>(src) - static_cast<const char *>(srcs.back())) {
        sizes.back() = size_t(static_cast<const char *>(src) + bytes -
                              static_cast<const char *>(srcs.back()));
        lastSlice = slice;
        return;
      }
      dsts.push_back(dst);
      srcs.push_back(src);
      sizes.push_back(bytes);
      lastChain = chain;
      lastSlice = slice;
    }
    bool empty() const { return sizes.empty(); }
    void clear() {
      dsts.clear();
      srcs.clear();
      sizes.clear();
      lastChain = lastSlice = 0;
    }
    tempi_result enqueue(device::Stream s) const;
  };
  bool pack_;
  bool enqueued_ = false;
  tempi_result error_ = TEMPI_SUCCESS;
  Copies before_, after_;
  std::vector<device::StridedJob> jobs_;
  std::vector<std::function<void()>> afterRun_;
  std::vector<std::pair<const void *, std::function<void()>>> once_;
  void runAfterRun() {
    std::vector<std::function<void()>> fs;
    fs.swap(afterRun_);
    for (auto &f : fs) f();
    std::vector<std::pair<const void *, std::function<void()>>> once;
    once.swap(once_);
    for (auto &f : once) f.second();
  }
};

} // namespace tempi
