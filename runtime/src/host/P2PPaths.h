/// \file
/// The device paths of the point-to-point interposers, once for both count widths: `Count` is
/// int for MPI_X (InterposeP2P.cpp, InterposeP2PMore.cpp) and MPI_Count for the MPI-4 large-count
/// MPI_X_c (InterposeLargeCount.cpp). Each takes the PMPI function it ends in, so one template
/// serves every send mode. Host buffers go to that function with the caller's arguments; device
/// buffers go through a Wire (Transfer.h; set up for a _c call when Count is MPI_Count, so a
/// packed wire may hold more than INT_MAX bytes). Nonblocking and persistent device operations are
/// registered in the request table, whose completion releases their staging.
///
/// Every path but the nonblocking receives first starts the thread's deferred sends
/// (DeferredSends.h): a receive posted early only helps.
///
/// With the IPC method on (Ipc.h) a receive into host memory may match a notice too, so host
/// receives then take a (plain) wire as well: finishRecv recognizes and serves the notice.
#pragma once

#include "BurstArena.h"
#include "DeferredSends.h"
#include "Ipc.h"
#include "Requests.h"
#include "Runtime.h"
#include "Transfer.h"
#include "Truncation.h"
#include "tempi/tempi.h"

#include <memory>
#include <type_traits>

namespace tempi::p2p {

template <class Count>
using BlockingSend = int (*)(const void *, Count, MPI_Datatype, int, int, MPI_Comm);
template <class Count>
using NonblockingSend = int (*)(const void *, Count, MPI_Datatype, int, int, MPI_Comm,
                                MPI_Request *);
template <class Count>
using BlockingRecv = int (*)(void *, Count, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);
template <class Count>
using NonblockingRecv = int (*)(void *, Count, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
template <class Count>
using SendRecv = int (*)(const void *, Count, MPI_Datatype, int, int, void *, Count, MPI_Datatype,
                         int, int, MPI_Comm, MPI_Status *);

/// Wires of a large-count call may exceed INT_MAX packed bytes (Transfer.h).
template <class Count> constexpr bool kLargeCount = !std::is_same_v<Count, int>;

/// The error messages, naming the large-count form.
template <class Count> constexpr const char *kPacking =
    kLargeCount<Count> ? "packing a device send buffer (large count)" : "packing a device send buffer";
template <class Count> constexpr const char *kStaging =
    kLargeCount<Count> ? "staging a device receive buffer (large count)"
                       : "staging a device receive buffer";
template <class Count> constexpr const char *kUnpacking =
    kLargeCount<Count> ? "unpacking a device receive buffer (large count)"
                       : "unpacking a device receive buffer";

/// After the MPI's nonblocking or persistent call on op's wire returned rc: refused, the staging
/// goes back; accepted, the request is registered and its completion releases the staging.
inline int registerOp(int rc, std::unique_ptr<requests::PendingOp> op, MPI_Request *request,
                      MPI_Comm comm, bool persistent, bool isRecv) {
  if (rc != MPI_SUCCESS) {
    ipc::dropRegion(op->wire);
    releaseWire(op->wire);
    return rc;
  }
  op->isRecv = isRecv;
  op->persistent = persistent;
  op->active = !persistent;
  op->comm = comm;
  requests::add(*request, std::move(op));
  return rc;
}

/// Send, Ssend, Rsend, Bsend (and their _c forms).
template <class Count>
int blockingSend(BlockingSend<Count> pmpi, const void *buf, std::type_identity_t<Count> count,
                 MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                 const tempi_static_plan *plan) {
  TEMPI_FLUSH_DEFERRED();
  if (!deviceData(buf, count, type)) return pmpi(buf, count, type, dest, tag, comm);
  Wire w;
  if (tempi_result r = wireForSend(buf, count, type, plan, true, w, kLargeCount<Count>, comm, dest);
      r != TEMPI_SUCCESS)
    return runtime::raise(comm, r, kPacking<Count>);
  int rc = pmpi(w.ptr, Count(w.count), w.type, dest, tag, comm);
  if (rc != MPI_SUCCESS) ipc::dropRegion(w);
  releaseWire(w);
  return rc;
}

/// Isend, Issend, Ibsend, Irsend and the persistent send inits (a persistent send packs at each
/// MPI_Start instead of now).
template <class Count>
int nonblockingSend(NonblockingSend<Count> pmpi, bool persistent, const void *buf,
                    std::type_identity_t<Count> count, MPI_Datatype type, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  TEMPI_FLUSH_DEFERRED();
  if (!deviceData(buf, count, type)) return pmpi(buf, count, type, dest, tag, comm, request);
  auto op = requests::newOp();
  if (tempi_result r = wireForSend(buf, count, type, plan, !persistent, op->wire,
                                   kLargeCount<Count>, comm, dest);
      r != TEMPI_SUCCESS)
    return runtime::raise(comm, r, kPacking<Count>);
  int rc = pmpi(op->wire.ptr, Count(op->wire.count), op->wire.type, dest, tag, comm, request);
  return registerOp(rc, std::move(op), request, comm, persistent, false);
}

/// A deferred send (DeferredSends.h): tempi_Isend_deferred and tempi_Issend_deferred, which the
/// compile-time tier writes where it proved deferring safe. `now` posts a host buffer at once
/// (behind the sends deferred before it); `init` makes the device send's request before the pack
/// is enqueued, so a refused request leaves nothing on the GPU writing into staging.
template <class Count>
int deferredSend(NonblockingSend<Count> now, NonblockingSend<Count> init, const void *buf,
                 std::type_identity_t<Count> count, MPI_Datatype type, int dest, int tag,
                 MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  if (!deviceData(buf, count, type)) {
    TEMPI_FLUSH_DEFERRED();
    return now(buf, count, type, dest, tag, comm, request);
  }
  auto op = requests::newOp();
  tempi_result staged = TEMPI_SUCCESS;
  {
    BurstScope burst; // the burst's sends stage in one arena: one copy at the flush
    staged = wireForSend(buf, count, type, plan, false, op->wire, kLargeCount<Count>, comm, dest);
  }
  if (staged != TEMPI_SUCCESS) return runtime::raise(comm, staged, kPacking<Count>);
  Wire &w = op->wire;
  int rc = init(w.ptr, Count(w.count), w.type, dest, tag, comm, request);
  if (rc != MPI_SUCCESS) {
    releaseWire(w);
    return rc;
  }
  if (tempi_result r = enqueuePack(w, deferred::batch()); r != TEMPI_SUCCESS) {
    (void)deferred::flushPending(); // runs what the batch holds before the staging goes back
    PMPI_Request_free(request);
    ipc::dropRegion(w);
    releaseWire(w);
    return runtime::raise(comm, r, kPacking<Count>);
  }
  op->standIn = true;
  op->active = true;
  op->comm = comm;
  requests::add(*request, std::move(op));
  deferred::add(*request, comm);
  return MPI_SUCCESS;
}

/// Recv (and Recv_c).
template <class Count>
int blockingRecv(BlockingRecv<Count> pmpi, void *buf, std::type_identity_t<Count> count,
                 MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status,
                 const tempi_static_plan *plan) {
  TEMPI_FLUSH_DEFERRED();
  if (!ipc::active() && !deviceData(buf, count, type))
    return pmpi(buf, count, type, source, tag, comm, status);
  Wire w;
  if (tempi_result r = wireForRecv(buf, count, type, plan, true, w, kLargeCount<Count>);
      r != TEMPI_SUCCESS)
    return runtime::raise(comm, r, kStaging<Count>);
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = pmpi(w.ptr, Count(w.count), w.type, source, tag, comm, st);
  // A failed receive unpacks nothing, except the part of a truncated message the MPI writes
  // and counts (Truncation.h). A mirror copies its span back whatever happened: the MPI wrote
  // into a copy of the user's bytes.
  tempi_result r = receiveDelivers(rc, *st, w) ? finishRecv(w, *st) : TEMPI_SUCCESS;
  releaseWire(w);
  if (r != TEMPI_SUCCESS) return runtime::raise(comm, r, kUnpacking<Count>);
  return rc;
}

/// Irecv and Recv_init (and their _c forms): no flush of deferred sends.
template <class Count>
int nonblockingRecv(NonblockingRecv<Count> pmpi, bool persistent, void *buf,
                    std::type_identity_t<Count> count, MPI_Datatype type, int source, int tag,
                    MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  if (!ipc::active() && !deviceData(buf, count, type))
    return pmpi(buf, count, type, source, tag, comm, request);
  auto op = requests::newOp();
  tempi_result staged = TEMPI_SUCCESS;
  if (persistent) {
    staged = wireForRecv(buf, count, type, plan, false, op->wire, kLargeCount<Count>);
  } else {
    BurstScope burst; // receives completed together stage in one arena: one copy at completion
    staged = wireForRecv(buf, count, type, plan, true, op->wire, kLargeCount<Count>);
  }
  if (staged != TEMPI_SUCCESS) return runtime::raise(comm, staged, kStaging<Count>);
  op->ownHandle = source != MPI_PROC_NULL;
  int rc = pmpi(op->wire.ptr, Count(op->wire.count), op->wire.type, source, tag, comm, request);
  return registerOp(rc, std::move(op), request, comm, persistent, true);
}

/// Sendrecv (and Sendrecv_c); Sendrecv_replace calls it with one buffer on both sides (separate
/// send and receive staging: the MPI's own replace then needs no buffer, and they never alias).
template <class Count>
int sendrecv(SendRecv<Count> pmpi, const void *sendbuf, std::type_identity_t<Count> sendcount,
             MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
             std::type_identity_t<Count> recvcount, MPI_Datatype recvtype, int source,
             int recvtag, MPI_Comm comm, MPI_Status *status, const tempi_static_plan *sendplan,
             const tempi_static_plan *recvplan) {
  TEMPI_FLUSH_DEFERRED();
  if (!ipc::active() && !deviceData(sendbuf, sendcount, sendtype) &&
      !deviceData(recvbuf, recvcount, recvtype))
    return pmpi(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                recvtag, comm, status);
  Wire s, r;
  if (tempi_result e = wireForSend(sendbuf, sendcount, sendtype, sendplan, true, s,
                                   kLargeCount<Count>, comm, dest);
      e != TEMPI_SUCCESS)
    return runtime::raise(comm, e, kPacking<Count>);
  if (tempi_result e =
          wireForRecv(recvbuf, recvcount, recvtype, recvplan, true, r, kLargeCount<Count>);
      e != TEMPI_SUCCESS) {
    releaseWire(s);
    return runtime::raise(comm, e, kStaging<Count>);
  }
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = pmpi(s.ptr, Count(s.count), s.type, dest, sendtag, r.ptr, Count(r.count), r.type,
                source, recvtag, comm, st);
  if (rc != MPI_SUCCESS) ipc::dropRegion(s);
  tempi_result e = receiveDelivers(rc, *st, r) ? finishRecv(r, *st) : TEMPI_SUCCESS;
  releaseWire(s);
  releaseWire(r);
  if (e != TEMPI_SUCCESS) return runtime::raise(comm, e, kUnpacking<Count>);
  return rc;
}

/// After the MPI's own receive into host memory (Sendrecv_replace, Mrecv) returned rc into
/// *status (never MPI_STATUS_IGNORE): with the IPC method on, a notice it received is served.
inline int afterHostRecv(int rc, void *buf, MPI_Count count, MPI_Datatype type, MPI_Comm comm,
                         MPI_Status *status, const char *what) {
  if (rc != MPI_SUCCESS || !ipc::active()) return rc;
  Wire w;
  w.ptr = buf;
  w.count = count;
  w.type = type;
  if (tempi_result r = finishRecv(w, *status); r != TEMPI_SUCCESS)
    return runtime::raise(comm, r, what);
  return rc;
}

} // namespace tempi::p2p
