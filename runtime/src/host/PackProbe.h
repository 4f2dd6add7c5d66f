/// \file
/// The pack-order probe: does the MPI pack a type into the same bytes, in the same order, as
/// TEMPI's plan of it? TEMPI sends a device buffer's packed bytes as MPI_PACKED, so an unmodified
/// peer that receives with the typed call reads them in the MPI's own pack order. Both MPIs pack
/// in type-map order as the standard describes, and regular types (positive strides, one
/// element laid out forwards) agree everywhere we have run; but Open MPI 4.1.6 packs some struct
/// and hindexed types with negative displacements differently from MPICH (runtime_decoder_agrees
/// on the GPU machine, 2026-11-22). At MPI_Type_commit, plans whose order could differ are packed
/// once on the host both ways and compared; a plan that differs is not used (the type takes the
/// always-correct mirror path, where the MPI packs).
#pragma once

#include "TypePlan.h"

#include <mpi.h>

namespace tempi {

enum class ProbeResult { Agrees, Differs, NotProbed };

/// Largest span of one element the probe packs (bytes of host memory, filled and packed twice).
constexpr int64_t kProbeSpanLimit = int64_t(4) << 20;

/// True when the plan's order could differ from an MPI's: a block list whose blocks do not lie
/// at increasing addresses, a negative stride, or a first byte below the buffer pointer. Named
/// types, forward strided types and ascending block lists are not probed.
bool orderWorthProbing(const TypePlan &plan);

/// Packs one element of `type` with PMPI_Pack and with `plan` (Strided or Blocks) from the same
/// pseudo-random bytes and compares; a byte the MPI wrote as zero is not compared (padding an MPI
/// zeroes, as MPICH does in long doubles). NotProbed when the span is over kProbeSpanLimit or the
/// MPI refused to pack.
ProbeResult probePackOrder(MPI_Datatype type, const TypePlan &plan);

} // namespace tempi
