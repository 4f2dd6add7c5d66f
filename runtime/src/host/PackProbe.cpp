/// \file
/// The pack-order probe (PackProbe.h).
#include "PackProbe.h"

#include <cstdint>
#include <vector>

namespace tempi {

bool orderWorthProbing(const TypePlan &plan) {
  if (plan.kind == TypePlan::Kind::Blocks) return true;
  if (plan.kind != TypePlan::Kind::Strided) return false;
  if (plan.trueLb < 0 || plan.lb < 0) return true;
  for (const StridedBlock::Dim &d : plan.kernel.shape.dims)
    if (d.stride < 0) return true;
  return false;
}

ProbeResult probePackOrder(MPI_Datatype type, const TypePlan &plan) {
  if (plan.kind == TypePlan::Kind::Mirror || plan.size <= 0) return ProbeResult::NotProbed;
  const int64_t lo = plan.trueLb, span = plan.trueExtent;
  if (span <= 0 || span > kProbeSpanLimit || plan.size > kProbeSpanLimit)
    return ProbeResult::NotProbed;
  // Bytes that differ from block to block, so that two blocks swapped cannot go unnoticed.
  std::vector<unsigned char> memory(static_cast<size_t>(span));
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (unsigned char &b : memory) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    b = static_cast<unsigned char>(x >> 24);
  }
  // The buffer address that puts the type's first byte at memory[0], computed on the address: for
  // absolute addresses (a type meant for MPI_BOTTOM) it lies far outside any object.
  const void *origin =
      reinterpret_cast<const void *>(reinterpret_cast<uintptr_t>(memory.data()) - uintptr_t(lo));

  int packSize = 0;
  if (PMPI_Pack_size(1, type, MPI_COMM_SELF, &packSize) != MPI_SUCCESS || packSize < plan.size)
    return ProbeResult::NotProbed;
  std::vector<unsigned char> theirs(static_cast<size_t>(packSize));
  int position = 0;
  if (PMPI_Pack(origin, 1, type, theirs.data(), packSize, &position, MPI_COMM_SELF) !=
          MPI_SUCCESS ||
      position != plan.size)
    return ProbeResult::NotProbed;

  std::vector<unsigned char> ours;
  ours.reserve(size_t(plan.size));
  bool inside = true;
  forEachRun(plan, 0, plan.size, [&](int64_t off, int64_t n) {
    if (off < lo || off + n > lo + span) { // a plan outside the MPI's true extent is wrong
      inside = false;
      return;
    }
    const unsigned char *src = memory.data() + (off - lo);
    ours.insert(ours.end(), src, src + n);
  });
  if (!inside || int64_t(ours.size()) != plan.size) return ProbeResult::Differs;
  // An MPI may write zeros for padding bytes (MPICH does for the 6 unused bytes of an x86 long
  // double): such a byte is not compared. Bytes out of order show at the other positions.
  for (size_t i = 0; i < ours.size(); ++i)
    if (ours[i] != theirs[i] && theirs[i] != 0) return ProbeResult::Differs;
  return ProbeResult::Agrees;
}

} // namespace tempi
