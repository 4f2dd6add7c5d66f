/// \file
/// The pack-order probe (PackProbe.h).
#include "PackProbe.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

namespace tempi {

namespace {
/// Whether one element's blocks lie at increasing addresses without overlapping: then type-map
/// order and address order are one order, and an MPI that packs by either agrees with the plan.
bool ascending(const device::BlockList &b) {
  for (size_t i = 1; i < b.offsets.size() && i < b.lengths.size(); ++i)
    if (b.offsets[i] < b.offsets[i - 1] + b.lengths[i - 1]) return false;
  return true;
}
} // namespace

bool orderWorthProbing(const TypePlan &plan) {
  if (plan.kind != TypePlan::Kind::Blocks && plan.kind != TypePlan::Kind::Strided) return false;
  if (plan.trueLb < 0 || plan.lb < 0) return true;
  // Probing packs the element's whole span twice (its pages freshly mapped): most of a long
  // irregular list's commit time, 65,536 blocks at a 3.7 MB span (bench-commit-plan).
  if (plan.kind == TypePlan::Kind::Blocks) return !ascending(plan.blocks);
  for (const StridedBlock::Dim &d : plan.kernel.shape.dims)
    if (d.stride < 0) return true;
  return false;
}

ProbeResult probePackOrder(MPI_Datatype type, const TypePlan &plan) {
  if (plan.kind == TypePlan::Kind::Mirror || plan.size <= 0) return ProbeResult::NotProbed;
  const int64_t lo = plan.trueLb, span = plan.trueExtent;
  if (span <= 0 || span > kProbeSpanLimit || plan.size > kProbeSpanLimit)
    return ProbeResult::NotProbed;
  // Bytes that differ from block to block, so that two blocks swapped cannot go unnoticed: eight
  // at a time from one xorshift step (a byte a step took 4 ms for a 4 MiB span).
  // Left uninitialized: every byte is written here.
  const size_t spanBytes = static_cast<size_t>(span);
  std::unique_ptr<unsigned char[]> memory(new unsigned char[spanBytes]);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (size_t i = 0; i < spanBytes; i += sizeof x) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    std::memcpy(memory.get() + i, &x, std::min(sizeof x, spanBytes - i));
  }
  // The buffer address that puts the type's first byte at memory[0], computed on the address: for
  // absolute addresses (a type meant for MPI_BOTTOM) it lies far outside any object.
  const void *origin =
      reinterpret_cast<const void *>(reinterpret_cast<uintptr_t>(memory.get()) - uintptr_t(lo));

  int packSize = 0;
  if (PMPI_Pack_size(1, type, MPI_COMM_SELF, &packSize) != MPI_SUCCESS || packSize < plan.size)
    return ProbeResult::NotProbed;
  // Zeroed: an MPI may skip padding bytes instead of writing them (MPICH does for the 6 unused
  // bytes of an x86 long double), and a zero is what the comparison below does not compare.
  std::unique_ptr<unsigned char[]> theirs(new unsigned char[static_cast<size_t>(packSize)]());
  int position = 0;
  if (PMPI_Pack(origin, 1, type, theirs.get(), packSize, &position, MPI_COMM_SELF) !=
          MPI_SUCCESS ||
      position != plan.size)
    return ProbeResult::NotProbed;

  // Our runs, in our order, against the MPI's packed bytes where they land.
  bool inside = true, same = true;
  int64_t packed = 0;
  forEachRun(plan, 0, plan.size, [&](int64_t off, int64_t n) {
    if (!inside || !same) return;
    if (off < lo || off + n > lo + span) { // a plan outside the MPI's true extent is wrong
      inside = false;
      return;
    }
    const unsigned char *ours = memory.get() + (off - lo), *mpi = theirs.get() + packed;
    packed += n;
    if (std::memcmp(ours, mpi, size_t(n)) == 0) return;
    // An MPI may write zeros for padding bytes (MPICH does for the 6 unused bytes of an x86 long
    // double): such a byte is not compared. Bytes out of order show at the other positions.
    for (int64_t i = 0; i < n; ++i)
      if (ours[i] != mpi[i] && mpi[i] != 0) {
        same = false;
        return;
      }
  });
  if (!inside || !same || packed != plan.size) return ProbeResult::Differs;
  return ProbeResult::Agrees;
}

} // namespace tempi
