/// \file
/// Point-to-point interposers: MPI_X (profiling interface) = tempi_X(..., NULL plan). Host buffers
/// go to PMPI_X with the caller's arguments; device buffers go through a Wire (Transfer.h).
/// Nonblocking and persistent device operations are registered in the request table.
#include "BurstArena.h"
#include "DeferredSends.h"
#include "Requests.h"
#include "Runtime.h"
#include "SendPaths.h"
#include "Transfer.h"
#include "tempi/tempi.h"

#include <memory>

using namespace tempi;

namespace {

using BlockingSend = int (*)(const void *, int, MPI_Datatype, int, int, MPI_Comm);

int blockingSend(BlockingSend pmpi, const void *buf, int count, MPI_Datatype type, int dest,
                 int tag, MPI_Comm comm, const tempi_static_plan *plan) {
  TEMPI_FLUSH_DEFERRED();
  if (!deviceData(buf, count, type)) return pmpi(buf, count, type, dest, tag, comm);
  Wire w;
  if (tempi_result r = wireForSend(buf, count, type, plan, true, w); r != TEMPI_SUCCESS)
    return runtime::raise(comm, r, "packing a device send buffer");
  int rc = pmpi(w.ptr, int(w.count), w.type, dest, tag, comm);
  releaseWire(w);
  return rc;
}


/// A deferred send (DeferredSends.h). The request comes from MPI_Send_init/Ssend_init before
/// the pack is enqueued, so a refused request leaves nothing on the GPU writing into staging.
int deferredSend(bool synchronous, const void *buf, int count, MPI_Datatype type, int dest,
                 int tag, MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  if (!deviceData(buf, count, type)) { // posted now, behind the sends deferred before it
    TEMPI_FLUSH_DEFERRED();
    return (synchronous ? PMPI_Issend : PMPI_Isend)(buf, count, type, dest, tag, comm, request);
  }
  auto op = std::make_unique<requests::PendingOp>();
  tempi_result staged = TEMPI_SUCCESS;
  {
    BurstScope burst; // the burst's sends stage in one arena: one copy at the flush
    staged = wireForSend(buf, count, type, plan, false, op->wire);
  }
  if (staged != TEMPI_SUCCESS) return runtime::raise(comm, staged, "packing a device send buffer");
  Wire &w = op->wire;
  int rc = (synchronous ? PMPI_Ssend_init : PMPI_Send_init)(w.ptr, int(w.count), w.type, dest, tag,
                                                           comm, request);
  if (rc != MPI_SUCCESS) {
    releaseWire(w);
    return rc;
  }
  if (tempi_result r = enqueuePack(w, deferred::batch()); r != TEMPI_SUCCESS) {
    (void)deferred::flushPending(); // runs what the batch holds before the staging goes back
    PMPI_Request_free(request);
    releaseWire(w);
    return runtime::raise(comm, r, "packing a device send buffer");
  }
  op->standIn = true;
  op->active = true;
  op->comm = comm;
  requests::add(*request, std::move(op));
  deferred::add(*request, comm);
  return MPI_SUCCESS;
}

} // namespace

int tempi::nonblockingSend(NonblockingSend pmpi, bool persistent, const void *buf, int count,
                           MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                           MPI_Request *request, const tempi_static_plan *plan) {
  TEMPI_FLUSH_DEFERRED();
  if (!deviceData(buf, count, type)) return pmpi(buf, count, type, dest, tag, comm, request);
  auto op = std::make_unique<requests::PendingOp>();
  if (tempi_result r = wireForSend(buf, count, type, plan, !persistent, op->wire);
      r != TEMPI_SUCCESS)
    return runtime::raise(comm, r, "packing a device send buffer");
  int rc = pmpi(op->wire.ptr, int(op->wire.count), op->wire.type, dest, tag, comm, request);
  if (rc != MPI_SUCCESS) {
    releaseWire(op->wire);
    return rc;
  }
  op->persistent = persistent;
  op->active = !persistent;
  op->comm = comm;
  requests::add(*request, std::move(op));
  return rc;
}

extern "C" {

int tempi_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               const tempi_static_plan *plan) {
  return blockingSend(PMPI_Send, buf, count, datatype, dest, tag, comm, plan);
}
int tempi_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, const tempi_static_plan *plan) {
  return blockingSend(PMPI_Ssend, buf, count, datatype, dest, tag, comm, plan);
}
int tempi_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, const tempi_static_plan *plan) {
  return blockingSend(PMPI_Rsend, buf, count, datatype, dest, tag, comm, plan);
}
int tempi_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, const tempi_static_plan *plan) {
  return blockingSend(PMPI_Bsend, buf, count, datatype, dest, tag, comm, plan);
}
int tempi_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  return nonblockingSend(PMPI_Isend, false, buf, count, datatype, dest, tag, comm, request, plan);
}
int tempi_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  return nonblockingSend(PMPI_Issend, false, buf, count, datatype, dest, tag, comm, request,
                         plan);
}
int tempi_Isend_deferred(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  return deferredSend(false, buf, count, datatype, dest, tag, comm, request, plan);
}
int tempi_Issend_deferred(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  return deferredSend(true, buf, count, datatype, dest, tag, comm, request, plan);
}
int tempi_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  return nonblockingSend(PMPI_Send_init, true, buf, count, datatype, dest, tag, comm, request,
                         plan);
}

int tempi_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Status *status, const tempi_static_plan *plan) {
  TEMPI_FLUSH_DEFERRED();
  if (!deviceData(buf, count, datatype)) return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
  Wire w;
  if (tempi_result r = wireForRecv(buf, count, datatype, plan, true, w); r != TEMPI_SUCCESS)
    return runtime::raise(comm, r, "staging a device receive buffer");
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Recv(w.ptr, int(w.count), w.type, source, tag, comm, st);
  // A failed (e.g. truncated) receive unpacks nothing: the MPI vouches for no byte of it. A
  // mirror copies its span back whatever happened: the MPI wrote into a copy of the user's bytes.
  tempi_result r = rc == MPI_SUCCESS || w.mirror ? finishRecv(w, *st) : TEMPI_SUCCESS;
  releaseWire(w);
  if (r != TEMPI_SUCCESS) return runtime::raise(comm, r, "unpacking a device receive buffer");
  return rc;
}

static int nonblockingRecv(bool persistent, void *buf, int count, MPI_Datatype datatype,
                           int source, int tag, MPI_Comm comm, MPI_Request *request,
                           const tempi_static_plan *plan) {
  auto pmpi = persistent ? PMPI_Recv_init : PMPI_Irecv;
  if (!deviceData(buf, count, datatype)) return pmpi(buf, count, datatype, source, tag, comm, request);
  auto op = std::make_unique<requests::PendingOp>();
  tempi_result staged = TEMPI_SUCCESS;
  if (persistent) {
    staged = wireForRecv(buf, count, datatype, plan, false, op->wire);
  } else {
    BurstScope burst; // receives completed together stage in one arena: one copy at completion
    staged = wireForRecv(buf, count, datatype, plan, true, op->wire);
  }
  if (staged != TEMPI_SUCCESS)
    return runtime::raise(comm, staged, "staging a device receive buffer");
  int rc = pmpi(op->wire.ptr, int(op->wire.count), op->wire.type, source, tag, comm, request);
  if (rc != MPI_SUCCESS) {
    releaseWire(op->wire);
    return rc;
  }
  op->isRecv = true;
  op->persistent = persistent;
  op->active = !persistent;
  op->comm = comm;
  requests::add(*request, std::move(op));
  return rc;
}

int tempi_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                MPI_Request *request, const tempi_static_plan *plan) {
  return nonblockingRecv(false, buf, count, datatype, source, tag, comm, request, plan);
}
int tempi_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                    MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  return nonblockingRecv(true, buf, count, datatype, source, tag, comm, request, plan);
}

int tempi_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                   int recvtag, MPI_Comm comm, MPI_Status *status,
                   const tempi_static_plan *sendplan, const tempi_static_plan *recvplan) {
  TEMPI_FLUSH_DEFERRED();
  if (!deviceData(sendbuf, sendcount, sendtype) && !deviceData(recvbuf, recvcount, recvtype))
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                         recvtype, source, recvtag, comm, status);
  Wire s, r;
  if (tempi_result e = wireForSend(sendbuf, sendcount, sendtype, sendplan, true, s);
      e != TEMPI_SUCCESS)
    return runtime::raise(comm, e, "packing a device send buffer");
  if (tempi_result e = wireForRecv(recvbuf, recvcount, recvtype, recvplan, true, r);
      e != TEMPI_SUCCESS) {
    releaseWire(s);
    return runtime::raise(comm, e, "staging a device receive buffer");
  }
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Sendrecv(s.ptr, int(s.count), s.type, dest, sendtag, r.ptr, int(r.count), r.type, source,
                         recvtag, comm, st);
  tempi_result e = rc == MPI_SUCCESS || r.mirror ? finishRecv(r, *st) : TEMPI_SUCCESS;
  releaseWire(s);
  releaseWire(r);
  if (e != TEMPI_SUCCESS) return runtime::raise(comm, e, "unpacking a device receive buffer");
  return rc;
}

int tempi_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Status *status,
                           const tempi_static_plan *plan) {
  TEMPI_FLUSH_DEFERRED();
  if (!deviceData(buf, count, datatype))
    return PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                 status);
  // Separate send and receive staging (the device Sendrecv path with one buffer on both sides):
  // the MPI's own replace then needs no buffer of its own, and the staging buffers never alias.
  return tempi_Sendrecv(buf, count, datatype, dest, sendtag, buf, count, datatype, source, recvtag,
                        comm, status, plan, plan);
}

// The profiling-interface entry points.
int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return tempi_Send(buf, count, datatype, dest, tag, comm, nullptr);
}
int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return tempi_Ssend(buf, count, datatype, dest, tag, comm, nullptr);
}
int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return tempi_Rsend(buf, count, datatype, dest, tag, comm, nullptr);
}
int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return tempi_Bsend(buf, count, datatype, dest, tag, comm, nullptr);
}
int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request *request) {
  return tempi_Isend(buf, count, datatype, dest, tag, comm, request, nullptr);
}
int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request) {
  return tempi_Issend(buf, count, datatype, dest, tag, comm, request, nullptr);
}
int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request) {
  return tempi_Send_init(buf, count, datatype, dest, tag, comm, request, nullptr);
}
int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status *status) {
  return tempi_Recv(buf, count, datatype, source, tag, comm, status, nullptr);
}
int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request *request) {
  return tempi_Irecv(buf, count, datatype, source, tag, comm, request, nullptr);
}
int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                  MPI_Request *request) {
  return tempi_Recv_init(buf, count, datatype, source, tag, comm, request, nullptr);
}
int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status) {
  return tempi_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                        source, recvtag, comm, status, nullptr, nullptr);
}
int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
  return tempi_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, status,
                                nullptr);
}

} // extern "C"
