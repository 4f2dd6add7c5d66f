/// \file
/// The MPI-4 large-count (_c) point-to-point and pack interposers: MPI_X_c (profiling interface)
/// = tempi_X_c(..., NULL plan). The point-to-point paths are P2PPaths.h's with MPI_Count counts:
/// a device buffer's Wire is set up for a _c call (Transfer.h, largeCount = true), so a packed
/// wire may hold more than INT_MAX bytes and is sent as that many MPI_PACKED with PMPI_X_c, and
/// the statuses are those of the typed call (MPI_Get_count_c on them is the MPI's).
///
/// Pack_c/Unpack_c share their device part with InterposePack.cpp (PackCore.h), with MPI_Count
/// counts and positions; on device buffers they refuse a pack or unpack that does not fit in
/// outsize/insize (MPI_ERR_TRUNCATE) and a negative or overflowing count (MPI_ERR_COUNT), through
/// the communicator's error handler. The collectives' _c forms are in
/// InterposeLargeCountCollectives.cpp.
///
/// Compiled only against an MPI with the _c calls (MPI_VERSION >= 4, TEMPI_HAVE_LARGE_COUNT).
#include "tempi/tempi.h"

#ifdef TEMPI_HAVE_LARGE_COUNT

#include "DeferredSends.h"
#include "P2PPaths.h"
#include "PackCore.h"
#include "Runtime.h"
#include "Transfer.h"
#include "VerifyPlans.h"

using namespace tempi;

namespace {

/// Packed bytes of `count` elements of plan `p`, or -1 when that overflows.
int64_t packedBytes(const TypePlan &p, MPI_Count count) {
  if (count <= 0) return 0;
  if (p.size > 0 && count > INT64_MAX / p.size) return -1;
  return int64_t(count) * p.size;
}

} // namespace

extern "C" {

// ---- Point-to-point ----

int tempi_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Send_c");
  return p2p::blockingSend<MPI_Count>(PMPI_Send_c, buf, count, datatype, dest, tag, comm, plan);
}
int tempi_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Ssend_c");
  return p2p::blockingSend<MPI_Count>(PMPI_Ssend_c, buf, count, datatype, dest, tag, comm, plan);
}
int tempi_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Rsend_c");
  return p2p::blockingSend<MPI_Count>(PMPI_Rsend_c, buf, count, datatype, dest, tag, comm, plan);
}
int tempi_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Bsend_c");
  return p2p::blockingSend<MPI_Count>(PMPI_Bsend_c, buf, count, datatype, dest, tag, comm, plan);
}
int tempi_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Isend_c");
  return p2p::nonblockingSend<MPI_Count>(PMPI_Isend_c, false, buf, count, datatype, dest, tag,
                                         comm, request, plan);
}
int tempi_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Issend_c");
  return p2p::nonblockingSend<MPI_Count>(PMPI_Issend_c, false, buf, count, datatype, dest, tag,
                                         comm, request, plan);
}
int tempi_Isend_deferred_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                           int tag, MPI_Comm comm, MPI_Request *request,
                           const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Isend_deferred_c");
  return p2p::deferredSend<MPI_Count>(PMPI_Isend_c, PMPI_Send_init_c, buf, count, datatype, dest,
                                      tag, comm, request, plan);
}
int tempi_Issend_deferred_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int tag, MPI_Comm comm, MPI_Request *request,
                            const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Issend_deferred_c");
  return p2p::deferredSend<MPI_Count>(PMPI_Issend_c, PMPI_Ssend_init_c, buf, count, datatype,
                                      dest, tag, comm, request, plan);
}
int tempi_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Send_init_c");
  return p2p::nonblockingSend<MPI_Count>(PMPI_Send_init_c, true, buf, count, datatype, dest, tag,
                                         comm, request, plan);
}

int tempi_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                 MPI_Comm comm, MPI_Status *status, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Recv_c");
  return p2p::blockingRecv<MPI_Count>(PMPI_Recv_c, buf, count, datatype, source, tag, comm,
                                      status, plan);
}
int tempi_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                  MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Irecv_c");
  return p2p::nonblockingRecv<MPI_Count>(PMPI_Irecv_c, false, buf, count, datatype, source, tag,
                                         comm, request, plan);
}
int tempi_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                      MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Recv_init_c");
  return p2p::nonblockingRecv<MPI_Count>(PMPI_Recv_init_c, true, buf, count, datatype, source,
                                         tag, comm, request, plan);
}

int tempi_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                     int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int source, int recvtag, MPI_Comm comm, MPI_Status *status,
                     const tempi_static_plan *sendplan, const tempi_static_plan *recvplan) {
  verify::plans(sendbuf, sendplan, sendtype, recvplan, recvtype, "tempi_Sendrecv_c");
  return p2p::sendrecv<MPI_Count>(PMPI_Sendrecv_c, sendbuf, sendcount, sendtype, dest, sendtag,
                                  recvbuf, recvcount, recvtype, source, recvtag, comm, status,
                                  sendplan, recvplan);
}

int tempi_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                             int sendtag, int source, int recvtag, MPI_Comm comm,
                             MPI_Status *status, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Sendrecv_replace_c");
  TEMPI_FLUSH_DEFERRED();
  if (!deviceData(buf, count, datatype)) {
    MPI_Status local;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
    int rc =
        PMPI_Sendrecv_replace_c(buf, count, datatype, dest, sendtag, source, recvtag, comm, st);
    return p2p::afterHostRecv(rc, buf, count, datatype, comm, st, "receiving a message by ipc");
  }
  // As tempi_Sendrecv_replace: separate send and receive staging, one buffer on both sides.
  return tempi_Sendrecv_c(buf, count, datatype, dest, sendtag, buf, count, datatype, source,
                          recvtag, comm, status, plan, plan);
}

// ---- Pack and unpack ----

int tempi_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                 MPI_Count outsize, MPI_Count *position, MPI_Comm comm,
                 const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Pack_c");
  TEMPI_FLUSH_DEFERRED();
  const bool devIn = deviceData(inbuf, incount, datatype), devOut = runtime::isDevice(outbuf);
  if (!devIn && !devOut)
    return PMPI_Pack_c(inbuf, incount, datatype, outbuf, outsize, position, comm);
  if (incount < 0)
    return runtime::raiseCode(comm, MPI_ERR_COUNT, "MPI_Pack_c of a device buffer: negative count");
  TypePlanPtr p = planFor(datatype, plan);
  if (p->invalid) // not a type the MPI knows: it reports that
    return PMPI_Pack_c(inbuf, incount, datatype, outbuf, outsize, position, comm);
  const int64_t bytes = packedBytes(*p, incount);
  if (bytes < 0)
    return runtime::raiseCode(comm, MPI_ERR_COUNT,
                              "MPI_Pack_c of a device buffer: count * size overflows");
  if (*position < 0 || *position > outsize || bytes > outsize - *position)
    return runtime::raiseCode(comm, MPI_ERR_TRUNCATE,
                              "MPI_Pack_c of a device buffer: outsize too small");
  char *dst = static_cast<char *>(outbuf) + *position;
  int rc = MPI_SUCCESS;
  tempi_result r =
      packcore::packInto(inbuf, incount, datatype, *p, plan, comm, dst, bytes, devIn, devOut, &rc);
  if (rc != MPI_SUCCESS) return rc;
  if (r != TEMPI_SUCCESS) return runtime::raise(comm, r, "MPI_Pack_c of a device buffer");
  *position += bytes;
  return MPI_SUCCESS;
}

int tempi_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                   MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm,
                   const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Unpack_c");
  TEMPI_FLUSH_DEFERRED();
  const bool devIn = runtime::isDevice(inbuf), devOut = deviceData(outbuf, outcount, datatype);
  if (!devIn && !devOut)
    return PMPI_Unpack_c(inbuf, insize, position, outbuf, outcount, datatype, comm);
  if (outcount < 0)
    return runtime::raiseCode(comm, MPI_ERR_COUNT,
                              "MPI_Unpack_c into a device buffer: negative count");
  TypePlanPtr p = planFor(datatype, plan);
  if (p->invalid) // not a type the MPI knows: it reports that
    return PMPI_Unpack_c(inbuf, insize, position, outbuf, outcount, datatype, comm);
  const int64_t bytes = packedBytes(*p, outcount);
  if (bytes < 0)
    return runtime::raiseCode(comm, MPI_ERR_COUNT,
                              "MPI_Unpack_c into a device buffer: count * size overflows");
  if (*position < 0 || *position > insize || bytes > insize - *position)
    return runtime::raiseCode(comm, MPI_ERR_TRUNCATE,
                              "MPI_Unpack_c into a device buffer: insize too small");
  const char *src = static_cast<const char *>(inbuf) + *position;
  int rc = MPI_SUCCESS;
  tempi_result r = packcore::unpackFrom(src, outbuf, outcount, datatype, *p, plan, comm, bytes,
                                        devIn, devOut, &rc);
  if (rc != MPI_SUCCESS) return rc;
  if (r != TEMPI_SUCCESS) return runtime::raise(comm, r, "MPI_Unpack_c into a device buffer");
  *position += bytes;
  return MPI_SUCCESS;
}

int tempi_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size,
                      const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Pack_size_c");
  TEMPI_FLUSH_DEFERRED();
  return PMPI_Pack_size_c(incount, datatype, comm, size);
}

// ---- The profiling-interface entry points ----

int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm) {
  return tempi_Send_c(buf, count, datatype, dest, tag, comm, nullptr);
}
int MPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm) {
  return tempi_Ssend_c(buf, count, datatype, dest, tag, comm, nullptr);
}
int MPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm) {
  return tempi_Rsend_c(buf, count, datatype, dest, tag, comm, nullptr);
}
int MPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm) {
  return tempi_Bsend_c(buf, count, datatype, dest, tag, comm, nullptr);
}
int MPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request) {
  return tempi_Isend_c(buf, count, datatype, dest, tag, comm, request, nullptr);
}
int MPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, MPI_Request *request) {
  return tempi_Issend_c(buf, count, datatype, dest, tag, comm, request, nullptr);
}
int MPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request) {
  return tempi_Send_init_c(buf, count, datatype, dest, tag, comm, request, nullptr);
}
int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
               MPI_Comm comm, MPI_Status *status) {
  return tempi_Recv_c(buf, count, datatype, source, tag, comm, status, nullptr);
}
int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Request *request) {
  return tempi_Irecv_c(buf, count, datatype, source, tag, comm, request, nullptr);
}
int MPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                    MPI_Comm comm, MPI_Request *request) {
  return tempi_Recv_init_c(buf, count, datatype, source, tag, comm, request, nullptr);
}
int MPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                   int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
  return tempi_Sendrecv_c(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                          recvtype, source, recvtag, comm, status, nullptr, nullptr);
}
int MPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                           int sendtag, int source, int recvtag, MPI_Comm comm,
                           MPI_Status *status) {
  return tempi_Sendrecv_replace_c(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                  status, nullptr);
}
int MPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
               MPI_Count outsize, MPI_Count *position, MPI_Comm comm) {
  return tempi_Pack_c(inbuf, incount, datatype, outbuf, outsize, position, comm, nullptr);
}
int MPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                 MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm) {
  return tempi_Unpack_c(inbuf, insize, position, outbuf, outcount, datatype, comm, nullptr);
}
int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size) {
  return tempi_Pack_size_c(incount, datatype, comm, size, nullptr);
}

} // extern "C"

#endif // TEMPI_HAVE_LARGE_COUNT
