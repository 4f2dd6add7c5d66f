/// \file
/// What the device layer's files share and nobody else sees: the release hooks finalize() calls.
#pragma once

#include <atomic>
#include <cstdint>

#include "runtime/src/device/Device.h"

namespace tempi::device::internal {

/// The counters behind device::counters(), bumped where the work is enqueued.
struct AtomicCounters {
  std::atomic<uint64_t> launches{0}, fusedLaunches{0}, fusedJobs{0}, synchronizations{0},
      syncMicros{0}, copyCalls{0}, copies{0}, tableUploads{0}, tableShifts{0}, graphLaunches{0};
};
AtomicCounters &counters();
inline void bump(std::atomic<uint64_t> &c, uint64_t n = 1) { c.fetch_add(n, std::memory_order_relaxed); }


/// KernelTiming.cpp: an event pair around one launch when TEMPI_TIME_KERNELS is on (else empty).
struct TimedLaunch {
  void *start = nullptr, *stop = nullptr; // cudaEvent_t
};
TimedLaunch beginTimedLaunch(Stream s);
void endTimedLaunch(const TimedLaunch &t, bool pack, Stream s);
void dropTimedLaunch(const TimedLaunch &t); ///< the launch failed: destroys the events
/// StreamHold.cu: a one-thread kernel that keeps stream s busy for about this long.
void holdStream(Stream s, unsigned microseconds);
/// StreamHold.cu: a launch with an empty grid, which CUDA refuses (CUDA 13 reports
/// cudaErrorInvalidValue): reported like any failed launch, TEMPI_ERR_CUDA.
tempi_result launchRefusedByCuda(Stream s);

void releasePackGraphs();   ///< PackNow.cpp: every cached graph, and the capture stream
void forgetPackGraphs();    ///< PackNow.cpp: every cached graph (the kernel registry changed)
void releaseKernelTiming(); ///< KernelTiming.cpp: every recorded event
void releasePools();   ///< Pools.cpp: every pooled and outstanding allocation
void releaseIpc();     ///< Ipc.cpp: every opened peer handle, then every IPC slab
void releaseStreams(); ///< Streams.cpp: every per-thread stream

} // namespace tempi::device::internal
