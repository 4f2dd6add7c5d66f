/// \file
/// The generic (run-time shape) kernels, instantiated once each in GenericPack.cu and
/// GenericUnpack.cu so the two halves compile in parallel; Pack.cu dispatches to them.
#pragma once

#include "tempi/tempi.h"

#include <cstdint>

namespace tempi {
struct StridedBlock;
}
namespace tempi::kernels {
struct Strided;
}

namespace tempi::device::generic {

/// The kernels' view of a StridedBlock; false when it has more than TEMPI_MAX_DIMS dimensions.
bool toStrided(const StridedBlock &b, kernels::Strided *out);

tempi_result pack(int W, const kernels::Strided &shape, void *packed, const void *base,
                  int64_t count, void *stream);
tempi_result unpack(int W, const kernels::Strided &shape, void *base, const void *packed,
                    int64_t count, void *stream);

} // namespace tempi::device::generic
