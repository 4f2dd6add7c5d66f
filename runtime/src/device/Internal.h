/// \file
/// What the device layer's files share and nobody else sees: the release hooks finalize() calls.
#pragma once

#include <atomic>
#include <cstdint>

namespace tempi::device::internal {

/// The counters behind device::counters(), bumped where the work is enqueued.
struct AtomicCounters {
  std::atomic<uint64_t> launches{0}, fusedLaunches{0}, fusedJobs{0}, synchronizations{0},
      syncMicros{0}, copyCalls{0}, copies{0};
};
AtomicCounters &counters();
inline void bump(std::atomic<uint64_t> &c, uint64_t n = 1) { c.fetch_add(n, std::memory_order_relaxed); }


void releasePools();   ///< Pools.cpp: every pooled and outstanding allocation
void releaseIpc();     ///< Ipc.cpp: every opened peer handle
void releaseStreams(); ///< Streams.cpp: every per-thread stream

} // namespace tempi::device::internal
