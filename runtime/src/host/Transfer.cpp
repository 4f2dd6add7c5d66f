/// \file
/// Staging, packing and unpacking of one buffer argument (Transfer.h), through the device layer.
#include "Transfer.h"
#include "TransferInternal.h"

#include "Batch.h"
#include "BurstArena.h"
#include "GpuSharing.h"
#include "Handles.h"
#include "Ipc.h"
#include "MethodStats.h"
#include "Model.h"
#include "Runtime.h"
#include "StaticPlan.h"
#include "TypeCache.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tempi {

#define TEMPI_TRY(expr)                                                                           \
  do {                                                                                            \
    tempi_result tempi_r_ = (expr);                                                               \
    if (tempi_r_ != TEMPI_SUCCESS) return tempi_r_;                                               \
  } while (0)

void releaseStaging(Staging &s) {
  if (s.arena) { // a burst slice: the arena goes with its last slice
    s = Staging{};
    return;
  }
  if (s.device) device::freeDevice(s.device);
  if (s.host) {
    if (s.pinned)
      device::freePinned(s.host);
    else
      free(s.host);
  }
  s = Staging{};
}

void releaseWire(Wire &w) { releaseStaging(w.staging); }

tempi_result copyAndSync(void *dst, const void *src, size_t bytes) {
  if (bytes == 0) return TEMPI_SUCCESS;
  device::Stream s = device::defaultStream();
  TEMPI_TRY(device::copyAsync(dst, src, bytes, s));
  return device::synchronize(s);
}

namespace {

/// The runs of one element of a non-mirror plan in pack order, merged where one continues the
/// previous (two plans of one layout may cut them differently).
std::vector<std::pair<int64_t, int64_t>> mergedRuns(const TypePlan &p) {
  std::vector<std::pair<int64_t, int64_t>> runs;
  forEachRun(p, 0, p.size, [&runs](int64_t off, int64_t n) {
    if (!runs.empty() && runs.back().first + runs.back().second == off)
      runs.back().second += n;
    else
      runs.emplace_back(off, n);
  });
  return runs;
}

/// The runs `count` elements of an MPI_BOTTOM type touch, as absolute (offset, bytes): one
/// element's runs (mergedRuns) stepped by the extent, sorted, overlapping and adjacent ones merged.
/// Strided and Blocks plans only (a Mirror plan has no run list: its span is copied whole).
std::vector<std::pair<int64_t, int64_t>> absoluteRuns(const TypePlan &p, int64_t count) {
  const std::vector<std::pair<int64_t, int64_t>> element = mergedRuns(p);
  std::vector<std::pair<int64_t, int64_t>> runs;
  runs.reserve(element.size() * size_t(count));
  for (int64_t i = 0; i < count; ++i)
    for (const auto &[off, n] : element) runs.emplace_back(i * p.extent + off, n);
  std::sort(runs.begin(), runs.end());
  std::vector<std::pair<int64_t, int64_t>> merged;
  for (const auto &r : runs) {
    if (!merged.empty() && r.first <= merged.back().first + merged.back().second)
      merged.back().second =
          std::max(merged.back().second, r.first + r.second - merged.back().first);
    else
      merged.push_back(r);
  }
  return merged;
}

/// Copies between the user's memory and the mirror's host copy: the whole span, or for MPI_BOTTOM
/// the type's runs. `copy(dst, src, bytes)` does one copy.
template <typename Copy> tempi_result copyMirror(const Wire &w, bool toHost, Copy &&copy) {
  if (w.mirrorRuns.empty()) {
    void *user = addressAt(w.userBuf, w.spanLo);
    return toHost ? copy(w.staging.host, user, w.staging.bytes)
                  : copy(user, w.staging.host, w.staging.bytes);
  }
  for (const auto &[off, n] : w.mirrorRuns) {
    void *user = addressAt(w.userBuf, off);
    void *host = addressAt(w.staging.host, off - w.spanLo);
    TEMPI_TRY(toHost ? copy(host, user, size_t(n)) : copy(user, host, size_t(n)));
  }
  return TEMPI_SUCCESS;
}

std::mutex staticMutex;
std::unordered_map<const tempi_static_plan *, TypePlanPtr> staticPlans;

/// Host memory for staging: pinned from the device layer's pool, else (pool exhausted) pageable.
tempi_result allocHost(Staging &s, size_t bytes, bool mapped) {
  s.host = device::allocPinned(bytes, mapped);
  if (s.host) {
    s.pinned = true;
    s.mapped = mapped;
    return TEMPI_SUCCESS;
  }
  if (mapped) return TEMPI_ERR_NO_MEMORY; // the caller falls back to the staged method
  s.host = malloc(bytes);
  return s.host ? TEMPI_SUCCESS : TEMPI_ERR_NO_MEMORY;
}

/// Staging for `bytes` packed bytes by method `m`; a one-shot buffer that cannot be mapped turns
/// the method into staged.
tempi_result allocStaging(Staging &s, size_t bytes, Method &m) {
  s.bytes = bytes;
  if (bytes == 0) return TEMPI_SUCCESS;
  if (m == Method::OneShot && allocHost(s, bytes, true) != TEMPI_SUCCESS) m = Method::Staged;
  if (m == Method::Staged || m == Method::Device) {
    s.device = device::allocDevice(bytes);
    if (!s.device) return TEMPI_ERR_NO_MEMORY;
  }
  if (m == Method::Staged) TEMPI_TRY(allocHost(s, bytes, false));
  return TEMPI_SUCCESS;
}

/// Common setup: plan, size, mirror or packed, staging.
tempi_result setUp(void *buf, MPI_Count count, MPI_Datatype type, const tempi_static_plan *sp,
                   Direction dir, bool largeCount, MPI_Comm comm, int dest, Wire &w) {
  w.ptr = buf;
  w.count = count;
  w.type = type;
  if (!deviceData(buf, count, type)) return TEMPI_SUCCESS;
  if (count <= 0) { // nothing moves: the MPI never sees the device pointer
    w.ptr = nullptr;
    return TEMPI_SUCCESS;
  }
  TypePlanPtr plan = planFor(type, sp);
  if (plan->invalid) return TEMPI_SUCCESS; // the MPI gets the call as it is and reports the handle
  w.staged = true;
  w.userBuf = buf;
  w.userCount = count;
  w.userType = type;
  w.plan = std::move(plan);
  if (w.plan->size > 0 && count > INT64_MAX / w.plan->size) return TEMPI_ERR_INVALID_ARG;
  w.packedBytes = int64_t(count) * w.plan->size;
  // MPI_BOTTOM takes the mirror: the span the type touches, copied to the host, is given to the
  // MPI at the address that puts the type's absolute displacements inside it.
  if (w.plan->kind == TypePlan::Kind::Mirror || (w.packedBytes > INT_MAX && !largeCount) ||
      buf == MPI_BOTTOM) {
    w.mirror = true;
    touchedSpan(*w.plan, count, &w.spanLo, &w.spanHi);
    if (buf == MPI_BOTTOM && w.plan->kind != TypePlan::Kind::Mirror)
      w.mirrorRuns = absoluteRuns(*w.plan, int64_t(count));
    Staging &s = w.staging;
    s.bytes = size_t(w.spanHi - w.spanLo);
    if (s.bytes) TEMPI_TRY(allocHost(s, s.bytes, false));
    w.ptr = addressAt(s.host, -w.spanLo);
    return TEMPI_SUCCESS;
  }
  if (dir == Direction::Send && settings().method == Method::Ipc && ipc::active() &&
      ipc::largeEnough(w.packedBytes, w.plan->contiguous) && ipc::peerFor(comm, dest) >= 0) {
    // The MPI carries a notice; each pack takes a part of a slab (ipc::takeRegion).
    w.method = Method::Ipc;
    w.staging.bytes = ipc::kNoticeBytes;
    w.staging.host = malloc(ipc::kNoticeBytes);
    if (!w.staging.host) return TEMPI_ERR_NO_MEMORY;
    methodstats::note(w.method, w.packedBytes, w.plan->contiguous);
    w.ptr = w.staging.host;
    w.count = MPI_Count(ipc::kNoticeBytes);
    w.type = MPI_BYTE;
    return TEMPI_SUCCESS;
  }
  // In a burst the staged method's copies merge into one per direction (BurstArena.h), which
  // beats the one-shot method's zero-copy kernels; a forced one-shot and the device method stay.
  // Without a CUDA-aware MPI the model cannot pick the device method, so a burst's wire is
  // staged whatever it estimates and the estimate is skipped (it is on every request's path).
  const bool burstable = inBurst() && (settings().method == Method::Auto ||
                                       settings().method == Method::Staged);
  const bool cudaAware = runtime::mpiCudaAware();
  const bool toSend = dir == Direction::Send;
  bool sliced = burstable && !cudaAware && takeBurstSlice(toSend, size_t(w.packedBytes), w.staging);
  if (!sliced) {
    w.method = chooseMethod(dir, w.packedBytes, runtime::params(), cudaAware, settings().method,
                            {w.plan->contiguous, sharing::gpuTimeSliced()});
    sliced = burstable && cudaAware && w.method != Method::Device &&
             takeBurstSlice(toSend, size_t(w.packedBytes), w.staging);
  }
  if (sliced)
    w.method = Method::Staged;
  else
    TEMPI_TRY(allocStaging(w.staging, size_t(w.packedBytes), w.method));
  methodstats::note(w.method, w.packedBytes, w.plan->contiguous);
  TEMPI_LOG(Debug, "%s wire: %lld packed bytes, %s, %s plan%s", dir == Direction::Send ? "send" : "recv",
            (long long)w.packedBytes, methodName(w.method),
            w.plan->kind == TypePlan::Kind::Strided ? "strided" : "block-list",
            w.plan->contiguous ? " (contiguous)" : "");
  w.ptr = w.method == Method::Device ? w.staging.device : w.staging.host;
  w.count = MPI_Count(w.packedBytes);
  w.type = MPI_PACKED;
  return TEMPI_SUCCESS;
}

/// Where the kernel writes (send) or reads (receive) the packed bytes.
void *kernelSide(const Wire &w) {
  if (w.method == Method::OneShot) return device::mappedDevicePointer(w.staging.host);
  if (w.method == Method::Ipc) return w.ipcRegion;
  return w.staging.device;
}

} // namespace

/// Of `rest` bytes after `before` complete elements of `type`, how many the MPI stores: up to the
/// end of the last complete basic element. That end is the largest b <= rest where
/// MPI_Get_elements steps up (MPICH 4: a step function of the byte count, defined everywhere) or
/// is defined at all (MPICH 5: MPI_UNDEFINED between basic elements). *undefinedAtRest tells the
/// caller which behaviour this MPI has for the whole count.
int64_t completeBasicBytes(MPI_Datatype type, int64_t before, int64_t rest, bool *undefinedAtRest) {
  auto elements = [&](int64_t bytes) -> MPI_Count {
    MPI_Status st;
    MPI_Count n = 0;
    PMPI_Status_set_elements_x(&st, MPI_BYTE, MPI_Count(bytes));
    PMPI_Status_set_cancelled(&st, 0);
    if (PMPI_Get_elements_x(&st, type, &n) != MPI_SUCCESS || n == MPI_UNDEFINED) return -1;
    return n;
  };
  *undefinedAtRest = rest > 0 && elements(before + rest) < 0;
  for (int64_t b = rest; b > 0; --b) {
    MPI_Count here = elements(before + b);
    if (here >= 0 && here > elements(before + b - 1)) return b;
  }
  return 0;
}

bool deviceData(const void *buf, MPI_Count count, MPI_Datatype type) {
  // The MPI reports a null datatype through the caller's error handler: never ask it ourselves.
  if (type == MPI_DATATYPE_NULL) return false;
  if (!runtime::active() || buf == MPI_IN_PLACE) return false;
  if (device::isDevice(buf)) return true;
  // The buffer pointer may lie outside the allocation (a subarray's first byte is far from it;
  // with MPI_BOTTOM, a null pointer, the first byte is an absolute address): ask about the first
  // byte the type touches too.
  if (count <= 0) return false;
  // Only committed types (cached at MPI_Type_commit) can start away from the pointer: a named
  // type starts at it, and an invalid handle must reach the MPI untouched, which reports it.
  TypePlanPtr p = typecache::find(type);
  if (!p || p->size == 0 || p->trueLb == 0) return false;
  return device::isDevice(addressAt(buf, p->trueLb));
}

namespace {
/// Runs of one element of a non-mirror plan, before merging (saturates at INT64_MAX).
int64_t runCount(const TypePlan &p) {
  if (p.kind == TypePlan::Kind::Blocks) return int64_t(p.blocks.offsets.size());
  int64_t n = 1;
  for (const auto &d : p.kernel.shape.dims)
    n = d.count > 0 && n > INT64_MAX / d.count ? INT64_MAX : n * std::max<int64_t>(d.count, 0);
  return n;
}

/// Plans with more runs than this are not compared (the comparison holds them in memory).
constexpr int64_t kMaxComparedRuns = int64_t(1) << 20;

/// Whether one element of a and b touches the same bytes in the same pack order.
bool sameLayout(const TypePlan &a, const TypePlan &b) {
  return a.size == b.size && mergedRuns(a) == mergedRuns(b);
}
} // namespace

namespace {
/// Bumped when the static plans are cleared: memos (planFor) taken before are stale.
std::atomic<uint64_t> staticPlanChanges{1};

/// planFor without the memo.
TypePlanPtr planForUncached(MPI_Datatype type, const tempi_static_plan *sp) {
  TypePlanPtr cached = typecache::lookup(type);
  // A static plan describes the type-map order; an MPI that packs otherwise gets the mirror.
  if (!sp || settings().noTypeCache || cached->orderDiffers || cached->invalid) return cached;
  std::lock_guard<std::mutex> lock(staticMutex);
  auto it = staticPlans.find(sp);
  if (it != staticPlans.end()) return it->second ? it->second : cached;
  TypePlanPtr p;
  if (sp->abi_version >= 1 && sp->ndims >= 0 && sp->ndims <= TEMPI_MAX_DIMS &&
      sp->size == cached->size && sp->extent == cached->extent && sp->lb == cached->lb) {
    StridedBlock b = stridedOf(*sp);
    if (b.size() == sp->size) p = planFromStrided(b, cached->trueLb, cached->trueExtent);
    // The compile-time tier's plan must describe the committed type's bytes: where the runtime
    // has its own plan of the type, both are walked once and must agree, else the runtime's wins
    // (a wrong static plan would pack wrong bytes silently).
    if (p && cached->kind != TypePlan::Kind::Mirror && runCount(*p) <= kMaxComparedRuns &&
        runCount(*cached) <= kMaxComparedRuns && !sameLayout(*p, *cached)) {
      TEMPI_LOG(Warn, "static plan %s describes other bytes than the committed datatype; using "
                      "the commit-time plan",
                sp->text ? sp->text : "?");
      staticPlans.emplace(sp, nullptr);
      return cached;
    }
  }
  if (!p)
    TEMPI_LOG(Warn, "static plan %s does not match its datatype (size %lld, extent %lld); using "
                    "the commit-time plan",
              sp->text ? sp->text : "?", (long long)cached->size, (long long)cached->extent);
  staticPlans.emplace(sp, p);
  return p ? p : cached;
}

/// The calling thread's last few (type, static plan) answers: a burst asks for the same few
/// types hundreds of times, and the cache's shared lock and the static plan's mutex are on every
/// request's path otherwise. An entry holds while neither the type cache nor the static plans
/// changed since it was taken (a freed handle's plan is never served).
struct PlanMemo {
  static constexpr size_t kSlots = 8;
  struct Entry {
    uint64_t key = 0, cacheGeneration = 0, staticGeneration = 0;
    const tempi_static_plan *sp = nullptr;
    TypePlanPtr plan;
  } slots[kSlots];
  static size_t slotOf(uint64_t key, const tempi_static_plan *sp) {
    return size_t((key ^ (reinterpret_cast<uintptr_t>(sp) >> 4)) * 0x9E3779B97F4A7C15ull >> 61);
  }
};
thread_local PlanMemo planMemo;
} // namespace

TypePlanPtr planFor(MPI_Datatype type, const tempi_static_plan *sp) {
  const uint64_t key = handleKey(type);
  const uint64_t cacheGen = typecache::generation();
  const uint64_t staticGen = staticPlanChanges.load(std::memory_order_acquire);
  PlanMemo::Entry &e = planMemo.slots[PlanMemo::slotOf(key, sp)];
  if (e.plan && e.key == key && e.sp == sp && e.cacheGeneration == cacheGen &&
      e.staticGeneration == staticGen)
    return e.plan;
  TypePlanPtr p = planForUncached(type, sp);
  if (!p->invalid) e = PlanMemo::Entry{key, cacheGen, staticGen, sp, p};
  return p;
}

void clearStaticPlans() {
  std::lock_guard<std::mutex> lock(staticMutex);
  staticPlans.clear();
  staticPlanChanges.fetch_add(1, std::memory_order_release);
}

tempi_result wireForSend(const void *buf, MPI_Count count, MPI_Datatype type,
                         const tempi_static_plan *sp, bool packNow, Wire &w, bool largeCount,
                         MPI_Comm comm, int dest) {
  tempi_result r =
      setUp(const_cast<void *>(buf), count, type, sp, Direction::Send, largeCount, comm, dest, w);
  if (r == TEMPI_SUCCESS && packNow) r = packWire(w);
  if (r != TEMPI_SUCCESS) {
    ipc::dropRegion(w);
    releaseWire(w);
  }
  return r;
}

tempi_result enqueuePack(Wire &w, Batch &b) {
  if (!w.staged) return TEMPI_SUCCESS;
  const char *user = static_cast<const char *>(w.userBuf);
  if (w.mirror)
    return copyMirror(w, true, [&](void *dst, const void *src, size_t n) {
      b.copyAfter(dst, src, n);
      return TEMPI_SUCCESS;
    });
  if (w.packedBytes == 0) return TEMPI_SUCCESS;
  // Each pack of an IPC wire (a persistent send's too) takes a fresh part of a slab: the part of
  // the previous one is the receiver's to read until it acknowledges.
  if (w.method == Method::Ipc) TEMPI_TRY(ipc::takeRegion(w));
  const TypePlan &p = *w.plan;
  if (p.contiguous) {
    // One copy straight to where the MPI reads (host staging, or device staging for `device`),
    // or, for ipc, where the receiver reads.
    void *dst = w.method == Method::Device ? w.staging.device
                : w.method == Method::Ipc  ? w.ipcRegion
                                           : w.staging.host;
    b.copyAfter(dst, user + p.kernel.shape.start, size_t(w.packedBytes));
    return TEMPI_SUCCESS;
  }
  void *target = kernelSide(w);
  if (p.kind == TypePlan::Kind::Strided) {
    b.job({&p.kernel, 0, const_cast<char *>(user), target, int64_t(w.userCount)});
  } else {
    TEMPI_TRY(p.ensureUploaded());
    b.noteEnqueued(); // the block-list kernel precedes the batch's copies on the stream
    tempi_result r = device::packBlocks(p.blocks, user, w.userCount, target, device::defaultStream());
    if (r != TEMPI_SUCCESS) {
      b.fail(r);
      return r;
    }
  }
  if (w.method == Method::Staged)
    b.copyAfter(w.staging.host, w.staging.device, size_t(w.packedBytes), w.staging.chain,
                w.staging.slice);
  return TEMPI_SUCCESS;
}

tempi_result packWire(Wire &w) {
  Batch b(true);
  tempi_result r = enqueuePack(w, b);
  tempi_result ran = b.run();
  return r != TEMPI_SUCCESS ? r : ran;
}

tempi_result wireForRecv(void *buf, MPI_Count count, MPI_Datatype type, const tempi_static_plan *sp,
                         bool prepareNow, Wire &w, bool largeCount) {
  tempi_result r = setUp(buf, count, type, sp, Direction::Recv, largeCount, MPI_COMM_NULL,
                         MPI_PROC_NULL, w);
  if (r == TEMPI_SUCCESS && prepareNow) r = prepareRecv(w);
  if (r != TEMPI_SUCCESS) releaseWire(w);
  return r;
}

tempi_result prepareRecv(Wire &w) {
  if (!w.staged || !w.mirror || w.staging.bytes == 0) return TEMPI_SUCCESS;
  // The mirror starts as the user's bytes: those the message does not write go back unchanged.
  device::Stream s = device::defaultStream();
  TEMPI_TRY(copyMirror(w, true, [&](void *dst, const void *src, size_t n) {
    return device::copyAsync(dst, src, n, s);
  }));
  return device::synchronize(s);
}

tempi_result enqueueFinishRecv(Wire &w, MPI_Status &status, Batch &b) {
  if (!w.staged && !ipc::active()) return TEMPI_SUCCESS;
  int cancelled = 0;
  PMPI_Test_cancelled(&status, &cancelled);
  if (cancelled) return TEMPI_SUCCESS;
  if (ipc::active()) {
    bool handled = false;
    tempi_result r = ipc::finishIfNotice(w, status, b, &handled);
    if (handled) return r;
  }
  if (!w.staged) return TEMPI_SUCCESS;
  return unpackArrived(w, status, b);
}

tempi_result unpackArrived(Wire &w, MPI_Status &status, Batch &b) {
  char *user = static_cast<char *>(w.userBuf);
  if (w.mirror)
    return copyMirror(w, false, [&](void *dst, const void *src, size_t n) {
      b.copyAfter(dst, src, n);
      return TEMPI_SUCCESS;
    });
  MPI_Count got = 0; // packed bytes that arrived (MPI-3's _x call: Open MPI 4 has no _c calls)
  if (PMPI_Get_elements_x(&status, MPI_PACKED, &got) != MPI_SUCCESS || got == MPI_UNDEFINED ||
      got < 0)
    got = 0;
  const int64_t n = std::min<int64_t>(got, w.packedBytes);
  if (n == 0) return TEMPI_SUCCESS;
  const TypePlan &p = *w.plan;
  if (p.contiguous) {
    const void *src = w.method == Method::Device ? w.staging.device : w.staging.host;
    b.copyAfter(user + p.kernel.shape.start, src, size_t(n));
    return TEMPI_SUCCESS;
  }
  const void *src = kernelSide(w);
  const int64_t full = n / p.size, rest = n % p.size;
  if (full > 0) {
    const size_t fullBytes = size_t(full * p.size);
    if (p.kind == TypePlan::Kind::Strided) {
      if (w.method == Method::Staged)
        b.copyBefore(w.staging.device, w.staging.host, fullBytes, w.staging.chain, w.staging.slice);
      b.job({&p.kernel, 0, user, const_cast<void *>(src), full});
    } else {
      // the staging copy and the block-list kernel keep their own order on the stream
      TEMPI_TRY(p.ensureUploaded());
      b.noteEnqueued();
      device::Stream s = device::defaultStream();
      tempi_result r = TEMPI_SUCCESS;
      if (w.method == Method::Staged)
        r = device::copyAsync(w.staging.device, w.staging.host, fullBytes, s);
      if (r == TEMPI_SUCCESS) r = device::unpackBlocks(p.blocks, user, src, full, s);
      if (r != TEMPI_SUCCESS) {
        b.fail(r);
        return r;
      }
    }
  }
  // A short message ends inside an element: the MPI stores only its complete basic elements
  // (MPICH writes no part of an int), so the tail is cut where the last complete one ends.
  bool undefinedAtRest = false;
  const int64_t tailBytes = completeBasicBytes(w.userType, full * p.size, rest, &undefinedAtRest);
  // An MPI that counts a typed receive only up to its last complete basic element (MPICH 5)
  // reports that count in the status too: so does TEMPI.
  if (undefinedAtRest) PMPI_Status_set_elements_x(&status, MPI_BYTE, MPI_Count(full * p.size + tailBytes));
  const char *tail = static_cast<const char *>(w.staging.host ? w.staging.host : w.staging.device) +
                     full * p.size;
  forEachRun(p, full, tailBytes, [&](int64_t off, int64_t bytes) {
    b.copyAfter(user + off, tail, size_t(bytes));
    tail += bytes;
  });
  return TEMPI_SUCCESS;
}

tempi_result finishRecv(Wire &w, MPI_Status &status) {
  Batch b(false);
  tempi_result r = enqueueFinishRecv(w, status, b);
  tempi_result ran = b.run();
  return r != TEMPI_SUCCESS ? r : ran;
}

} // namespace tempi
