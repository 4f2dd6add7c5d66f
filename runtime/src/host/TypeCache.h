/// \file
/// The datatype cache: one TypePlan per committed MPI_Datatype handle, made at MPI_Type_commit
/// (decode with MPI_Type_get_envelope/_contents -> translate -> canonicalize -> StridedBlock or
/// block list) and dropped at MPI_Type_free, so a reused handle never serves a stale plan.
/// Named types and handles the cache has not seen are planned on first lookup. Thread-safe;
/// lookup of a cached handle is one shared-lock hash probe. A long block list without structure
/// skips canonicalize: its plan comes from the block list itself (TypeCache.cpp, docs/runtime.md).
///
/// A type that cannot be decoded, or whose decoded layout disagrees with what the MPI reports
/// (size, extent, true extent), gets a Mirror plan: correct for any type, just slower.
#pragma once

#include "TypePlan.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace tempi::typecache {

void onCommit(MPI_Datatype type);                 ///< after a successful PMPI_Type_commit
void onFree(MPI_Datatype type);                   ///< before PMPI_Type_free (handle still valid)
void onDup(MPI_Datatype oldType, MPI_Datatype newType); ///< after a successful PMPI_Type_dup
TypePlanPtr lookup(MPI_Datatype type);            ///< plans on a miss; never null
/// The cached plan, or null (a named type not used yet, or a handle never committed: invalid).
TypePlanPtr find(MPI_Datatype type);
/// Uncached (tests, and the miss path). probeOrder: check the plan's pack order against the MPI's
/// (PackProbe.h); only for committed types: Open MPI's MPI_Pack_size crashes on an uncommitted
/// one, which is what a dup of an uncommitted type or a miss on an erroneous handle gives.
TypePlanPtr buildPlan(MPI_Datatype type, bool probeOrder = false);
size_t cachedCount();
void clear();                                     ///< at MPI_Finalize
/// Changes whenever a cached plan is replaced or dropped (commit, free, dup, clear); a lookup
/// remembered at generation g is still the answer while generation() == g.
uint64_t generation();

} // namespace tempi::typecache
