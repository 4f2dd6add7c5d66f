/// \file
/// Bounded pools of device memory and of pinned host memory (always allocated portable and mapped,
/// so the one-shot method can write into any of it).
///
/// Sizes are rounded up to a power of two (at least 4 KiB) and freed blocks wait on a free list of
/// their size, to be handed out again without a CUDA call. The bound per pool (default 1 GiB; the
/// runtime sets it from TEMPI_POOL_BYTES at MPI_Init through setPoolLimit()) caps the bytes kept idle: a block freed beyond
/// it goes back to CUDA at once. Allocations in use are never refused for the bound. finalize()
/// releases everything, idle or still outstanding. Every function is thread-safe.
#include "runtime/src/device/Device.h"
#include "runtime/src/device/Internal.h"
#include "tempi/kernels.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tempi::device {

namespace {

constexpr size_t kMinBlock = 4096;
constexpr size_t kDefaultLimit = size_t{1} << 30;

size_t roundUp(size_t bytes) {
  size_t b = kMinBlock;
  while (b < bytes) b <<= 1;
  return b;
}

class Pool {
public:
  using AllocFn = void *(*)(size_t);
  using FreeFn = void (*)(void *);
  Pool(AllocFn a, FreeFn f) : alloc_(a), free_(f) {}

  void *get(size_t bytes) {
    if (bytes == 0 || bytes > (size_t{1} << 62)) return nullptr;
    const size_t size = roundUp(bytes);
    std::lock_guard<std::mutex> lock(m_);
    void *p = nullptr;
    auto it = idle_.find(size);
    if (it != idle_.end() && !it->second.empty()) {
      p = it->second.back();
      it->second.pop_back();
      idleBytes_ -= size;
    } else {
      p = alloc_(size);
      if (!p) {
        releaseIdleLocked(); // memory may be held idle: give it back and try once more
        p = alloc_(size);
      }
      if (!p) return nullptr;
    }
    live_[p] = size;
    return p;
  }

  /// False when `p` did not come from this pool.
  bool put(void *p) {
    std::lock_guard<std::mutex> lock(m_);
    auto it = live_.find(p);
    if (it == live_.end()) return false;
    const size_t size = it->second;
    live_.erase(it);
    if (idleBytes_ + size <= limit_) {
      idle_[size].push_back(p);
      idleBytes_ += size;
    } else {
      free_(p);
    }
    return true;
  }

  void releaseAll() {
    std::lock_guard<std::mutex> lock(m_);
    releaseIdleLocked();
    for (auto &[p, size] : live_) free_(p);
    live_.clear();
  }

  void setLimit(size_t bytes) {
    std::lock_guard<std::mutex> lock(m_);
    limit_ = bytes;
  }

private:
  void releaseIdleLocked() {
    for (auto &[size, blocks] : idle_)
      for (void *p : blocks) free_(p);
    idle_.clear();
    idleBytes_ = 0;
  }

  AllocFn alloc_;
  FreeFn free_;
  std::mutex m_;
  std::map<size_t, std::vector<void *>> idle_;
  std::unordered_map<void *, size_t> live_;
  size_t idleBytes_ = 0, limit_ = kDefaultLimit;
};

void *cudaDeviceAlloc(size_t n) {
  void *p = nullptr;
  return TEMPI_CUDA_LOG_ONLY(cudaMalloc(&p, n)) ? p : nullptr;
}
void cudaDeviceFree(void *p) { TEMPI_CUDA_LOG_ONLY(cudaFree(p)); }
void *cudaPinnedAlloc(size_t n) {
  void *p = nullptr;
  return TEMPI_CUDA_LOG_ONLY(cudaHostAlloc(&p, n, cudaHostAllocPortable | cudaHostAllocMapped))
             ? p
             : nullptr;
}
void cudaPinnedFree(void *p) { TEMPI_CUDA_LOG_ONLY(cudaFreeHost(p)); }

Pool &devicePool() {
  static Pool p(cudaDeviceAlloc, cudaDeviceFree);
  return p;
}
Pool &pinnedPool() {
  static Pool p(cudaPinnedAlloc, cudaPinnedFree);
  return p;
}

} // namespace

void *allocDevice(size_t bytes) { return available() ? devicePool().get(bytes) : nullptr; }

void freeDevice(void *p) {
  if (!p || !available()) return;
  if (!devicePool().put(p))
    std::fprintf(stderr, "tempi: freeDevice(%p): not from the device pool; ignored\n", p);
}

void *allocPinned(size_t bytes, bool /*mapped: every pinned block is mapped*/) {
  return available() ? pinnedPool().get(bytes) : nullptr;
}

void freePinned(void *p) {
  if (!p || !available()) return;
  if (!pinnedPool().put(p))
    std::fprintf(stderr, "tempi: freePinned(%p): not from the pinned pool; ignored\n", p);
}

void *mappedDevicePointer(void *pinnedHost) {
  if (!pinnedHost || !available()) return nullptr;
  void *d = nullptr;
  if (!TEMPI_CUDA_LOG_ONLY(cudaHostGetDevicePointer(&d, pinnedHost, 0))) return nullptr;
  return d;
}

void setPoolLimit(size_t bytes) {
  devicePool().setLimit(bytes);
  pinnedPool().setLimit(bytes);
}

void internal::releasePools() {
  devicePool().releaseAll();
  pinnedPool().releaseAll();
}

} // namespace tempi::device
