/// \file
/// classify() and isDevice(): where a pointer lives, and allocationRange(). cudaPointerGetAttributes costs about
/// 0.2 us, so device ranges already seen are kept in a small per-thread cache (8 ranges, replaced
/// round robin). Only device allocations are cached. The assumption: a device allocation's
/// addresses lie in virtual memory the CUDA driver keeps reserved, so after the program frees it
/// they can only come back as another device (or managed) allocation, never as host memory; a
/// managed allocation there would be reported as Device (both are packed the same way). Host,
/// pinned and managed pointers are asked every time. Without a GPU every pointer is Host and CUDA
/// is never called.
#include "runtime/src/device/AddressRange.h"
#include "runtime/src/device/Device.h"
#include "runtime/src/device/HostRanges.h"

#include <cuda.h>
#include <cuda_runtime.h>

namespace tempi::device {

namespace {

using GetRangeFn = CUresult (*)(CUdeviceptr *base, size_t *size, CUdeviceptr p);

GetRangeFn getRangeFn() {
  static const GetRangeFn fn = []() -> GetRangeFn {
    void *f = nullptr;
    cudaDriverEntryPointQueryResult status{};
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &f, 12000, cudaEnableDefault,
                                         &status) != cudaSuccess ||
        status != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();
      return nullptr;
    }
    return reinterpret_cast<GetRangeFn>(f);
  }();
  return fn;
}

struct RangeCache {
  static constexpr int kSlots = 8;
  uintptr_t begin[kSlots] = {}, end[kSlots] = {};
  int next = 0;
  bool find(uintptr_t p) const {
    for (int i = 0; i < kSlots; ++i)
      if (p >= begin[i] && p < end[i]) return true;
    return false;
  }
  void insert(uintptr_t b, size_t n) {
    begin[next] = b;
    end[next] = b + n;
    next = (next + 1) % kSlots;
  }
};

thread_local RangeCache deviceRanges;

} // namespace

bool allocationRange(const void *p, uintptr_t *base, size_t *bytes) {
  if (!available()) return false;
  GetRangeFn fn = getRangeFn();
  if (!fn) return false;
  CUdeviceptr b = 0;
  size_t n = 0;
  if (fn(&b, &n, reinterpret_cast<CUdeviceptr>(p)) != CUDA_SUCCESS) return false;
  *base = static_cast<uintptr_t>(b);
  *bytes = n;
  return true;
}

MemKind classify(const void *p) {
  if (p == nullptr || !available()) return MemKind::Host;
  const uintptr_t u = reinterpret_cast<uintptr_t>(p);
  if (deviceRanges.find(u)) return MemKind::Device;
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError(); // a pointer CUDA does not know: host memory
    return MemKind::Host;
  }
  switch (a.type) {
  case cudaMemoryTypeDevice: {
    uintptr_t b = 0;
    size_t n = 0;
    if (allocationRange(p, &b, &n)) deviceRanges.insert(b, n);
    return MemKind::Device;
  }
  case cudaMemoryTypeHost: return MemKind::PinnedHost;
  case cudaMemoryTypeManaged: return MemKind::Managed;
  default: return MemKind::Host;
  }
}

bool isDevice(const void *p) {
  if (p == nullptr || !available()) return false;
  const uintptr_t u = reinterpret_cast<uintptr_t>(p);
  if (deviceRanges.find(u)) return true;
  if (knownHost(u)) return false;
  return classify(p) == MemKind::Device;
}

} // namespace tempi::device
