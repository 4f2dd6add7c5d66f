/// \file
/// Wire: what the MPI sees for one buffer argument of one call. For a host buffer it is the
/// caller's (buf, count, datatype), unchanged. For a device buffer it is host (or, with a
/// CUDA-aware MPI, device) staging that holds the packed bytes, sent as count*size MPI_PACKED, so
/// an unmodified peer receives it with its typed receive and vice versa; or, for a Mirror plan or
/// a message over INT_MAX packed bytes, a host copy of the touched span used with the original
/// datatype. The statuses the MPI fills are then exactly those of the typed call.
///
/// Send side: wireForSend packs (method from the model) before the MPI call. Receive side:
/// wireForRecv provides staging, finishRecv unpacks what the status says arrived (a trailing
/// partial element included). releaseWire returns the staging; nothing leaks on any error path.
#pragma once

#include "Env.h"
#include "TypePlan.h"
#include "tempi/tempi.h"

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace tempi {

struct BurstArena;
struct Staging {
  void *host = nullptr;   ///< pinned (or, if the pool is exhausted, pageable) host memory
  void *device = nullptr; ///< device scratch for the staged and device methods
  size_t bytes = 0;
  bool pinned = false, mapped = false;
  /// A slice of a burst arena (BurstArena.h) owns neither pointer: the arena is freed with its
  /// last slice. chain/slice: the arena's id and the slice's number in it, so that the copies of
  /// consecutive slices merge (Batch.h); chain 0 for staging of its own.
  std::shared_ptr<BurstArena> arena;
  uint64_t chain = 0, slice = 0;
};
void releaseStaging(Staging &s);

struct Wire {
  // What the MPI sees.
  void *ptr = nullptr;
  MPI_Count count = 0; ///< fits an int unless the wire was set up for a large-count (_c) call
  MPI_Datatype type = MPI_DATATYPE_NULL;
  // The caller's side.
  bool staged = false; ///< false: host buffer, ptr/count/type are the caller's
  void *userBuf = nullptr;
  MPI_Count userCount = 0;
  MPI_Datatype userType = MPI_DATATYPE_NULL;
  TypePlanPtr plan;
  Method method = Method::Staged;
  bool mirror = false;   ///< host copy of the span with the original type
  int64_t spanLo = 0, spanHi = 0;
  /// MPI_BOTTOM mirror: the type's runs (offset, bytes), sorted and merged, copied one by one
  /// instead of the span: absolute addresses may lie in separate allocations, and the gap between
  /// them is not memory CUDA may copy. Empty: the span is copied whole.
  std::vector<std::pair<int64_t, int64_t>> mirrorRuns;
  int64_t packedBytes = 0;
  Staging staging;
  /// Method::Ipc (Ipc.h): the part of a slab the message is packed into, at each pack; the MPI
  /// sees the notice in staging.host. The part is the IPC module's until acknowledged.
  void *ipcRegion = nullptr;
  int64_t ipcSlab = -1, ipcOffset = 0, ipcSeq = 0;
  /// The receive's status may not say how many bytes arrived (MPICH 4.0's MPI_Isendrecv leaves
  /// the status as it was): an IPC notice is then looked for whatever the count says, and the
  /// request table finishes the receive at the Wait/Test only, never at registration.
  bool countUnreliable = false;
};

/// True when (buf, count, type) is device memory TEMPI must move: the buffer pointer or, when the
/// type starts away from it, the first byte the type touches is device memory. Always false
/// before MPI_Init, without a GPU and with TEMPI_DISABLE. With MPI_BOTTOM the type's first byte
/// is an absolute address, asked about as such.
bool deviceData(const void *buf, MPI_Count count, MPI_Datatype type);

/// base + offset bytes, computed on the address: base may be MPI_BOTTOM (null), where the offset
/// is an absolute address, or the mirror's host copy moved back by the span's first offset.
inline void *addressAt(const void *base, int64_t offset) {
  return reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(base) + uintptr_t(offset));
}

/// The plan for (datatype, static plan): the static plan when given and consistent with the
/// MPI's size/extent of the type, else the cache's.
TypePlanPtr planFor(MPI_Datatype type, const tempi_static_plan *staticPlan);
void clearStaticPlans(); ///< at MPI_Finalize

/// Sets up `w` for sending (buf, count, type); device buffers are packed now when packNow (a
/// persistent send packs at each MPI_Start instead).
/// largeCount: the caller makes the MPI call in its _c form, so the packed wire may hold more than
/// INT_MAX bytes (without it, such a message takes the mirror path with the caller's type).
/// comm/dest: where the message goes, for the IPC method (TEMPI_METHOD=ipc, Ipc.h).
tempi_result wireForSend(const void *buf, MPI_Count count, MPI_Datatype type,
                         const tempi_static_plan *sp, bool packNow, Wire &w,
                         bool largeCount = false, MPI_Comm comm = MPI_COMM_NULL,
                         int dest = MPI_PROC_NULL);
tempi_result packWire(Wire &w);
class Batch;
/// packWire's work added to a batch (Batch.h) instead of run and synchronized at once.
tempi_result enqueuePack(Wire &w, Batch &b);
/// Sets up `w` for receiving into (buf, count, type). prepareRecv must run before each MPI
/// receive starts (a Mirror wire copies the span out so the bytes outside the type survive).
tempi_result wireForRecv(void *buf, MPI_Count count, MPI_Datatype type, const tempi_static_plan *sp,
                         bool prepareNow, Wire &w, bool largeCount = false);
tempi_result prepareRecv(Wire &w);
/// Moves what arrived (per `status`) into the caller's buffer; a cancelled receive moves nothing.
/// With the IPC method on, any wire (a host one too) may have received a notice instead of the
/// bytes: they are then read from the sender's memory, the status says the message's size, and a
/// message longer than the buffer is TEMPI_ERR_TRUNCATE with nothing written.
/// For a message that ends inside an element on an MPI that counts typed receives only up to the
/// last complete basic element, the status's count is set to that, as the typed receive's would be.
tempi_result finishRecv(Wire &w, MPI_Status &status);
/// finishRecv's work added to a batch; the caller runs the batch before releasing the wire.
tempi_result enqueueFinishRecv(Wire &w, MPI_Status &status, Batch &b);
void releaseWire(Wire &w);

/// Host-side copy helpers on the runtime's stream, synchronized before they return.
tempi_result copyAndSync(void *dst, const void *src, size_t bytes);

} // namespace tempi
