/// \file
/// The generic unpack kernels (every word size and dimension count): see Generic.h.
#include "runtime/src/device/Generic.h"
#include "tempi/kernels.cuh"

namespace tempi::device::generic {

tempi_result unpack(int W, const kernels::Strided &shape, void *base, const void *packed,
                    int64_t count, void *stream) {
  return kernels::unpackGeneric(W, shape, base, packed, count, static_cast<cudaStream_t>(stream));
}

} // namespace tempi::device::generic
