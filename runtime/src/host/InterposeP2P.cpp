/// \file
/// Point-to-point interposers: MPI_X (profiling interface) = tempi_X(..., NULL plan). The paths
/// (host buffers to PMPI_X unchanged, device buffers through a Wire) are P2PPaths.h's, shared with
/// the large-count forms.
#include "P2PPaths.h"
#include "VerifyPlans.h"
#include "tempi/tempi.h"

using namespace tempi;

extern "C" {

int tempi_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Send");
  return p2p::blockingSend<int>(PMPI_Send, buf, count, datatype, dest, tag, comm, plan);
}
int tempi_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Ssend");
  return p2p::blockingSend<int>(PMPI_Ssend, buf, count, datatype, dest, tag, comm, plan);
}
int tempi_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Rsend");
  return p2p::blockingSend<int>(PMPI_Rsend, buf, count, datatype, dest, tag, comm, plan);
}
int tempi_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Bsend");
  return p2p::blockingSend<int>(PMPI_Bsend, buf, count, datatype, dest, tag, comm, plan);
}
int tempi_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Isend");
  return p2p::nonblockingSend<int>(PMPI_Isend, false, buf, count, datatype, dest, tag, comm,
                                   request, plan);
}
int tempi_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Issend");
  return p2p::nonblockingSend<int>(PMPI_Issend, false, buf, count, datatype, dest, tag, comm,
                                   request, plan);
}
int tempi_Isend_deferred(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Isend_deferred");
  return p2p::deferredSend<int>(PMPI_Isend, PMPI_Send_init, buf, count, datatype, dest, tag, comm,
                                request, plan);
}
int tempi_Issend_deferred(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Issend_deferred");
  return p2p::deferredSend<int>(PMPI_Issend, PMPI_Ssend_init, buf, count, datatype, dest, tag,
                                comm, request, plan);
}
int tempi_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Send_init");
  return p2p::nonblockingSend<int>(PMPI_Send_init, true, buf, count, datatype, dest, tag, comm,
                                   request, plan);
}

int tempi_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Status *status, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Recv");
  return p2p::blockingRecv<int>(PMPI_Recv, buf, count, datatype, source, tag, comm, status, plan);
}
int tempi_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                MPI_Request *request, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Irecv");
  return p2p::nonblockingRecv<int>(PMPI_Irecv, false, buf, count, datatype, source, tag, comm,
                                   request, plan);
}
int tempi_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                    MPI_Comm comm, MPI_Request *request, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Recv_init");
  return p2p::nonblockingRecv<int>(PMPI_Recv_init, true, buf, count, datatype, source, tag, comm,
                                   request, plan);
}

int tempi_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                   int recvtag, MPI_Comm comm, MPI_Status *status,
                   const tempi_static_plan *sendplan, const tempi_static_plan *recvplan) {
  verify::plans(sendbuf, sendplan, sendtype, recvplan, recvtype, "tempi_Sendrecv");
  return p2p::sendrecv<int>(PMPI_Sendrecv, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                            recvcount, recvtype, source, recvtag, comm, status, sendplan,
                            recvplan);
}

int tempi_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Status *status,
                           const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Sendrecv_replace");
  TEMPI_FLUSH_DEFERRED();
  if (!deviceData(buf, count, datatype)) {
    MPI_Status local;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
    int rc = PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, st);
    return p2p::afterHostRecv(rc, buf, count, datatype, comm, st, "receiving a message by ipc");
  }
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
