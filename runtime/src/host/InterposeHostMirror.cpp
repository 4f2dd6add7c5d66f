/// \file
/// The collectives libtempi does not pack, blocking and nonblocking: MPI_Bcast, _Reduce,
/// _Allreduce, _Scan, _Exscan, _Reduce_scatter, _Reduce_scatter_block, _Allgather(v), _Gather(v),
/// _Scatter(v), _Alltoall, and their MPI_I forms. Host buffers go to PMPI_X with the caller's
/// arguments. A device buffer argument is mirrored (HostMirror.h): the MPI gets the caller's
/// counts, displacements, datatypes and MPI_Op on a host copy of the span the type touches, and
/// output spans are copied back after the call (blocking) or when the request completes (the
/// request table finishes the copy back like a mirror receive wire: Requests.h).
///
/// Only arguments the MPI reads are looked at: a rooted collective's root-only buffers on the root
/// only (MPI_ROOT on an intercommunicator), MPI_IN_PLACE passes through (the buffer it names is
/// copied in and back as a whole), and per-rank counts/displacements size a v-variant's span.
/// Refuses nothing the MPI accepts; a failed copy or allocation is raised on the communicator
/// (runtime::raise) with every host copy released and nothing started.
#include "DeferredSends.h"
#include "HostMirror.h"

using namespace tempi;

namespace {

/// The caller's pointer for an argument the mirror does not hold (index < 0), else the mirror's.
void *arg(const HostMirror &m, int i, const void *caller) {
  return i < 0 ? const_cast<void *>(caller) : m.mpiBuf(i);
}

int bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request *req) {
  RootRole role;
  if (int rc = rootRole(comm, root, &role); rc != MPI_SUCCESS) return rc;
  HostMirror m;
  const int b = role.root ? m.add(buf, count, type, false)
                : role.leaf ? m.add(buf, count, type, true)
                            : -1;
  return mirroredCall(
      comm, m, req, [&] { return PMPI_Bcast(arg(m, b, buf), count, type, root, comm); },
      [&](MPI_Request *q) { return PMPI_Ibcast(arg(m, b, buf), count, type, root, comm, q); });
}

int reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
           MPI_Comm comm, MPI_Request *req) {
  RootRole role;
  if (int rc = rootRole(comm, root, &role); rc != MPI_SUCCESS) return rc;
  HostMirror m;
  const int s = role.leaf ? m.add(sendbuf, count, type, false) : -1;
  const int r = role.root ? m.add(recvbuf, count, type, true) : -1;
  return mirroredCall(
      comm, m, req,
      [&] {
        return PMPI_Reduce(arg(m, s, sendbuf), arg(m, r, recvbuf), count, type, op, root, comm);
      },
      [&](MPI_Request *q) {
        return PMPI_Ireduce(arg(m, s, sendbuf), arg(m, r, recvbuf), count, type, op, root, comm,
                            q);
      });
}

enum class AllKind { Allreduce, Scan, Exscan };

/// MPI_Allreduce, MPI_Scan and MPI_Exscan: the same arguments.
int allLike(AllKind kind, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
            MPI_Op op, MPI_Comm comm, MPI_Request *req) {
  HostMirror m;
  const int s = m.add(sendbuf, count, type, false), r = m.add(recvbuf, count, type, true);
  auto blocking = kind == AllKind::Allreduce ? PMPI_Allreduce
                  : kind == AllKind::Scan    ? PMPI_Scan
                                             : PMPI_Exscan;
  auto nonblocking = kind == AllKind::Allreduce ? PMPI_Iallreduce
                     : kind == AllKind::Scan    ? PMPI_Iscan
                                                : PMPI_Iexscan;
  return mirroredCall(
      comm, m, req, [&] { return blocking(m.mpiBuf(s), m.mpiBuf(r), count, type, op, comm); },
      [&](MPI_Request *q) {
        return nonblocking(m.mpiBuf(s), m.mpiBuf(r), count, type, op, comm, q);
      });
}

int reduceScatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm, MPI_Request *req) {
  int n = 0, rank = 0;
  if (int rc = PMPI_Comm_size(comm, &n); rc != MPI_SUCCESS) return rc;
  if (int rc = PMPI_Comm_rank(comm, &rank); rc != MPI_SUCCESS) return rc;
  MPI_Count total = 0;
  for (int i = 0; i < n; ++i) total += recvcounts[i];
  HostMirror m;
  const bool inPlace = sendbuf == MPI_IN_PLACE; // recvbuf then holds the whole input
  const int s = m.add(sendbuf, total, type, false);
  const int r = m.add(recvbuf, inPlace ? total : recvcounts[rank], type, true);
  return mirroredCall(
      comm, m, req,
      [&] { return PMPI_Reduce_scatter(m.mpiBuf(s), m.mpiBuf(r), recvcounts, type, op, comm); },
      [&](MPI_Request *q) {
        return PMPI_Ireduce_scatter(m.mpiBuf(s), m.mpiBuf(r), recvcounts, type, op, comm, q);
      });
}

int reduceScatterBlock(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type,
                       MPI_Op op, MPI_Comm comm, MPI_Request *req) {
  int n = 0;
  if (int rc = PMPI_Comm_size(comm, &n); rc != MPI_SUCCESS) return rc;
  const MPI_Count total = MPI_Count(n) * recvcount;
  HostMirror m;
  const bool inPlace = sendbuf == MPI_IN_PLACE;
  const int s = m.add(sendbuf, total, type, false);
  const int r = m.add(recvbuf, inPlace ? total : recvcount, type, true);
  return mirroredCall(
      comm, m, req,
      [&] {
        return PMPI_Reduce_scatter_block(m.mpiBuf(s), m.mpiBuf(r), recvcount, type, op, comm);
      },
      [&](MPI_Request *q) {
        return PMPI_Ireduce_scatter_block(m.mpiBuf(s), m.mpiBuf(r), recvcount, type, op, comm, q);
      });
}

int allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *req) {
  int n = 0;
  if (int rc = peerCount(comm, &n); rc != MPI_SUCCESS) return rc;
  HostMirror m;
  const int s = m.add(sendbuf, sendcount, sendtype, false);
  const int r = m.add(recvbuf, MPI_Count(n) * recvcount, recvtype, true);
  return mirroredCall(
      comm, m, req,
      [&] {
        return PMPI_Allgather(m.mpiBuf(s), sendcount, sendtype, m.mpiBuf(r), recvcount, recvtype,
                              comm);
      },
      [&](MPI_Request *q) {
        return PMPI_Iallgather(m.mpiBuf(s), sendcount, sendtype, m.mpiBuf(r), recvcount,
                               recvtype, comm, q);
      });
}

int allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
               MPI_Request *req) {
  int n = 0;
  if (int rc = peerCount(comm, &n); rc != MPI_SUCCESS) return rc;
  HostMirror m;
  const int s = m.add(sendbuf, sendcount, sendtype, false);
  const int r = m.addParts(recvbuf, n, recvcounts, displs, recvtype, true);
  return mirroredCall(
      comm, m, req,
      [&] {
        return PMPI_Allgatherv(m.mpiBuf(s), sendcount, sendtype, m.mpiBuf(r), recvcounts, displs,
                               recvtype, comm);
      },
      [&](MPI_Request *q) {
        return PMPI_Iallgatherv(m.mpiBuf(s), sendcount, sendtype, m.mpiBuf(r), recvcounts,
                                displs, recvtype, comm, q);
      });
}

int gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
           int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *req) {
  RootRole role;
  int n = 0;
  if (int rc = rootRole(comm, root, &role); rc != MPI_SUCCESS) return rc;
  if (int rc = peerCount(comm, &n); rc != MPI_SUCCESS) return rc;
  HostMirror m;
  const int s = role.leaf ? m.add(sendbuf, sendcount, sendtype, false) : -1;
  const int r = role.root ? m.add(recvbuf, MPI_Count(n) * recvcount, recvtype, true) : -1;
  return mirroredCall(
      comm, m, req,
      [&] {
        return PMPI_Gather(arg(m, s, sendbuf), sendcount, sendtype, arg(m, r, recvbuf), recvcount,
                           recvtype, root, comm);
      },
      [&](MPI_Request *q) {
        return PMPI_Igather(arg(m, s, sendbuf), sendcount, sendtype, arg(m, r, recvbuf),
                            recvcount, recvtype, root, comm, q);
      });
}

int gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
            MPI_Comm comm, MPI_Request *req) {
  RootRole role;
  int n = 0;
  if (int rc = rootRole(comm, root, &role); rc != MPI_SUCCESS) return rc;
  if (int rc = peerCount(comm, &n); rc != MPI_SUCCESS) return rc;
  HostMirror m;
  const int s = role.leaf ? m.add(sendbuf, sendcount, sendtype, false) : -1;
  const int r = role.root ? m.addParts(recvbuf, n, recvcounts, displs, recvtype, true) : -1;
  return mirroredCall(
      comm, m, req,
      [&] {
        return PMPI_Gatherv(arg(m, s, sendbuf), sendcount, sendtype, arg(m, r, recvbuf),
                            recvcounts, displs, recvtype, root, comm);
      },
      [&](MPI_Request *q) {
        return PMPI_Igatherv(arg(m, s, sendbuf), sendcount, sendtype, arg(m, r, recvbuf),
                             recvcounts, displs, recvtype, root, comm, q);
      });
}

int scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
            int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *req) {
  RootRole role;
  int n = 0;
  if (int rc = rootRole(comm, root, &role); rc != MPI_SUCCESS) return rc;
  if (int rc = peerCount(comm, &n); rc != MPI_SUCCESS) return rc;
  HostMirror m;
  const int s = role.root ? m.add(sendbuf, MPI_Count(n) * sendcount, sendtype, false) : -1;
  const int r = role.leaf ? m.add(recvbuf, recvcount, recvtype, true) : -1;
  return mirroredCall(
      comm, m, req,
      [&] {
        return PMPI_Scatter(arg(m, s, sendbuf), sendcount, sendtype, arg(m, r, recvbuf),
                            recvcount, recvtype, root, comm);
      },
      [&](MPI_Request *q) {
        return PMPI_Iscatter(arg(m, s, sendbuf), sendcount, sendtype, arg(m, r, recvbuf),
                             recvcount, recvtype, root, comm, q);
      });
}

int scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
             MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
             MPI_Comm comm, MPI_Request *req) {
  RootRole role;
  int n = 0;
  if (int rc = rootRole(comm, root, &role); rc != MPI_SUCCESS) return rc;
  if (int rc = peerCount(comm, &n); rc != MPI_SUCCESS) return rc;
  HostMirror m;
  const int s = role.root ? m.addParts(sendbuf, n, sendcounts, displs, sendtype, false) : -1;
  const int r = role.leaf ? m.add(recvbuf, recvcount, recvtype, true) : -1;
  return mirroredCall(
      comm, m, req,
      [&] {
        return PMPI_Scatterv(arg(m, s, sendbuf), sendcounts, displs, sendtype,
                             arg(m, r, recvbuf), recvcount, recvtype, root, comm);
      },
      [&](MPI_Request *q) {
        return PMPI_Iscatterv(arg(m, s, sendbuf), sendcounts, displs, sendtype,
                              arg(m, r, recvbuf), recvcount, recvtype, root, comm, q);
      });
}

int alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *req) {
  int n = 0;
  if (int rc = peerCount(comm, &n); rc != MPI_SUCCESS) return rc;
  HostMirror m;
  const int s = m.add(sendbuf, MPI_Count(n) * sendcount, sendtype, false);
  const int r = m.add(recvbuf, MPI_Count(n) * recvcount, recvtype, true);
  return mirroredCall(
      comm, m, req,
      [&] {
        return PMPI_Alltoall(m.mpiBuf(s), sendcount, sendtype, m.mpiBuf(r), recvcount, recvtype,
                             comm);
      },
      [&](MPI_Request *q) {
        return PMPI_Ialltoall(m.mpiBuf(s), sendcount, sendtype, m.mpiBuf(r), recvcount, recvtype,
                              comm, q);
      });
}

} // namespace

// Each entry point: start deferred sends, then the plain call while the runtime is inactive
// (before MPI_Init, no GPU, TEMPI_DISABLE) or, for an MPI_I form, when the request pointer is
// null (the MPI reports that), else the mirrored call above (request == nullptr: blocking).
extern "C" {

int MPI_Bcast(void *buf, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active()) return PMPI_Bcast(buf, count, datatype, root, comm);
  return bcast(buf, count, datatype, root, comm, nullptr);
}
int MPI_Ibcast(void *buf, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active() || !request) return PMPI_Ibcast(buf, count, datatype, root, comm, request);
  return bcast(buf, count, datatype, root, comm, request);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active()) return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
  return reduce(sendbuf, recvbuf, count, datatype, op, root, comm, nullptr);
}
int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active() || !request)
    return PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
  return reduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active()) return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
  return allLike(AllKind::Allreduce, sendbuf, recvbuf, count, datatype, op, comm, nullptr);
}
int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active() || !request)
    return PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
  return allLike(AllKind::Allreduce, sendbuf, recvbuf, count, datatype, op, comm, request);
}
int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active()) return PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm);
  return allLike(AllKind::Scan, sendbuf, recvbuf, count, datatype, op, comm, nullptr);
}
int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active() || !request)
    return PMPI_Iscan(sendbuf, recvbuf, count, datatype, op, comm, request);
  return allLike(AllKind::Scan, sendbuf, recvbuf, count, datatype, op, comm, request);
}
int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active()) return PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm);
  return allLike(AllKind::Exscan, sendbuf, recvbuf, count, datatype, op, comm, nullptr);
}
int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active() || !request)
    return PMPI_Iexscan(sendbuf, recvbuf, count, datatype, op, comm, request);
  return allLike(AllKind::Exscan, sendbuf, recvbuf, count, datatype, op, comm, request);
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active())
    return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
  return reduceScatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, nullptr);
}
int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active() || !request)
    return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
  return reduceScatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
}
int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active())
    return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
  return reduceScatterBlock(sendbuf, recvbuf, recvcount, datatype, op, comm, nullptr);
}
int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active() || !request)
    return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
  return reduceScatterBlock(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active())
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, nullptr);
}
int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active() || !request)
    return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                           request);
  return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}
int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active())
    return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                           comm);
  return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                    nullptr);
}
int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active() || !request)
    return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                            comm, request);
  return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                    request);
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active())
    return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, nullptr);
}
int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active() || !request)
    return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        request);
  return gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}
int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active())
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                        comm);
  return gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
                 nullptr);
}
int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active() || !request)
    return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                         root, comm, request);
  return gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
                 request);
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active())
    return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, nullptr);
}
int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active() || !request)
    return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                         request);
  return scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}
int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active())
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                         comm);
  return scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                  nullptr);
}
int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active() || !request)
    return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                          root, comm, request);
  return scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                  request);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active())
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, nullptr);
}
int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active() || !request)
    return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          request);
  return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

} // extern "C"
