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
#include <vector>

namespace tempi {

class Batch {
public:
  /// pack: the jobs are packs (strided -> packed), else unpacks.
  explicit Batch(bool pack) : pack_(pack) {}

  /// Copies of one list must not overlap each other: they may run in any order.
  void copyBefore(void *dst, const void *src, size_t bytes) { before_.add(dst, src, bytes); }
  void copyAfter(void *dst, const void *src, size_t bytes) { after_.add(dst, src, bytes); }
  void job(const device::StridedJob &j) { jobs_.push_back(j); }
  void noteEnqueued() { enqueued_ = true; }
  /// Records the first error of work the caller enqueued itself.
  void fail(tempi_result r) {
    if (error_ == TEMPI_SUCCESS) error_ = r;
  }
  bool empty() const { return !enqueued_ && before_.empty() && jobs_.empty() && after_.empty(); }

  /// Enqueues everything gathered and synchronizes the stream; the first error.
  tempi_result run();

private:
  struct Copies { // as cudaMemcpyBatchAsync takes them
    std::vector<void *> dsts;
    std::vector<const void *> srcs;
    std::vector<size_t> sizes;
    void add(void *dst, const void *src, size_t bytes) {
      if (!bytes) return;
      dsts.push_back(dst);
      srcs.push_back(src);
      sizes.push_back(bytes);
    }
    bool empty() const { return sizes.empty(); }
    void clear() {
      dsts.clear();
      srcs.clear();
      sizes.clear();
    }
    tempi_result enqueue(device::Stream s) const;
  };
  bool pack_;
  bool enqueued_ = false;
  tempi_result error_ = TEMPI_SUCCESS;
  Copies before_, after_;
  std::vector<device::StridedJob> jobs_;
};

} // namespace tempi
