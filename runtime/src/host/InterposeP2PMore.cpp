/// \file
/// The point-to-point calls InterposeP2P.cpp does not cover: MPI_Ibsend and MPI_Irsend (a packed
/// send wire, as MPI_Isend), MPI_Bsend_init, MPI_Ssend_init and MPI_Rsend_init (as MPI_Send_init:
/// packed at each MPI_Start), MPI_Mrecv and MPI_Imrecv (a receive wire from a matched message, as
/// MPI_Recv/MPI_Irecv), and, where the MPI has them (MPI_VERSION >= 4), MPI_Isendrecv and
/// MPI_Isendrecv_replace (both buffers mirrored, HostMirror.h: one request cannot carry two wires,
/// so the MPI gets the original datatypes on host copies and the receive span is copied back at
/// completion; a device Isendrecv_replace is an MPI_Isendrecv between two host copies). Host
/// buffers go to PMPI_X with the caller's arguments. The matched receives and the Isendrecv pair
/// are templates on the count type, so their large-count forms (MPI_Mrecv_c, MPI_Imrecv_c,
/// MPI_Isendrecv_c, MPI_Isendrecv_replace_c; TEMPI_HAVE_LARGE_COUNT) are the same bodies.
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

/// MPI_Mrecv and MPI_Mrecv_c: a receive wire from a matched message, as blockingRecv.
template <class Count>
int matchedRecv(int (*pmpi)(void *, Count, MPI_Datatype, MPI_Message *, MPI_Status *), void *buf,
                Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status) {
  TEMPI_FLUSH_DEFERRED();
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  if (!deviceData(buf, count, datatype)) {
    int rc = pmpi(buf, count, datatype, message, st);
    return p2p::afterHostRecv(rc, buf, count, datatype, messageComm(), st,
                              "receiving a message by ipc");
  }
  Wire w;
  if (tempi_result r = wireForRecv(buf, count, datatype, nullptr, true, w, p2p::kLargeCount<Count>);
      r != TEMPI_SUCCESS)
    return runtime::raise(messageComm(), r, p2p::kStaging<Count>);
  int rc = pmpi(w.ptr, Count(w.count), w.type, message, st);
  // As blockingRecv: a mirror copies its span back whatever happened.
  tempi_result r = receiveDelivers(rc, *st, w) ? finishRecv(w, *st) : TEMPI_SUCCESS;
  releaseWire(w);
  if (r != TEMPI_SUCCESS) return runtime::raise(messageComm(), r, p2p::kUnpacking<Count>);
  return rc;
}

/// MPI_Imrecv and MPI_Imrecv_c. Like MPI_Irecv it does not start deferred sends (DeferredSends.h).
template <class Count>
int matchedIrecv(int (*pmpi)(void *, Count, MPI_Datatype, MPI_Message *, MPI_Request *),
                 void *buf, Count count, MPI_Datatype datatype, MPI_Message *message,
                 MPI_Request *request) {
  if (!ipc::active() && !deviceData(buf, count, datatype))
    return pmpi(buf, count, datatype, message, request);
  auto op = requests::newOp();
  if (tempi_result r = wireForRecv(buf, count, datatype, nullptr, true, op->wire,
                                   p2p::kLargeCount<Count>);
      r != TEMPI_SUCCESS)
    return runtime::raise(messageComm(), r, p2p::kStaging<Count>);
  int rc = pmpi(op->wire.ptr, Count(op->wire.count), op->wire.type, message, request);
  return p2p::registerOp(rc, std::move(op), request, messageComm(), false, true);
}

#if MPI_VERSION >= 4
/// MPI_Isendrecv and MPI_Isendrecv_c (see the file comment).
template <class Count>
int isendrecv(int (*pmpi)(const void *, Count, MPI_Datatype, int, int, void *, Count, MPI_Datatype,
                          int, int, MPI_Comm, MPI_Request *),
              const void *sendbuf, Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
              void *recvbuf, Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
              MPI_Comm comm, MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!request) // the MPI reports the missing request
    return pmpi(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                recvtag, comm, request);
  HostMirror m;
  const int s = m.add(sendbuf, sendcount, sendtype, false);
  const int r = m.add(recvbuf, recvcount, recvtype, true);
  const P2PRecv view{r, recvcount, recvtype};
  return mirroredCall(
      comm, m, request, [] { return MPI_ERR_INTERN; },
      [&](MPI_Request *q) {
        return pmpi(m.mpiBuf(s), sendcount, sendtype, dest, sendtag, m.mpiBuf(r), recvcount,
                    recvtype, source, recvtag, comm, q);
      },
      &view);
}

/// MPI_Isendrecv_replace and MPI_Isendrecv_replace_c: a device buffer is an Isendrecv between two
/// host copies (the MPI needs no buffer of its own).
template <class Count>
int isendrecvReplace(int (*pmpi)(void *, Count, MPI_Datatype, int, int, int, int, MPI_Comm,
                                 MPI_Request *),
                     int (*pmpiPair)(const void *, Count, MPI_Datatype, int, int, void *, Count,
                                     MPI_Datatype, int, int, MPI_Comm, MPI_Request *),
                     void *buf, Count count, MPI_Datatype datatype, int dest, int sendtag,
                     int source, int recvtag, MPI_Comm comm, MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!request || (!deviceData(buf, count, datatype) && !ipc::active()))
    return pmpi(buf, count, datatype, dest, sendtag, source, recvtag, comm, request);
  if (!deviceData(buf, count, datatype)) { // ipc: the received message may be a notice
    HostMirror none; // a host buffer: mpiBuf is the caller's
    const P2PRecv view{none.add(buf, count, datatype, true), count, datatype};
    return mirroredCall(
        comm, none, request, [] { return MPI_ERR_INTERN; },
        [&](MPI_Request *q) {
          return pmpi(buf, count, datatype, dest, sendtag, source, recvtag, comm, q);
        },
        &view);
  }
  // Two host copies of the one device buffer, sent from one and received into the other.
  return isendrecv<Count>(pmpiPair, buf, count, datatype, dest, sendtag, buf, count, datatype,
                          source, recvtag, comm, request);
}
#endif

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
  return matchedRecv<int>(PMPI_Mrecv, buf, count, datatype, message, status);
}
int MPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Request *request) {
  return matchedIrecv<int>(PMPI_Imrecv, buf, count, datatype, message, request);
}

#if MPI_VERSION >= 4
int MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                  int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                  int recvtag, MPI_Comm comm, MPI_Request *request) {
  return isendrecv<int>(PMPI_Isendrecv, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                        recvcount, recvtype, source, recvtag, comm, request);
}
int MPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Request *request) {
  return isendrecvReplace<int>(PMPI_Isendrecv_replace, PMPI_Isendrecv, buf, count, datatype, dest,
                               sendtag, source, recvtag, comm, request);
}
#endif

#ifdef TEMPI_HAVE_LARGE_COUNT
// The large-count forms (MPI-4): the same bodies with MPI_Count counts.
int MPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                MPI_Status *status) {
  return matchedRecv<MPI_Count>(PMPI_Mrecv_c, buf, count, datatype, message, status);
}
int MPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                 MPI_Request *request) {
  return matchedIrecv<MPI_Count>(PMPI_Imrecv_c, buf, count, datatype, message, request);
}
int MPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Request *request) {
  return isendrecv<MPI_Count>(PMPI_Isendrecv_c, sendbuf, sendcount, sendtype, dest, sendtag,
                              recvbuf, recvcount, recvtype, source, recvtag, comm, request);
}
int MPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm,
                            MPI_Request *request) {
  return isendrecvReplace<MPI_Count>(PMPI_Isendrecv_replace_c, PMPI_Isendrecv_c, buf, count,
                                     datatype, dest, sendtag, source, recvtag, comm, request);
}
#endif

} // extern "C"
