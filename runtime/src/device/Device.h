/// \file
/// The device layer: everything the runtime does with CUDA, behind one small interface, so the
/// host side (interposers, requests, transfer orchestration) never includes a CUDA header.
/// Built from runtime/src/device/*.cu with CUDA, or from NoDevice.cpp without it (then
/// available() is false, every pointer is Host, and everything else returns TEMPI_ERR_UNSUPPORTED).
///
/// Errors: every CUDA call goes through one check macro that reports file:line, the call and the
/// code, clears the sticky error and returns TEMPI_ERR_CUDA; nothing here aborts.
#pragma once

#include "passes/KernelPlan.h"
#include "passes/StridedBlock.h"
#include "tempi/tempi.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tempi::device {

/// True when a CUDA device is usable (a driver and at least one GPU). Cached after the first call.
bool available();

enum class MemKind { Host, PinnedHost, Device, Managed };
/// Where `p` lives (cudaPointerGetAttributes; Host for any pointer CUDA does not know, and always
/// Host without a GPU). Must cost well under 0.3 us (cache the answer for recently seen ranges).
MemKind classify(const void *p);
/// classify(p) == Device, answered without CUDA for addresses that are always host memory (the
/// thread's stack, the brk heap, the program's globals; HostRanges.h): the per-call question.
bool isDevice(const void *p);

using Stream = void *; ///< a cudaStream_t

/// The runtime's own non-blocking stream for the calling thread.
Stream defaultStream();
tempi_result synchronize(Stream s);

/// Pack `count` elements of `plan` (element i at base + i*extent) into `packed`, which may be
/// device memory or mapped pinned host memory (the one-shot method). Enqueued on `s`; does not
/// synchronize. Uses the kernels registered for plan.shape's shapeKey when the address fits their
/// word size, else the generic templates (W lowered to fit the base address).
tempi_result pack(const KernelPlan &plan, const void *base, int64_t count, void *packed, Stream s);
tempi_result unpack(const KernelPlan &plan, void *base, const void *packed, int64_t count,
                    Stream s);
/// The same with the plan's shapeKey already known (0: compute it), so that the per-call path
/// never hashes the shape when kernels are registered (the host side caches the key per type).
tempi_result packKeyed(const KernelPlan &plan, uint64_t shapeKey, const void *base, int64_t count,
                       void *packed, Stream s);
tempi_result unpackKeyed(const KernelPlan &plan, uint64_t shapeKey, void *base,
                         const void *packed, int64_t count, Stream s);

/// pack()/unpack() on the thread's stream, which is then synchronized (MPI_Pack and MPI_Unpack
/// between device buffers). A call that repeats an earlier one exactly (shape, addresses, count,
/// direction) replays a CUDA graph of its launch, which costs less than a launch (PackNow.cpp).
tempi_result packNow(const KernelPlan &plan, const void *base, int64_t count, void *packed);
tempi_result unpackNow(const KernelPlan &plan, void *base, const void *packed, int64_t count);
/// TEMPI_PACK_GRAPHS: whether packNow/unpackNow replay graphs (on by default).
void setPackGraphs(bool on);

/// One strided pack (strided -> packed) or unpack (packed -> strided) of a batch.
struct StridedJob {
  const KernelPlan *plan = nullptr;
  uint64_t shapeKey = 0; ///< 0: compute it when kernels are registered
  void *strided = nullptr;
  void *packed = nullptr;
  int64_t count = 0;
};
/// Several packs (or unpacks) enqueued together: one job takes the single-job path above
/// (registered kernels included); more run as one fused launch of the generic kernel that
/// walks every job's shape (Fused.cu), in chunks when there are very many. Does not synchronize.
tempi_result packMany(const StridedJob *jobs, size_t n, Stream s);
tempi_result unpackMany(const StridedJob *jobs, size_t n, Stream s);

/// Irregular types: a list of (offset, bytes) blocks of one element, in pack order.
struct BlockList {
  std::vector<int64_t> offsets, lengths; ///< host copies
  int64_t extent = 0, size = 0;
  void *deviceTable = nullptr;           ///< uploaded (offsets, lengths, prefix sums); owned
};
tempi_result uploadBlockList(BlockList &list);
void releaseBlockList(BlockList &list);
tempi_result packBlocks(const BlockList &list, const void *base, int64_t count, void *packed,
                        Stream s);
tempi_result unpackBlocks(const BlockList &list, void *base, const void *packed, int64_t count,
                          Stream s);

/// What the device layer did since MPI_Init, for the log at MPI_Finalize (TEMPI_LOG=info) and
/// for benchmarks that report launches per exchange. Relaxed counters: exact in one thread.
struct Counters {
  uint64_t launches = 0;        ///< pack/unpack kernel launches (fused ones included)
  uint64_t fusedLaunches = 0;   ///< launches of the fused kernel
  uint64_t fusedJobs = 0;       ///< jobs those fused launches covered
  uint64_t synchronizations = 0;
  uint64_t syncMicros = 0;      ///< wall time the host spent in those synchronizations
  uint64_t copyCalls = 0;       ///< copy calls made to CUDA (a batched call counts once)
  uint64_t copies = 0;          ///< copies those calls made
  uint64_t tableUploads = 0;    ///< fused launches whose segment table was uploaded
  uint64_t tableShifts = 0;     ///< fused launches that reused the device's table, moved
  uint64_t graphLaunches = 0;   ///< of the launches, graph replays (PackNow.cpp)
};
Counters counters();

/// TEMPI_TIME_KERNELS: GPU time of the fused pack/unpack launches (CUDA events around each, the
/// first 4096 launches). kernelTimes() waits for the recorded launches; call it at finalize.
void setKernelTiming(bool on);
struct KernelTimes {
  uint64_t packLaunches = 0, unpackLaunches = 0;
  double packMedianUs = 0, unpackMedianUs = 0;
};
KernelTimes kernelTimes();

/// Memory. Pools are bounded (TEMPI_POOL_BYTES) and everything is released by finalize().
/// The bound caps the bytes each pool keeps idle for reuse; allocations in use are never refused
/// for it. setPoolLimit overrides TEMPI_POOL_BYTES (the host side's settings may call it).
void setPoolLimit(size_t bytes);
void *allocDevice(size_t bytes);
void freeDevice(void *p);
void *allocPinned(size_t bytes, bool mapped); ///< pinned host memory, mapped for one-shot
void freePinned(void *p);
void *mappedDevicePointer(void *pinnedHost);  ///< the device alias of mapped pinned memory
tempi_result copyAsync(void *dst, const void *src, size_t bytes, Stream s); ///< any direction
/// n independent copies (no destination overlaps another copy) enqueued with one call: CUDA's
/// batched copy (cudaMemcpyBatchAsync), one cudaMemcpyAsync each where the driver lacks it. They
/// are ordered after earlier work on the stream and before later work, in any order among
/// themselves.
tempi_result copyManyAsync(void *const *dsts, const void *const *srcs, const size_t *sizes,
                           size_t n, Stream s);
void finalize();

/// CUDA IPC for ranks on one node (handles are plain bytes, exchanged over MPI by the host side).
constexpr size_t kIpcHandleBytes = 64;
tempi_result ipcGetHandle(const void *devicePtr, unsigned char handle[kIpcHandleBytes],
                          int64_t *offsetInAllocation);
void *ipcOpen(const unsigned char handle[kIpcHandleBytes]); ///< cached per handle; nullptr on error
/// Device memory that peers may map (the IPC method's packed messages): its own allocation, never
/// pooled and never freed before finalize(), because freeing memory a peer still has mapped is
/// undefined in CUDA. nullptr when it cannot be had.
void *ipcAllocSlab(size_t bytes);
/// The calling thread's current CUDA device (IPC slabs are per device); 0 without a GPU.
int currentDevice();
/// The GPUs this process sees (CUDA_VISIBLE_DEVICES applied); 0 without a GPU.
int deviceCount();
/// Whether processes share `device` through MPS (one context for all: their kernels run side by
/// side instead of in turns). Cached per device; false without a GPU.
bool sharedThroughMps(int device);
/// Whether every pair of GPUs this process sees can access each other's memory (peer access:
/// what a mapping of another GPU's IPC memory needs). True with one GPU.
bool ipcPeersAccessible();
/// Closes every peer mapping ipcOpen made. The host side calls it at MPI_Finalize before the
/// job-wide barrier after which the peers free their slabs.
void ipcCloseAll();

/// Registration of generated kernels (tempi_register_kernels forwards here).
void registerKernels(uint64_t shapeKey, tempi_pack_fn pack, tempi_unpack_fn unpack);

} // namespace tempi::device
