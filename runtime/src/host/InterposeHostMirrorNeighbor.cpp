/// \file
/// More host-mirrored collectives (HostMirror.h, as InterposeHostMirror.cpp): the neighborhood
/// collectives MPI_Neighbor_allgather, _Neighbor_allgatherv and _Neighbor_alltoall with their
/// MPI_I forms, and the nonblocking forms of the calls InterposeCollectives.cpp packs:
/// MPI_Ialltoallv, _Ialltoallw, _Ineighbor_alltoallv, _Ineighbor_alltoallw (mirrored here, not
/// packed: the host copies go with the request and the receive span is copied back when it
/// completes). Host buffers go to PMPI_X with the caller's arguments.
///
/// Peers: the communicator's (remote) size, or a topology's in- and out-degree. On a communicator
/// without a topology a neighborhood call goes to the MPI as it is, which reports the error.
/// A failed copy or allocation is raised on the communicator with nothing started.
#include "DeferredSends.h"
#include "HostMirror.h"

using namespace tempi;

namespace {

int neighborAllgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *req) {
  auto plain = [&] {
    return req ? PMPI_Ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, comm, req)
               : PMPI_Neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                         comm);
  };
  int in = 0, out = 0;
  if (!runtime::active() || neighborCounts(comm, &in, &out) != MPI_SUCCESS)
    return plain();
  HostMirror m;
  const int s = m.add(sendbuf, sendcount, sendtype, false);
  const int r = m.add(recvbuf, MPI_Count(in) * recvcount, recvtype, true);
  return mirroredCall(
      comm, m, req,
      [&] {
        return PMPI_Neighbor_allgather(m.mpiBuf(s), sendcount, sendtype, m.mpiBuf(r), recvcount,
                                       recvtype, comm);
      },
      [&](MPI_Request *q) {
        return PMPI_Ineighbor_allgather(m.mpiBuf(s), sendcount, sendtype, m.mpiBuf(r), recvcount,
                                        recvtype, comm, q);
      });
}

int neighborAllgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                       MPI_Comm comm, MPI_Request *req) {
  auto plain = [&] {
    return req ? PMPI_Ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                           displs, recvtype, comm, req)
               : PMPI_Neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                          recvtype, comm);
  };
  int in = 0, out = 0;
  if (!runtime::active() || neighborCounts(comm, &in, &out) != MPI_SUCCESS)
    return plain();
  HostMirror m;
  const int s = m.add(sendbuf, sendcount, sendtype, false);
  const int r = m.addParts(recvbuf, in, recvcounts, displs, recvtype, true);
  return mirroredCall(
      comm, m, req,
      [&] {
        return PMPI_Neighbor_allgatherv(m.mpiBuf(s), sendcount, sendtype, m.mpiBuf(r), recvcounts,
                                        displs, recvtype, comm);
      },
      [&](MPI_Request *q) {
        return PMPI_Ineighbor_allgatherv(m.mpiBuf(s), sendcount, sendtype, m.mpiBuf(r), recvcounts,
                                         displs, recvtype, comm, q);
      });
}

int neighborAlltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *req) {
  auto plain = [&] {
    return req ? PMPI_Ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                         comm, req)
               : PMPI_Neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                        comm);
  };
  int in = 0, out = 0;
  if (!runtime::active() || neighborCounts(comm, &in, &out) != MPI_SUCCESS)
    return plain();
  HostMirror m;
  const int s = m.add(sendbuf, MPI_Count(out) * sendcount, sendtype, false);
  const int r = m.add(recvbuf, MPI_Count(in) * recvcount, recvtype, true);
  return mirroredCall(
      comm, m, req,
      [&] {
        return PMPI_Neighbor_alltoall(m.mpiBuf(s), sendcount, sendtype, m.mpiBuf(r), recvcount,
                                      recvtype, comm);
      },
      [&](MPI_Request *q) {
        return PMPI_Ineighbor_alltoall(m.mpiBuf(s), sendcount, sendtype, m.mpiBuf(r), recvcount,
                                       recvtype, comm, q);
      });
}

/// Peers of an (I)alltoallv/w, or of its neighborhood form.
int peers(MPI_Comm comm, bool neighbor, int *in, int *out) {
  if (neighbor)
    return neighborCounts(comm, in, out);
  int rc = peerCount(comm, in);
  *out = *in;
  return rc;
}

} // namespace

extern "C" {

int MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  return neighborAllgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                           nullptr);
}
int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!request) // the MPI reports the missing request
    return PMPI_Ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                    comm, request);
  return neighborAllgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                           request);
}
int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  return neighborAllgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                            comm, nullptr);
}
int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!request) // the MPI reports the missing request
    return PMPI_Ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                     recvtype, comm, request);
  return neighborAllgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                            comm, request);
}
int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  return neighborAlltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          nullptr);
}
int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!request) // the MPI reports the missing request
    return PMPI_Ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                   request);
  return neighborAlltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          request);
}

static int ialltoallv(bool neighbor, const void *sendbuf, const int sendcounts[],
                      const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                      MPI_Comm comm, MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  auto pmpi = neighbor ? PMPI_Ineighbor_alltoallv : PMPI_Ialltoallv;
  int in = 0, out = 0;
  if (!runtime::active() || !request || peers(comm, neighbor, &in, &out) != MPI_SUCCESS)
    return pmpi(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                comm, request);
  HostMirror m;
  const int s = m.addParts(sendbuf, out, sendcounts, sdispls, sendtype, false);
  const int r = m.addParts(recvbuf, in, recvcounts, rdispls, recvtype, true);
  return mirroredCall(
      comm, m, request, [] { return MPI_ERR_INTERN; },
      [&](MPI_Request *q) {
        return pmpi(m.mpiBuf(s), sendcounts, sdispls, sendtype, m.mpiBuf(r), recvcounts, rdispls,
                    recvtype, comm, q);
      });
}
int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request *request) {
  return ialltoallv(false, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                    recvtype, comm, request);
}
int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request) {
  return ialltoallv(true, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                    recvtype, comm, request);
}

int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  int in = 0, out = 0;
  if (!runtime::active() || !request || peers(comm, false, &in, &out) != MPI_SUCCESS)
    return PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                           recvtypes, comm, request);
  HostMirror m;
  const int s = m.addPartsW(sendbuf, out, sendcounts, sdispls, sendtypes, false);
  const int r = m.addPartsW(recvbuf, in, recvcounts, rdispls, recvtypes, true);
  return mirroredCall(
      comm, m, request, [] { return MPI_ERR_INTERN; },
      [&](MPI_Request *q) {
        return PMPI_Ialltoallw(m.mpiBuf(s), sendcounts, sdispls, sendtypes, m.mpiBuf(r), recvcounts,
                               rdispls, recvtypes, comm, q);
      });
}
int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  int in = 0, out = 0;
  if (!runtime::active() || !request || peers(comm, true, &in, &out) != MPI_SUCCESS)
    return PMPI_Ineighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                    rdispls, recvtypes, comm, request);
  HostMirror m;
  const int s = m.addPartsW(sendbuf, out, sendcounts, sdispls, sendtypes, false);
  const int r = m.addPartsW(recvbuf, in, recvcounts, rdispls, recvtypes, true);
  return mirroredCall(
      comm, m, request, [] { return MPI_ERR_INTERN; },
      [&](MPI_Request *q) {
        return PMPI_Ineighbor_alltoallw(m.mpiBuf(s), sendcounts, sdispls, sendtypes, m.mpiBuf(r),
                                        recvcounts, rdispls, recvtypes, comm, q);
      });
}

} // extern "C"
