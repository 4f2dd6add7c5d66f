/// \file
/// A fake device layer (runtime/src/device/Device.h) for CPU-only machines, so the runtime's
/// device-buffer orchestration (wires, methods, requests, collectives, errors) runs in CI.
/// "Device" memory is mmap'ed and kept PROT_NONE outside the layer's own operations, so a device
/// pointer reaching the MPI faults. Kernels are the host reference packer (passes/), so packed
/// bytes are checked against the MPI's own. Not thread-safe (the tests are single-threaded).
#include "../../runtime/src/device/Device.h"
#include "passes/ReferencePacker.h"
#include "runtime_fake_device.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace {

struct Region {
  size_t bytes;  ///< requested
  size_t mapped; ///< page-rounded
  bool runtime;  ///< allocated by libtempi (allocDevice), not by the test
};
std::map<const char *, Region> regions;
std::set<void *> pinned;
long runtimeOutstanding = 0, launches = 0, copies = 0;

bool failing(const char *what) {
  const char *f = getenv("TEMPI_FAKE_FAIL");
  return f && !strcmp(f, what);
}

/// Makes every device region accessible for the lifetime of the guard.
struct Open {
  Open() { protect(PROT_READ | PROT_WRITE); }
  ~Open() { protect(PROT_NONE); }
  static void protect(int prot) {
    for (auto &[p, r] : regions) mprotect(const_cast<char *>(p), r.mapped, prot);
  }
};

void *allocRegion(size_t bytes, bool runtime) {
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  size_t mapped = (bytes + page - 1) / page * page;
  if (mapped == 0) mapped = page;
  void *p = mmap(nullptr, mapped, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  regions[static_cast<const char *>(p)] = Region{bytes, mapped, runtime};
  return p;
}

const Region *find(const void *p) {
  const char *c = static_cast<const char *>(p);
  auto it = regions.upper_bound(c);
  if (it == regions.begin()) return nullptr;
  --it;
  return c < it->first + it->second.mapped ? &it->second : nullptr;
}

} // namespace

extern "C" {
void *fake_device_alloc(size_t bytes) { return allocRegion(bytes, false); }
void fake_device_free(void *p) {
  auto it = regions.find(static_cast<const char *>(p));
  if (it == regions.end()) return;
  munmap(p, it->second.mapped);
  regions.erase(it);
}
void fake_device_memcpy(void *dst, const void *src, size_t bytes) {
  Open open;
  memmove(dst, src, bytes);
}
int fake_device_is_device(const void *p) { return find(p) != nullptr; }
long fake_device_runtime_outstanding(void) { return runtimeOutstanding; }
long fake_device_kernel_launches(void) { return launches; }
long fake_device_copies(void) { return copies; }
}


namespace tempi::device {

bool available() { return true; }
MemKind classify(const void *p) {
  if (find(p)) return MemKind::Device;
  if (pinned.count(const_cast<void *>(p))) return MemKind::PinnedHost;
  return MemKind::Host;
}
bool isDevice(const void *p) { return find(p) != nullptr; }
Stream defaultStream() { return nullptr; }
tempi_result synchronize(Stream) { return TEMPI_SUCCESS; }

tempi_result pack(const KernelPlan &plan, const void *base, int64_t count, void *packed, Stream) {
  if (failing("pack")) return TEMPI_ERR_CUDA;
  Open open;
  ++launches;
  packStrided(plan.shape, count, static_cast<const unsigned char *>(base),
              static_cast<unsigned char *>(packed));
  return TEMPI_SUCCESS;
}
tempi_result unpack(const KernelPlan &plan, void *base, const void *packed, int64_t count, Stream) {
  if (failing("pack")) return TEMPI_ERR_CUDA;
  Open open;
  ++launches;
  unpackStrided(plan.shape, count, static_cast<const unsigned char *>(packed),
                static_cast<unsigned char *>(base));
  return TEMPI_SUCCESS;
}

// A batch of more than one job is one (fused) launch, as on the GPU.
template <bool Pack> tempi_result runMany(const StridedJob *jobs, size_t n) {
  if (n == 1)
    return Pack ? pack(*jobs[0].plan, jobs[0].strided, jobs[0].count, jobs[0].packed, nullptr)
                : unpack(*jobs[0].plan, jobs[0].strided, jobs[0].packed, jobs[0].count, nullptr);
  if (n == 0) return TEMPI_SUCCESS;
  if (failing("pack")) return TEMPI_ERR_CUDA;
  Open open;
  ++launches;
  for (size_t i = 0; i < n; ++i) {
    const StridedJob &j = jobs[i];
    if (Pack)
      packStrided(j.plan->shape, j.count, static_cast<const unsigned char *>(j.strided),
                  static_cast<unsigned char *>(j.packed));
    else
      unpackStrided(j.plan->shape, j.count, static_cast<const unsigned char *>(j.packed),
                    static_cast<unsigned char *>(j.strided));
  }
  return TEMPI_SUCCESS;
}
tempi_result packMany(const StridedJob *jobs, size_t n, Stream) { return runMany<true>(jobs, n); }
tempi_result unpackMany(const StridedJob *jobs, size_t n, Stream) { return runMany<false>(jobs, n); }

tempi_result uploadBlockList(BlockList &list) {
  list.deviceTable = &list; // nothing to upload: the host copies serve
  return TEMPI_SUCCESS;
}
void releaseBlockList(BlockList &list) { list.deviceTable = nullptr; }
tempi_result packBlocks(const BlockList &list, const void *base, int64_t count, void *packed,
                        Stream) {
  if (failing("pack")) return TEMPI_ERR_CUDA;
  if (!list.deviceTable) return TEMPI_ERR_INTERNAL; // the runtime must upload first
  Open open;
  ++launches;
  const char *b = static_cast<const char *>(base);
  char *out = static_cast<char *>(packed);
  for (int64_t i = 0; i < count; ++i)
    for (size_t k = 0; k < list.offsets.size(); ++k) {
      memcpy(out, b + i * list.extent + list.offsets[k], size_t(list.lengths[k]));
      out += list.lengths[k];
    }
  return TEMPI_SUCCESS;
}
tempi_result unpackBlocks(const BlockList &list, void *base, const void *packed, int64_t count,
                          Stream) {
  if (failing("pack")) return TEMPI_ERR_CUDA;
  if (!list.deviceTable) return TEMPI_ERR_INTERNAL;
  Open open;
  ++launches;
  char *b = static_cast<char *>(base);
  const char *in = static_cast<const char *>(packed);
  for (int64_t i = 0; i < count; ++i)
    for (size_t k = 0; k < list.offsets.size(); ++k) {
      memcpy(b + i * list.extent + list.offsets[k], in, size_t(list.lengths[k]));
      in += list.lengths[k];
    }
  return TEMPI_SUCCESS;
}

void *allocDevice(size_t bytes) {
  if (failing("alloc")) return nullptr;
  void *p = allocRegion(bytes, true);
  if (p) ++runtimeOutstanding;
  return p;
}
void freeDevice(void *p) {
  auto it = regions.find(static_cast<const char *>(p));
  if (it == regions.end() || !it->second.runtime) abort(); // freeing what it does not own
  --runtimeOutstanding;
  fake_device_free(p);
}
void *allocPinned(size_t bytes, bool) {
  if (failing("alloc")) return nullptr;
  void *p = malloc(bytes ? bytes : 1);
  if (p) {
    pinned.insert(p);
    ++runtimeOutstanding;
  }
  return p;
}
void freePinned(void *p) {
  if (!pinned.erase(p)) abort();
  --runtimeOutstanding;
  free(p);
}
void *mappedDevicePointer(void *pinnedHost) { return pinnedHost; }
tempi_result copyAsync(void *dst, const void *src, size_t bytes, Stream) {
  if (failing("copy")) return TEMPI_ERR_CUDA;
  Open open;
  memmove(dst, src, bytes);
  ++copies;
  return TEMPI_SUCCESS;
}
tempi_result copyManyAsync(void *const *dsts, const void *const *srcs, const size_t *sizes,
                           size_t n, Stream s) {
  for (size_t i = 0; i < n; ++i)
    if (tempi_result r = copyAsync(dsts[i], srcs[i], sizes[i], s); r != TEMPI_SUCCESS) return r;
  return TEMPI_SUCCESS;
}
void finalize() {}
Counters counters() { return Counters{uint64_t(launches), 0, 0, 0, 0, 0, 0}; }
void setKernelTiming(bool) {} // the fake device runs no kernels to time
KernelTimes kernelTimes() { return {}; }
void setPoolLimit(size_t) {} // the fake device memory is not pooled

tempi_result ipcGetHandle(const void *, unsigned char[kIpcHandleBytes], int64_t *) {
  return TEMPI_ERR_UNSUPPORTED;
}
void *ipcOpen(const unsigned char[kIpcHandleBytes]) { return nullptr; }
void registerKernels(uint64_t, tempi_pack_fn, tempi_unpack_fn) {}

} // namespace tempi::device
