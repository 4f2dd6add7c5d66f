/// \file
/// The device layer of a build without CUDA (Device.h): no device is available, every pointer is
/// a host pointer, and every operation that needs a GPU returns TEMPI_ERR_UNSUPPORTED or nullptr.
/// The host side never calls those once available() is false; they exist so libtempi links.
#include "Device.h"

namespace tempi::device {

bool available() { return false; }
MemKind classify(const void *) { return MemKind::Host; }
bool isDevice(const void *) { return false; }
Stream defaultStream() { return nullptr; }
tempi_result synchronize(Stream) { return TEMPI_ERR_UNSUPPORTED; }

tempi_result pack(const KernelPlan &, const void *, int64_t, void *, Stream) {
  return TEMPI_ERR_UNSUPPORTED;
}
tempi_result unpack(const KernelPlan &, void *, const void *, int64_t, Stream) {
  return TEMPI_ERR_UNSUPPORTED;
}
tempi_result packNow(const KernelPlan &, const void *, int64_t, void *) {
  return TEMPI_ERR_UNSUPPORTED;
}
tempi_result unpackNow(const KernelPlan &, void *, const void *, int64_t) {
  return TEMPI_ERR_UNSUPPORTED;
}
void setPackGraphs(bool) {}
tempi_result packMany(const StridedJob *, size_t, Stream) { return TEMPI_ERR_UNSUPPORTED; }
tempi_result unpackMany(const StridedJob *, size_t, Stream) { return TEMPI_ERR_UNSUPPORTED; }
tempi_result uploadBlockList(BlockList &) { return TEMPI_ERR_UNSUPPORTED; }
void releaseBlockList(BlockList &list) { list.deviceTable = nullptr; }
tempi_result packBlocks(const BlockList &, const void *, int64_t, void *, Stream) {
  return TEMPI_ERR_UNSUPPORTED;
}
tempi_result unpackBlocks(const BlockList &, void *, const void *, int64_t, Stream) {
  return TEMPI_ERR_UNSUPPORTED;
}

void *allocDevice(size_t) { return nullptr; }
void freeDevice(void *) {}
void *allocPinned(size_t, bool) { return nullptr; }
void freePinned(void *) {}
void *mappedDevicePointer(void *) { return nullptr; }
tempi_result copyAsync(void *, const void *, size_t, Stream) { return TEMPI_ERR_UNSUPPORTED; }
tempi_result copyManyAsync(void *const *, const void *const *, const size_t *, size_t, Stream) {
  return TEMPI_ERR_UNSUPPORTED;
}
void finalize() {}
Counters counters() { return {}; }
void setKernelTiming(bool) {}
KernelTimes kernelTimes() { return {}; }
void setPoolLimit(size_t) {}

tempi_result ipcGetHandle(const void *, unsigned char[kIpcHandleBytes], int64_t *) {
  return TEMPI_ERR_UNSUPPORTED;
}
void *ipcOpen(const unsigned char[kIpcHandleBytes]) { return nullptr; }
void *ipcAllocSlab(size_t) { return nullptr; }
int currentDevice() { return 0; }
int deviceCount() { return 0; }
bool sharedThroughMps(int) { return false; }
bool ipcPeersAccessible() { return false; }
void ipcCloseAll() {}

void registerKernels(uint64_t, tempi_pack_fn, tempi_unpack_fn) {}

} // namespace tempi::device
