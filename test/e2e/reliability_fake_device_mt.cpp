/// \file
/// The fake device layer (runtime_fake_device.cpp) made safe for several threads, for the
/// MPI_THREAD_MULTIPLE test (reliability_threads.c). The fake layer keeps one map of "device"
/// regions and makes them all accessible while one of its operations runs, so two threads inside
/// it at once would race on the map and re-protect memory the other is still copying. This file
/// compiles that layer unchanged under other names (each Device.h function and each
/// fake_device_* helper gets a `mt_unlocked_` prefix) and defines the real names as the same
/// calls under one process-wide lock. libtempi's own code (request table, type cache, staging)
/// still runs concurrently: only the fake GPU is serialized, as one GPU's work would be.
/// Refuses nothing; adds no behaviour besides the lock.
#include "../../runtime/src/device/Device.h"
#include "passes/ReferencePacker.h"
#include "runtime_fake_device.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

// Each Device.h function and fake_device_* helper, as a token, becomes mt_unlocked_<name> inside the included layer. Device.h,
// the headers and the C API header were included above, so their declarations keep the real
// names; the included definitions declare new (prefixed) functions.
#define available mt_unlocked_available
#define classify mt_unlocked_classify
#define isDevice mt_unlocked_isDevice
#define defaultStream mt_unlocked_defaultStream
#define synchronize mt_unlocked_synchronize
#define pack mt_unlocked_pack
#define unpack mt_unlocked_unpack
#define packMany mt_unlocked_packMany
#define unpackMany mt_unlocked_unpackMany
#define uploadBlockList mt_unlocked_uploadBlockList
#define releaseBlockList mt_unlocked_releaseBlockList
#define packBlocks mt_unlocked_packBlocks
#define unpackBlocks mt_unlocked_unpackBlocks
#define setPoolLimit mt_unlocked_setPoolLimit
#define allocDevice mt_unlocked_allocDevice
#define freeDevice mt_unlocked_freeDevice
#define allocPinned mt_unlocked_allocPinned
#define freePinned mt_unlocked_freePinned
#define mappedDevicePointer mt_unlocked_mappedDevicePointer
#define copyAsync mt_unlocked_copyAsync
#define copyManyAsync mt_unlocked_copyManyAsync
#define finalize mt_unlocked_finalize
#define ipcGetHandle mt_unlocked_ipcGetHandle
#define ipcOpen mt_unlocked_ipcOpen
#define registerKernels mt_unlocked_registerKernels
#define fake_device_alloc mt_unlocked_fake_device_alloc
#define fake_device_free mt_unlocked_fake_device_free
#define fake_device_memcpy mt_unlocked_fake_device_memcpy
#define fake_device_is_device mt_unlocked_fake_device_is_device
#define fake_device_runtime_outstanding mt_unlocked_fake_device_runtime_outstanding
#define fake_device_kernel_launches mt_unlocked_fake_device_kernel_launches
#define fake_device_copies mt_unlocked_fake_device_copies
#include "runtime_fake_device.cpp"
#undef available
#undef classify
#undef isDevice
#undef defaultStream
#undef synchronize
#undef pack
#undef unpack
#undef packMany
#undef unpackMany
#undef uploadBlockList
#undef releaseBlockList
#undef packBlocks
#undef unpackBlocks
#undef setPoolLimit
#undef allocDevice
#undef freeDevice
#undef allocPinned
#undef freePinned
#undef mappedDevicePointer
#undef copyAsync
#undef copyManyAsync
#undef finalize
#undef ipcGetHandle
#undef ipcOpen
#undef registerKernels
#undef fake_device_alloc
#undef fake_device_free
#undef fake_device_memcpy
#undef fake_device_is_device
#undef fake_device_runtime_outstanding
#undef fake_device_kernel_launches
#undef fake_device_copies

namespace {
std::recursive_mutex &lock() {
  static std::recursive_mutex m;
  return m;
}
} // namespace
#define LOCKED(call)                                                                              \
  std::lock_guard<std::recursive_mutex> guard_(lock());                                           \
  return call

namespace tempi::device {
bool available() { LOCKED(mt_unlocked_available()); }
MemKind classify(const void *p) { LOCKED(mt_unlocked_classify(p)); }
bool isDevice(const void *p) { LOCKED(mt_unlocked_isDevice(p)); }
Stream defaultStream() { LOCKED(mt_unlocked_defaultStream()); }
tempi_result synchronize(Stream s) { LOCKED(mt_unlocked_synchronize(s)); }
tempi_result pack(const KernelPlan &plan, const void *base, int64_t count, void *packed, Stream s) {
  LOCKED(mt_unlocked_pack(plan, base, count, packed, s));
}
tempi_result unpack(const KernelPlan &plan, void *base, const void *packed, int64_t count,
                    Stream s) {
  LOCKED(mt_unlocked_unpack(plan, base, packed, count, s));
}
tempi_result packMany(const StridedJob *jobs, size_t n, Stream s) {
  LOCKED(mt_unlocked_packMany(jobs, n, s));
}
tempi_result unpackMany(const StridedJob *jobs, size_t n, Stream s) {
  LOCKED(mt_unlocked_unpackMany(jobs, n, s));
}
tempi_result uploadBlockList(BlockList &list) { LOCKED(mt_unlocked_uploadBlockList(list)); }
void releaseBlockList(BlockList &list) { LOCKED(mt_unlocked_releaseBlockList(list)); }
tempi_result packBlocks(const BlockList &list, const void *base, int64_t count, void *packed,
                        Stream s) {
  LOCKED(mt_unlocked_packBlocks(list, base, count, packed, s));
}
tempi_result unpackBlocks(const BlockList &list, void *base, const void *packed, int64_t count,
                          Stream s) {
  LOCKED(mt_unlocked_unpackBlocks(list, base, packed, count, s));
}
void setPoolLimit(size_t bytes) { LOCKED(mt_unlocked_setPoolLimit(bytes)); }
void *allocDevice(size_t bytes) { LOCKED(mt_unlocked_allocDevice(bytes)); }
void freeDevice(void *p) { LOCKED(mt_unlocked_freeDevice(p)); }
void *allocPinned(size_t bytes, bool mapped) { LOCKED(mt_unlocked_allocPinned(bytes, mapped)); }
void freePinned(void *p) { LOCKED(mt_unlocked_freePinned(p)); }
void *mappedDevicePointer(void *pinnedHost) { LOCKED(mt_unlocked_mappedDevicePointer(pinnedHost)); }
tempi_result copyAsync(void *dst, const void *src, size_t bytes, Stream s) {
  LOCKED(mt_unlocked_copyAsync(dst, src, bytes, s));
}
tempi_result copyManyAsync(void *const *dsts, const void *const *srcs, const size_t *sizes,
                           size_t n, Stream s) {
  LOCKED(mt_unlocked_copyManyAsync(dsts, srcs, sizes, n, s));
}
void finalize() { LOCKED(mt_unlocked_finalize()); }
tempi_result ipcGetHandle(const void *devicePtr, unsigned char handle[kIpcHandleBytes],
                          int64_t *offsetInAllocation) {
  LOCKED(mt_unlocked_ipcGetHandle(devicePtr, handle, offsetInAllocation));
}
void *ipcOpen(const unsigned char handle[kIpcHandleBytes]) { LOCKED(mt_unlocked_ipcOpen(handle)); }
void registerKernels(uint64_t shapeKey, tempi_pack_fn packFn, tempi_unpack_fn unpackFn) {
  LOCKED(mt_unlocked_registerKernels(shapeKey, packFn, unpackFn));
}
} // namespace tempi::device

extern "C" {
void *fake_device_alloc(size_t bytes) { LOCKED(mt_unlocked_fake_device_alloc(bytes)); }
void fake_device_free(void *p) { LOCKED(mt_unlocked_fake_device_free(p)); }
void fake_device_memcpy(void *dst, const void *src, size_t bytes) {
  LOCKED(mt_unlocked_fake_device_memcpy(dst, src, bytes));
}
int fake_device_is_device(const void *p) { LOCKED(mt_unlocked_fake_device_is_device(p)); }
long fake_device_runtime_outstanding(void) { LOCKED(mt_unlocked_fake_device_runtime_outstanding()); }
long fake_device_kernel_launches(void) { LOCKED(mt_unlocked_fake_device_kernel_launches()); }
long fake_device_copies(void) { LOCKED(mt_unlocked_fake_device_copies()); }
}
