/// \file
/// How many wires each transfer method served, by message size, apart for contiguous data (one
/// copy, no pack kernel) and for data that needs a pack: the performance model's choices as they
/// happened (after a burst's override to staged, Transfer.cpp). The model prices the two apart, so
/// one size can go one way for a contiguous buffer and the other for a strided one. Logged at
/// MPI_Finalize with TEMPI_LOG=info, so that a benchmark can tell which method `auto` picked for
/// each size (examples/benchmarks/summarize.py's model regret by the picked method).
#pragma once

#include "Env.h"

#include <cstdint>
#include <string>

namespace tempi::methodstats {

/// Counts one wire of `bytes` packed bytes moved by `m`; `contiguous`: the type's data is one
/// dense run (TypePlan::contiguous). Lock-free, any thread.
void note(Method m, int64_t bytes, bool contiguous);

/// The wires of contiguous data (`contiguous`) or of data that needs a pack: one entry per
/// power-of-two size bucket that saw one, in increasing size: "2^k" (packed bytes in
/// [2^k, 2^(k+1)); 0 bytes count in 2^0) and the count of each method that served it, e.g.
/// "2^3 oneshot=206, 2^22 staged=204 oneshot=2". "" when no such wire was counted.
std::string summary(bool contiguous);

/// Forgets every count (MPI_Finalize, tests).
void reset();

} // namespace tempi::methodstats
