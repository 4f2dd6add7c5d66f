/// \file
/// The generic pack kernels (every word size and dimension count): see Generic.h.
#include "runtime/src/device/Generic.h"
#include "tempi/kernels.cuh"

namespace tempi::device::generic {

tempi_result pack(int W, const kernels::Strided &shape, void *packed, const void *base,
                  int64_t count, void *stream) {
  return kernels::packGeneric(W, shape, packed, base, count, static_cast<cudaStream_t>(stream));
}

} // namespace tempi::device::generic
