/// \file
/// Burst staging: the staged wires of one burst (the deferred sends of a halo exchange, the
/// nonblocking receives completed by one MPI_Waitall) take consecutive slices of one device block
/// and one pinned host block, at the same offset in both. Batch (Batch.h) then merges the
/// copies of consecutive slices into one, so a burst of 208 faces moves with one DMA copy each
/// way, as a hand-written fused exchange does, instead of 208.
///
/// Each thread has one open arena per direction (sends, receives), so that interleaved Irecv and
/// Isend calls still give each direction consecutive slices. An arena lives while any slice of
/// it does (shared ownership); a thread opens a new one when its arena is gone or full. Blocks
/// come from and return to the device layer's pools. Slices over kMaxBurstSlice bytes, and every
/// slice when TEMPI_BURST_ARENA=0, are not taken: the caller allocates as before.
#pragma once

#include "Transfer.h"

#include <cstddef>

namespace tempi {

constexpr size_t kArenaBytes = size_t(32) << 20;   ///< one block per direction and thread
constexpr size_t kMaxBurstSlice = size_t(8) << 20; ///< larger wires stage on their own
constexpr size_t kSliceAlign = 256;

/// Marks the wires set up while it lives as members of a burst (thread-local): a deferred send,
/// a nonblocking receive.
class BurstScope {
public:
  BurstScope();
  ~BurstScope();
  BurstScope(const BurstScope &) = delete;
  BurstScope &operator=(const BurstScope &) = delete;

private:
  bool previous_;
};

/// Whether the calling thread is inside a BurstScope.
bool inBurst();

/// Staging for `bytes` (device and pinned host) from the thread's open arena for `sends` (else
/// receives): true and `s` filled (s.arena, s.chain, s.slice set), or false when the arena cannot
/// serve it.
bool takeBurstSlice(bool sends, size_t bytes, Staging &s);

} // namespace tempi
