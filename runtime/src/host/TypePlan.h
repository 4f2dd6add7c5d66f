/// \file
/// TypePlan: how the runtime moves one MPI datatype between a device buffer and packed bytes.
///
///   Strided  the canonical StridedBlock with its kernel plan (regular types, named types)
///   Blocks   an ordered (offset, bytes) list of one element (irregular types)
///   Mirror   no plan: the span the type touches is copied between device and host as is, and the
///            MPI works on the host copy with the original datatype (always correct, slower; used
///            when the type could not be decoded or TEMPI_NO_TYPE_CACHE is set)
/// Every plan also carries MPI's view of the type (size, extent, true lb/extent), from the MPI.
#pragma once

#include "../device/Device.h"
#include "passes/KernelPlan.h"

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace tempi {

struct TypePlan {
  enum class Kind { Strided, Blocks, Mirror };
  Kind kind = Kind::Mirror;
  KernelPlan kernel;               ///< Strided
  mutable device::BlockList blocks;///< Blocks (uploaded to the device on first use)
  mutable std::mutex uploadMutex;
  mutable bool uploaded = false;
  int64_t size = 0, extent = 0, lb = 0, trueLb = 0, trueExtent = 0; ///< as the MPI reports them
  bool contiguous = false;         ///< one dense run per element and extent == size: a plain copy
  std::string why;                 ///< for Mirror: why there is no plan (logged at debug)
  bool orderDiffers = false;       ///< Mirror because the MPI packs in another order (PackProbe.h)
  /// The MPI could not describe the handle (not a valid committed or named type): calls with it
  /// go to the MPI untouched, which reports the error on the caller's communicator.
  bool invalid = false;

  ~TypePlan();
  /// Uploads the block list once (Blocks only); TEMPI_SUCCESS when already there.
  tempi_result ensureUploaded() const;
};
using TypePlanPtr = std::shared_ptr<const TypePlan>;

/// The plan of a StridedBlock, with MPI's layout taken from the block itself (static plans).
TypePlanPtr planFromStrided(const StridedBlock &b, int64_t trueLb, int64_t trueExtent);

/// The byte span [lo, hi) relative to the buffer that `count` elements touch (for Mirror copies).
void touchedSpan(const TypePlan &p, int64_t count, int64_t *lo, int64_t *hi);

/// Calls f(offset, bytes) for the contiguous runs of element `index` in pack order, stopping once
/// `limit` bytes were visited (the last run is cut short). Strided and Blocks plans only.
template <typename F> void forEachRun(const TypePlan &p, int64_t index, int64_t limit, F &&f);

} // namespace tempi

#include "TypePlanRuns.h"
