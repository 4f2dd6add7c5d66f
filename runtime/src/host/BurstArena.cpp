/// \file
/// Burst staging arenas (BurstArena.h).
#include "BurstArena.h"

#include "Env.h"
#include "runtime/src/device/Device.h"

#include <atomic>
#include <memory>

namespace tempi {

/// One device block and one pinned host block of the same size; freed when the last slice is.
struct BurstArena {
  void *device = nullptr;
  void *host = nullptr;
  size_t capacity = 0;
  size_t used = 0; ///< bumped only by the owning thread
  uint64_t id = 0; ///< the copy-merging chain of its slices (Batch.h)
  uint64_t slices = 0;
  ~BurstArena() {
    if (device) device::freeDevice(device);
    if (host) device::freePinned(host);
  }
};

namespace {

std::atomic<uint64_t> nextArenaId{1};
thread_local bool currentBurst = false;
thread_local std::weak_ptr<BurstArena> openArena[2];

std::shared_ptr<BurstArena> newArena() {
  auto a = std::make_shared<BurstArena>();
  a->device = device::allocDevice(kArenaBytes);
  a->host = a->device ? device::allocPinned(kArenaBytes, false) : nullptr;
  if (!a->device || !a->host) return nullptr; // the destructor returns what it got
  a->capacity = kArenaBytes;
  a->id = nextArenaId.fetch_add(1, std::memory_order_relaxed);
  return a;
}

} // namespace

BurstScope::BurstScope() : previous_(currentBurst) { currentBurst = true; }
BurstScope::~BurstScope() { currentBurst = previous_; }

bool inBurst() { return currentBurst; }

bool takeBurstSlice(bool sends, size_t bytes, Staging &s) {
  if (!settings().burstArena || bytes == 0 || bytes > kMaxBurstSlice) return false;
  const size_t need = (bytes + kSliceAlign - 1) / kSliceAlign * kSliceAlign;
  std::weak_ptr<BurstArena> &slot = openArena[sends ? 0 : 1];
  std::shared_ptr<BurstArena> a = slot.lock();
  if (!a || a->used + need > a->capacity) {
    a = newArena();
    if (!a) return false;
    slot = a;
  }
  s.device = static_cast<char *>(a->device) + a->used;
  s.host = static_cast<char *>(a->host) + a->used;
  s.bytes = bytes;
  s.pinned = true;
  s.mapped = false;
  s.chain = a->id;
  s.slice = a->slices++;
  a->used += need;
  s.arena = std::move(a);
  return true;
}

} // namespace tempi
