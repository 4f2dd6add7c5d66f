/// \file
/// A fake device layer (runtime/src/device/Device.h) for CPU-only machines, so the runtime's
/// device-buffer orchestration (wires, methods, requests, collectives, errors) runs in CI.
/// "Device" memory is mmap'ed and kept PROT_NONE outside the layer's own operations, so a device
/// pointer reaching the MPI faults. Kernels are the host reference packer (passes/), so packed
/// bytes are checked against the MPI's own. Not thread-safe (the tests are single-threaded).
/// IPC slabs are files in /tmp mapped shared, named in the handle, so ranks of one machine map
/// each other's slabs as CUDA IPC would and the IPC method's protocol runs in CI (files, not
/// /dev/shm, which containers often keep small: a sparse slab there faults when touched).
#include "../../runtime/src/device/Device.h"
#include "passes/ReferencePacker.h"
#include "runtime_fake_device.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
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

/// TEMPI_FAKE_UNPROTECTED=1 leaves "device" memory readable: no fault checks, but no mprotect
/// calls either, so a profile of libtempi's host path over this layer is not the kernel's.
bool unprotected() {
  static const bool on = getenv("TEMPI_FAKE_UNPROTECTED") != nullptr;
  return on;
}

/// Makes every device region accessible for the lifetime of the guard.
struct Open {
  Open() { protect(PROT_READ | PROT_WRITE); }
  ~Open() { protect(PROT_NONE); }
  static void protect(int prot) {
    if (unprotected()) return;
    for (auto &[p, r] : regions) mprotect(const_cast<char *>(p), r.mapped, prot);
  }
};

void *allocRegion(size_t bytes, bool runtime) {
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  size_t mapped = (bytes + page - 1) / page * page;
  if (mapped == 0) mapped = page;
  void *p = mmap(nullptr, mapped, unprotected() ? PROT_READ | PROT_WRITE : PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
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

/// What CUDA accepts as one copy's range: inside one device allocation, or touching no device
/// allocation at all (a real GPU refuses a copy that runs past its allocation or across two:
/// cudaErrorInvalidValue).
bool copyableRange(const void *p, size_t bytes) {
  const char *c = static_cast<const char *>(p);
  auto it = regions.upper_bound(c);
  if (it != regions.begin()) {
    auto prev = std::prev(it);
    if (c < prev->first + prev->second.mapped) return c + bytes <= prev->first + prev->second.mapped;
  }
  return it == regions.end() || c + bytes <= it->first;
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
// The fake device has no graphs: "now" is the launch path, which here runs at once.
void setPackGraphs(bool) {}
tempi_result packNow(const KernelPlan &plan, const void *base, int64_t count, void *packed) {
  return pack(plan, base, count, packed, nullptr);
}
tempi_result unpackNow(const KernelPlan &plan, void *base, const void *packed, int64_t count) {
  return unpack(plan, base, packed, count, nullptr);
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

// Unprotected (profiling) mode keeps freed runtime blocks for reuse, as the real layer's pools
// do, so a profile does not show mmap/munmap that a GPU run never makes.
std::multimap<size_t, void *> idleDevice, idlePinned;

void *takeIdle(std::multimap<size_t, void *> &idle, size_t bytes) {
  auto it = idle.find(bytes);
  if (it == idle.end()) return nullptr;
  void *p = it->second;
  idle.erase(it);
  return p;
}

void *allocDevice(size_t bytes) {
  if (failing("alloc")) return nullptr;
  void *p = unprotected() ? takeIdle(idleDevice, bytes) : nullptr;
  if (!p) p = allocRegion(bytes, true);
  if (p) ++runtimeOutstanding;
  return p;
}
void freeDevice(void *p) {
  auto it = regions.find(static_cast<const char *>(p));
  if (it == regions.end() || !it->second.runtime) abort(); // freeing what it does not own
  --runtimeOutstanding;
  if (unprotected()) idleDevice.emplace(it->second.bytes, p);
  else fake_device_free(p);
}
std::map<void *, size_t> pinnedBytes;
void *allocPinned(size_t bytes, bool) {
  if (failing("alloc")) return nullptr;
  void *p = unprotected() ? takeIdle(idlePinned, bytes) : nullptr;
  if (!p) p = malloc(bytes ? bytes : 1);
  if (p) {
    pinned.insert(p);
    if (unprotected()) pinnedBytes[p] = bytes;
    ++runtimeOutstanding;
  }
  return p;
}
void freePinned(void *p) {
  if (!pinned.erase(p)) abort();
  --runtimeOutstanding;
  if (unprotected()) idlePinned.emplace(pinnedBytes[p], p);
  else free(p);
}
void *mappedDevicePointer(void *pinnedHost) { return pinnedHost; }
tempi_result copyAsync(void *dst, const void *src, size_t bytes, Stream) {
  if (failing("copy")) return TEMPI_ERR_CUDA;
  if (!copyableRange(dst, bytes) || !copyableRange(src, bytes)) {
    fprintf(stderr, "fake device: a copy of %zu bytes runs past a device allocation\n", bytes);
    return TEMPI_ERR_CUDA;
  }
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
Counters counters() { return Counters{uint64_t(launches), 0, 0, 0, 0, 0, 0}; }
void setKernelTiming(bool) {} // the fake device runs no kernels to time
KernelTimes kernelTimes() { return {}; }
void setPoolLimit(size_t) {} // the fake device memory is not pooled

namespace {
struct SharedSlab {
  std::string name;
  char *base;
  size_t mapped;
};
std::vector<SharedSlab> ownSlabs;                ///< made here, unlinked at finalize
std::map<std::string, SharedSlab> openedSlabs;   ///< a peer's, by name

/// Maps file `name` (created when `create`) shared, as a fake device region.
char *mapShared(const std::string &name, size_t bytes, bool create, size_t *mappedOut) {
  int fd = open(name.c_str(), create ? O_CREAT | O_EXCL | O_RDWR : O_RDWR, 0600);
  if (fd < 0) return nullptr;
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  if (create && ftruncate(fd, off_t((bytes + page - 1) / page * page)) != 0) {
    close(fd);
    unlink(name.c_str());
    return nullptr;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size <= 0) {
    close(fd);
    return nullptr;
  }
  size_t mapped = size_t(st.st_size);
  void *p = mmap(nullptr, mapped, PROT_NONE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) return nullptr;
  regions[static_cast<const char *>(p)] = Region{mapped, mapped, false};
  *mappedOut = mapped;
  return static_cast<char *>(p);
}
} // namespace

void *ipcAllocSlab(size_t bytes) {
  if (failing("alloc") || bytes == 0) return nullptr;
  // A run that aborted leaves its files behind (finalize unlinks them), and a later process may
  // get the same pid: a random part keeps the name free (O_EXCL refuses a name that exists).
  static std::mt19937_64 random{std::random_device{}()};
  std::string name;
  char *p = nullptr;
  size_t mapped = 0;
  for (int attempt = 0; attempt < 8 && !p; ++attempt) {
    name = "/tmp/tempi-fake-ipc-" + std::to_string(getpid()) + "-" +
           std::to_string(ownSlabs.size()) + "-" + std::to_string(random() % 1000000007u);
    p = mapShared(name, bytes, true, &mapped);
    if (!p && errno != EEXIST) break;
  }
  if (!p) return nullptr;
  ownSlabs.push_back({name, p, mapped});
  return p;
}
tempi_result ipcGetHandle(const void *ptr, unsigned char handle[kIpcHandleBytes],
                          int64_t *offset) {
  const char *c = static_cast<const char *>(ptr);
  for (const SharedSlab &s : ownSlabs)
    if (c >= s.base && c < s.base + s.mapped && s.name.size() < kIpcHandleBytes) {
      memset(handle, 0, kIpcHandleBytes);
      memcpy(handle, s.name.data(), s.name.size());
      *offset = c - s.base;
      return TEMPI_SUCCESS;
    }
  return TEMPI_ERR_INVALID_ARG;
}
void *ipcOpen(const unsigned char handle[kIpcHandleBytes]) {
  std::string name(reinterpret_cast<const char *>(handle),
                   strnlen(reinterpret_cast<const char *>(handle), kIpcHandleBytes));
  auto it = openedSlabs.find(name);
  if (it != openedSlabs.end()) return it->second.base;
  size_t mapped = 0;
  char *p = mapShared(name, 0, false, &mapped);
  if (!p) return nullptr;
  openedSlabs[name] = {name, p, mapped};
  return p;
}
int currentDevice() { return 0; }
int deviceCount() { return 1; }
// TEMPI_FAKE_MPS=1: the GPU is shared through MPS (ipc's automatic size threshold).
bool sharedThroughMps(int) { return getenv("TEMPI_FAKE_MPS") != nullptr; }
// TEMPI_FAKE_NO_PEER_ACCESS=1: GPUs that cannot map each other's memory (ipc must stay off).
bool ipcPeersAccessible() { return !getenv("TEMPI_FAKE_NO_PEER_ACCESS"); }
void ipcCloseAll() {
  for (auto &[name, s] : openedSlabs) {
    regions.erase(s.base);
    munmap(s.base, s.mapped);
  }
  openedSlabs.clear();
}
void registerKernels(uint64_t, tempi_pack_fn, tempi_unpack_fn) {}
extern "C" long fake_device_ipc_slabs(void) { return long(ownSlabs.size()); }
extern "C" long fake_device_ipc_mapped(void) { return long(openedSlabs.size()); }
extern "C" void fake_device_select(int) {}
void finalize() {
  ipcCloseAll();
  for (const SharedSlab &s : ownSlabs) {
    regions.erase(s.base);
    munmap(s.base, s.mapped);
    unlink(s.name.c_str());
  }
  ownSlabs.clear();
}

} // namespace tempi::device
