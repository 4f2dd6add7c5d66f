/// \file
/// The point-to-point calls InterposeP2P.cpp does not cover: MPI_Ibsend and MPI_Irsend (a packed
/// send wire, as MPI_Isend), MPI_Bsend_init, MPI_Ssend_init and MPI_Rsend_init (as MPI_Send_init:
/// packed at each MPI_Start), MPI_Mrecv and MPI_Imrecv (a receive wire from a matched message, as
/// MPI_Recv/MPI_Irecv), and, where the MPI has them (MPI_VERSION >= 4), MPI_Isendrecv and
/// MPI_Isendrecv_replace (both buffers mirrored, HostMirror.h: one request cannot carry two wires,
/// so the MPI gets the original datatypes on host copies and the receive span is copied back at
/// completion; a device Isendrecv_replace is an MPI_Isendrecv between two host copies). Host
/// buffers go to PMPI_X with the caller's arguments.
///
/// Refuses nothing the MPI accepts; a failed pack, copy or allocation is raised on the
/// communicator (runtime::raise) with nothing started and every staging buffer released.
#include "DeferredSends.h"
#include "HostMirror.h"
#include "P2PPaths.h"
#include "Requests.h"
#include "Runtime.h"
#include "Transfer.h"

#include <memory>

using namespace tempi;

namespace {

/// The communicator a matched message came from, for errors (a message handle names none that
/// the program can see; MPI_COMM_WORLD's handler is what the MPI itself would use for a call
/// without a communicator).
inline MPI_Comm messageComm() { return MPI_COMM_WORLD; } // not constexpr: a pointer in Open MPI

} // namespace

extern "C" {

int MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request) {
  return p2p::nonblockingSend<int>(PMPI_Ibsend, false, buf, count, datatype, dest, tag,
                                   comm, request, nullptr);
}
int MPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request) {
  return p2p::nonblockingSend<int>(PMPI_Irsend, false, buf, count, datatype, dest, tag,
                                   comm, request, nullptr);
}
int MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request) {
  return p2p::nonblockingSend<int>(PMPI_Bsend_init, true, buf, count, datatype, dest, tag,
                                   comm, request, nullptr);
}
int MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request) {
  return p2p::nonblockingSend<int>(PMPI_Ssend_init, true, buf, count, datatype, dest, tag,
                                   comm, request, nullptr);
}
int MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request) {
  return p2p::nonblockingSend<int>(PMPI_Rsend_init, true, buf, count, datatype, dest, tag,
                                   comm, request, nullptr);
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
              MPI_Status *status) {
  TEMPI_FLUSH_DEFERRED();
  if (!deviceData(buf, count, datatype)) {
    MPI_Status local;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
    int rc = PMPI_Mrecv(buf, count, datatype, message, st);
    return p2p::afterHostRecv(rc, buf, count, datatype, messageComm(), st,
                              "receiving a message by ipc");
  }
  Wire w;
  if (tempi_result r = wireForRecv(buf, count, datatype, nullptr, true, w); r != TEMPI_SUCCESS)
    return runtime::raise(messageComm(), r, "staging a device receive buffer");
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Mrecv(w.ptr, int(w.count), w.type, message, st);
  tempi_result r = rc == MPI_SUCCESS ? finishRecv(w, *st) : TEMPI_SUCCESS;
  releaseWire(w);
  if (r != TEMPI_SUCCESS)
    return runtime::raise(messageComm(), r, "unpacking a device receive buffer");
  return rc;
}

// A nonblocking receive: like MPI_Irecv it does not start deferred sends (DeferredSends.h).
int MPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Request *request) {
  if (!ipc::active() && !deviceData(buf, count, datatype))
    return PMPI_Imrecv(buf, count, datatype, message, request);
  auto op = std::make_unique<requests::PendingOp>();
  if (tempi_result r = wireForRecv(buf, count, datatype, nullptr, true, op->wire);
      r != TEMPI_SUCCESS)
    return runtime::raise(messageComm(), r, "staging a device receive buffer");
  int rc = PMPI_Imrecv(op->wire.ptr, int(op->wire.count), op->wire.type, message, request);
  return p2p::registerOp(rc, std::move(op), request, messageComm(), false, true);
}

#if MPI_VERSION >= 4
int MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                  int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                  int recvtag, MPI_Comm comm, MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!request) // the MPI reports the missing request
    return PMPI_Isendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                          recvtype, source, recvtag, comm, request);
  HostMirror m;
  const int s = m.add(sendbuf, sendcount, sendtype, false);
  const int r = m.add(recvbuf, recvcount, recvtype, true);
  const P2PRecv view{r, recvcount, recvtype};
  return mirroredCall(
      comm, m, request, [] { return MPI_ERR_INTERN; },
      [&](MPI_Request *q) {
        return PMPI_Isendrecv(m.mpiBuf(s), sendcount, sendtype, dest, sendtag, m.mpiBuf(r),
                              recvcount, recvtype, source, recvtag, comm, q);
      },
      &view);
}
int MPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!request || (!deviceData(buf, count, datatype) && !ipc::active()))
    return PMPI_Isendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                  request);
  if (!deviceData(buf, count, datatype)) { // ipc: the received message may be a notice
    HostMirror none; // a host buffer: mpiBuf is the caller's
    const P2PRecv view{none.add(buf, count, datatype, true), count, datatype};
    return mirroredCall(
        comm, none, request, [] { return MPI_ERR_INTERN; },
        [&](MPI_Request *q) {
          return PMPI_Isendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                        q);
        },
        &view);
  }
  // Two host copies of the one device buffer and MPI_Isendrecv between them: the MPI needs no
  // buffer of its own.
  HostMirror m;
  const int r = m.add(buf, count, datatype, true), s = m.add(buf, count, datatype, false);
  const P2PRecv view{r, count, datatype};
  return mirroredCall(
      comm, m, request, [] { return MPI_ERR_INTERN; },
      [&](MPI_Request *q) {
        return PMPI_Isendrecv(m.mpiBuf(s), count, datatype, dest, sendtag, m.mpiBuf(r), count,
                              datatype, source, recvtag, comm, q);
      },
      &view);
}
#endif

} // extern "C"
