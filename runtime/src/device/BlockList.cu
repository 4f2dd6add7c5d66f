/// \file
/// Block lists (irregular types): uploadBlockList() checks the list and copies (offsets, lengths,
/// packed positions) to the device once; packBlocks()/unpackBlocks() run the block-list kernel of
/// tempi/kernels.cuh over count elements. Refuses lists whose arrays differ in length, negative
/// lengths, or a size that is not the sum of the lengths (TEMPI_ERR_INVALID_ARG).
#include "runtime/src/device/Device.h"
#include "runtime/src/device/Internal.h"
#include "tempi/kernels.cuh"

#include <vector>

namespace tempi::device {

tempi_result uploadBlockList(BlockList &list) {
  if (!available()) return TEMPI_ERR_UNSUPPORTED;
  const size_t n = list.offsets.size();
  if (list.lengths.size() != n) return TEMPI_ERR_INVALID_ARG;
  std::vector<int64_t> table(3 * n);
  int64_t at = 0;
  for (size_t k = 0; k < n; ++k) {
    if (list.lengths[k] < 0) return TEMPI_ERR_INVALID_ARG;
    table[k] = list.offsets[k];
    table[n + k] = list.lengths[k];
    table[2 * n + k] = at;
    at += list.lengths[k];
  }
  if (list.size == 0) list.size = at;
  if (list.size != at) return TEMPI_ERR_INVALID_ARG;
  releaseBlockList(list);
  if (n == 0) return TEMPI_SUCCESS;
  void *d = nullptr;
  TEMPI_CUDA_CHECK(cudaMalloc(&d, table.size() * sizeof(int64_t)));
  const cudaError_t err =
      cudaMemcpy(d, table.data(), table.size() * sizeof(int64_t), cudaMemcpyHostToDevice);
  if (err != cudaSuccess) {
    kernels::reportCudaError(__FILE__, __LINE__, "cudaMemcpy(block table)", err);
    TEMPI_CUDA_LOG_ONLY(cudaFree(d));
    return TEMPI_ERR_CUDA;
  }
  list.deviceTable = d;
  return TEMPI_SUCCESS;
}

void releaseBlockList(BlockList &list) {
  if (list.deviceTable && available()) TEMPI_CUDA_LOG_ONLY(cudaFree(list.deviceTable));
  list.deviceTable = nullptr;
}

namespace {
kernels::BlockTable tableOf(const BlockList &list) {
  const auto *t = static_cast<const int64_t *>(list.deviceTable);
  const int64_t n = static_cast<int64_t>(list.offsets.size());
  kernels::BlockTable b;
  b.offsets = t;
  b.lengths = t + n;
  b.packedAt = t + 2 * n;
  b.blocks = n;
  b.extent = list.extent;
  b.size = list.size;
  return b;
}
} // namespace

tempi_result packBlocks(const BlockList &list, const void *base, int64_t count, void *packed,
                        Stream s) {
  if (!available()) return TEMPI_ERR_UNSUPPORTED;
  if (list.offsets.empty() || list.size == 0 || count == 0) return count < 0 ? TEMPI_ERR_INVALID_ARG : TEMPI_SUCCESS;
  if (!list.deviceTable) return TEMPI_ERR_INVALID_ARG; // not uploaded
  internal::bump(internal::counters().launches);
  return kernels::packBlocks(tableOf(list), packed, base, count, static_cast<cudaStream_t>(s));
}

tempi_result unpackBlocks(const BlockList &list, void *base, const void *packed, int64_t count,
                          Stream s) {
  if (!available()) return TEMPI_ERR_UNSUPPORTED;
  if (list.offsets.empty() || list.size == 0 || count == 0) return count < 0 ? TEMPI_ERR_INVALID_ARG : TEMPI_SUCCESS;
  if (!list.deviceTable) return TEMPI_ERR_INVALID_ARG;
  internal::bump(internal::counters().launches);
  return kernels::unpackBlocks(tableOf(list), base, packed, count, static_cast<cudaStream_t>(s));
}

} // namespace tempi::device
