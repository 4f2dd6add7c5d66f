/// \file
/// MPI_Alltoallv, MPI_Alltoallw, MPI_Neighbor_alltoallv and MPI_Neighbor_alltoallw. Host buffers
/// go to the MPI unchanged. A device buffer side packs every peer's part into one staging buffer
/// (one fused launch for all strided peers, one copy, one synchronize) and the MPI exchanges bytes
/// (MPI_PACKED, byte counts and displacements); the receive side unpacks every peer's part after
/// the call, again in one fused launch. Block-list peers take one launch each.
/// A side with a type that has no kernel plan, or more than INT_MAX packed bytes, is mirrored
/// instead: the span all its peers touch is copied to the host and the MPI gets the original
/// counts, displacements and types on that copy. MPI_IN_PLACE goes to the MPI as it is, with a
/// device receive buffer mirrored.
/// With the IPC method on, the neighbour collectives go as point-to-point messages instead
/// (NeighborP2P.h), so that each neighbour's part can travel by ipc.
#include "DeferredSends.h"
#include "HostMirror.h"
#include "NeighborP2P.h"
#include "Runtime.h"
#include "Transfer.h"
#include "VerifyPlans.h"
#include "tempi/tempi.h"

#include <algorithm>
#include <climits>
#include <vector>

using namespace tempi;

namespace {

/// One side (send or receive) of a collective: per peer, count, byte offset and type.
struct Side {
  void *buf = nullptr;
  int peers = 0;
  std::vector<int> counts;
  std::vector<int64_t> offsets; ///< bytes from buf
  std::vector<MPI_Datatype> types;
  std::vector<const tempi_static_plan *> plans;
  // Set up by prepare():
  bool staged = false, mirror = false;
  Staging staging;
  int64_t lo = 0, hi = 0;
  std::vector<TypePlanPtr> typePlans;
  std::vector<int> byteCounts, byteDispls;
  void *mpiBuf = nullptr;
};

/// Whether a side's buffer is device memory: the pointer itself, or the first byte of the first
/// peer's part (the pointer may lie outside the allocation).
bool sideDevice(const Side &s) {
  if (runtime::isDevice(s.buf)) return true;
  if (!runtime::active() || !s.buf || s.buf == MPI_IN_PLACE) return false;
  for (int i = 0; i < s.peers; ++i)
    if (s.counts[i] > 0)
      return deviceData(static_cast<const char *>(s.buf) + s.offsets[i], s.counts[i], s.types[i]);
  return false;
}

tempi_result prepare(Side &s, bool isSend) {
  s.mpiBuf = s.buf;
  if (!sideDevice(s)) return TEMPI_SUCCESS;
  s.staged = true;
  int64_t total = 0;
  bool kernels = true;
  s.typePlans.resize(s.peers);
  s.byteCounts.resize(s.peers);
  s.byteDispls.resize(s.peers);
  s.lo = INT64_MAX;
  s.hi = INT64_MIN;
  for (int i = 0; i < s.peers; ++i) {
    TypePlanPtr p = planFor(s.types[i], s.plans[i]);
    s.typePlans[i] = p;
    kernels = kernels && p->kind != TypePlan::Kind::Mirror;
    int64_t bytes = int64_t(s.counts[i]) * p->size;
    s.byteDispls[i] = int(std::min<int64_t>(total, INT_MAX));
    s.byteCounts[i] = int(std::min<int64_t>(bytes, INT_MAX));
    total += bytes;
    int64_t lo, hi;
    touchedSpan(*p, s.counts[i], &lo, &hi);
    if (hi > lo) {
      s.lo = std::min(s.lo, s.offsets[i] + lo);
      s.hi = std::max(s.hi, s.offsets[i] + hi);
    }
  }
  if (s.hi < s.lo) s.lo = s.hi = 0;
  device::Stream st = device::defaultStream();
  char *user = static_cast<char *>(s.buf);
  if (!kernels || total > INT_MAX) {
    s.mirror = true;
    size_t span = size_t(s.hi - s.lo);
    if (span) {
      s.staging.host = device::allocPinned(span, false);
      s.staging.pinned = s.staging.host != nullptr;
      if (!s.staging.host) s.staging.host = malloc(span);
      if (!s.staging.host) return TEMPI_ERR_NO_MEMORY;
      s.staging.bytes = span;
    }
    s.mpiBuf = static_cast<char *>(s.staging.host) - s.lo;
    // Receive side too: bytes outside the types must survive the copy back.
    return copyAndSync(s.staging.host, user + s.lo, span);
  }
  if (total == 0) {
    s.mpiBuf = nullptr;
    return TEMPI_SUCCESS;
  }
  s.staging.bytes = size_t(total);
  s.staging.device = device::allocDevice(size_t(total));
  s.staging.host = device::allocPinned(size_t(total), false);
  s.staging.pinned = s.staging.host != nullptr;
  if (!s.staging.host) s.staging.host = malloc(size_t(total));
  if (!s.staging.device || !s.staging.host) return TEMPI_ERR_NO_MEMORY;
  s.mpiBuf = s.staging.host;
  if (!isSend) return TEMPI_SUCCESS;
  char *packed = static_cast<char *>(s.staging.device);
  std::vector<device::StridedJob> jobs; // every strided peer in one fused launch
  for (int i = 0; i < s.peers; ++i) {
    const TypePlan &p = *s.typePlans[i];
    if (s.byteCounts[i] == 0) continue;
    void *dst = packed + s.byteDispls[i];
    char *src = user + s.offsets[i];
    if (p.kind == TypePlan::Kind::Strided) {
      jobs.push_back({&p.kernel, 0, src, dst, s.counts[i]});
      continue;
    }
    tempi_result r = p.ensureUploaded();
    if (r == TEMPI_SUCCESS) r = device::packBlocks(p.blocks, src, s.counts[i], dst, st);
    if (r != TEMPI_SUCCESS) return r;
  }
  if (tempi_result r = device::packMany(jobs.data(), jobs.size(), st); r != TEMPI_SUCCESS) return r;
  if (tempi_result r = device::copyAsync(s.staging.host, s.staging.device, size_t(total), st);
      r != TEMPI_SUCCESS)
    return r;
  return device::synchronize(st);
}

tempi_result finish(Side &s) {
  if (!s.staged) return TEMPI_SUCCESS;
  char *user = static_cast<char *>(s.buf);
  if (s.mirror) return copyAndSync(user + s.lo, s.staging.host, size_t(s.hi - s.lo));
  if (s.staging.bytes == 0) return TEMPI_SUCCESS;
  device::Stream st = device::defaultStream();
  if (tempi_result r = device::copyAsync(s.staging.device, s.staging.host, s.staging.bytes, st);
      r != TEMPI_SUCCESS)
    return r;
  char *packed = static_cast<char *>(s.staging.device);
  std::vector<device::StridedJob> jobs; // every strided peer in one fused launch
  for (int i = 0; i < s.peers; ++i) {
    const TypePlan &p = *s.typePlans[i];
    if (s.byteCounts[i] == 0) continue;
    if (p.kind == TypePlan::Kind::Strided) {
      jobs.push_back({&p.kernel, 0, user + s.offsets[i], packed + s.byteDispls[i], s.counts[i]});
      continue;
    }
    tempi_result r = p.ensureUploaded();
    if (r == TEMPI_SUCCESS)
      r = device::unpackBlocks(p.blocks, user + s.offsets[i], packed + s.byteDispls[i],
                               s.counts[i], st);
    if (r != TEMPI_SUCCESS) return r;
  }
  if (tempi_result r = device::unpackMany(jobs.data(), jobs.size(), st); r != TEMPI_SUCCESS)
    return r;
  return device::synchronize(st);
}

MPI_Aint extentOf(MPI_Datatype t) {
  MPI_Aint lb = 0, extent = 0;
  PMPI_Type_get_extent(t, &lb, &extent);
  return extent;
}

template <typename Displ>
void fill(Side &s, const void *buf, int n, const int counts[], const Displ displs[],
          MPI_Datatype oneType, const MPI_Datatype types[], const tempi_static_plan *onePlan,
          const tempi_static_plan *const plans[]) {
  s.buf = const_cast<void *>(buf);
  s.peers = n;
  const MPI_Aint scale = types ? 1 : extentOf(oneType); // v: displacements in extents
  for (int i = 0; i < n; ++i) {
    s.counts.push_back(counts[i]);
    s.offsets.push_back(int64_t(displs[i]) * scale);
    s.types.push_back(types ? types[i] : oneType);
    s.plans.push_back(types ? (plans ? plans[i] : nullptr) : onePlan);
  }
}

/// Runs `call` with each side's MPI arguments, staging device sides around it.
template <typename Call> int staged(MPI_Comm comm, Side &send, Side &recv, Call &&call) {
  // MPI_IN_PLACE: the MPI reads what recvbuf holds, so the receive side is packed first too.
  tempi_result r = prepare(send, true);
  if (r == TEMPI_SUCCESS) r = prepare(recv, send.buf == MPI_IN_PLACE);
  if (r != TEMPI_SUCCESS) {
    releaseStaging(send.staging);
    releaseStaging(recv.staging);
    return runtime::raise(comm, r, "staging device buffers of a collective");
  }
  int rc = call();
  if (rc == MPI_SUCCESS) r = finish(recv);
  releaseStaging(send.staging);
  releaseStaging(recv.staging);
  if (r != TEMPI_SUCCESS) return runtime::raise(comm, r, "unpacking a collective's device buffer");
  return rc;
}

bool packed(const Side &s) { return s.staged && !s.mirror; }

/// A neighbour collective's receive block from MPI_PROC_NULL (a Cartesian edge) receives nothing
/// and must be left as it is: its count becomes 0, so nothing is unpacked there.
int skipNullSources(MPI_Comm comm, Side &recv) {
  std::vector<int> sources;
  if (int rc = neighbor::sources(comm, &sources); rc != MPI_SUCCESS) return rc;
  for (size_t j = 0; j < sources.size() && j < recv.counts.size(); ++j)
    if (sources[j] == MPI_PROC_NULL) recv.counts[j] = 0;
  return MPI_SUCCESS;
}

int alltoallvCommon(bool neighbor, const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    const tempi_static_plan *sendplan, const tempi_static_plan *recvplan) {
  auto pmpi = neighbor ? PMPI_Neighbor_alltoallv : PMPI_Alltoallv;
  const bool inPlace = sendbuf == MPI_IN_PLACE;
  if (!runtime::active())
    return pmpi(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                comm);
  int in = 0, out = 0;
  if (int rc = collectivePeers(comm, neighbor, &in, &out); rc != MPI_SUCCESS)
    return runtime::raiseCode(comm, rc, "counting a collective's peers");
  bool p2p = false;
  if (int rc = neighbor ? neighbor::overP2P(comm, sendbuf, &p2p) : MPI_SUCCESS; rc != MPI_SUCCESS)
    return rc;
  if (p2p)
    return neighbor::exchange(
        comm,
        neighbor::partsOf(sendbuf, out, sendcounts, sdispls, extentOf(sendtype), sendtype, nullptr,
                          sendplan, nullptr),
        neighbor::partsOf(recvbuf, in, recvcounts, rdispls, extentOf(recvtype), recvtype, nullptr,
                          recvplan, nullptr));
  Side send, recv;
  if (!inPlace)
    fill(send, sendbuf, out, sendcounts, sdispls, sendtype, nullptr, sendplan, nullptr);
  else
    send.buf = const_cast<void *>(sendbuf);
  fill(recv, recvbuf, in, recvcounts, rdispls, recvtype, nullptr, recvplan, nullptr);
  if (!sideDevice(send) && !sideDevice(recv))
    return pmpi(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                comm);
  if (neighbor)
    if (int rc = skipNullSources(comm, recv); rc != MPI_SUCCESS)
      return runtime::raiseCode(comm, rc, "reading a neighbour collective's topology");
  return staged(comm, send, recv, [&] {
    const void *sb = send.mpiBuf;
    const int *sc = packed(send) ? send.byteCounts.data() : sendcounts;
    const int *sd = packed(send) ? send.byteDispls.data() : sdispls;
    MPI_Datatype st = packed(send) ? MPI_PACKED : sendtype;
    const int *rc = packed(recv) ? recv.byteCounts.data() : recvcounts;
    const int *rd = packed(recv) ? recv.byteDispls.data() : rdispls;
    MPI_Datatype rt = packed(recv) ? MPI_PACKED : recvtype;
    return pmpi(sb, sc, sd, st, recv.mpiBuf, rc, rd, rt, comm);
  });
}

} // namespace

extern "C" {

int tempi_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    const tempi_static_plan *sendplan, const tempi_static_plan *recvplan) {
  verify::plans(sendbuf, sendplan, sendtype, recvplan, recvtype, "tempi_Alltoallv");
  TEMPI_FLUSH_DEFERRED();
  return alltoallvCommon(false, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                         rdispls, recvtype, comm, sendplan, recvplan);
}

int tempi_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             const tempi_static_plan *sendplan,
                             const tempi_static_plan *recvplan) {
  verify::plans(sendbuf, sendplan, sendtype, recvplan, recvtype, "tempi_Neighbor_alltoallv");
  TEMPI_FLUSH_DEFERRED();
  return alltoallvCommon(true, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                         rdispls, recvtype, comm, sendplan, recvplan);
}

int tempi_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    const tempi_static_plan *const sendplans[],
                    const tempi_static_plan *const recvplans[]) {
  verify::planArrays(comm, false, sendbuf, sendplans, sendtypes, recvplans, recvtypes,
                     "tempi_Alltoallw");
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active())
    return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                          recvtypes, comm);
  int in = 0, out = 0;
  if (int rc = collectivePeers(comm, false, &in, &out); rc != MPI_SUCCESS)
    return runtime::raiseCode(comm, rc, "counting a collective's peers");
  Side send, recv;
  if (sendbuf != MPI_IN_PLACE)
    fill(send, sendbuf, out, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes, nullptr, sendplans);
  else
    send.buf = const_cast<void *>(sendbuf);
  fill(recv, recvbuf, in, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes, nullptr, recvplans);
  if (!sideDevice(send) && !sideDevice(recv))
    return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                          recvtypes, comm);
  std::vector<MPI_Datatype> packedTypes(std::max(in, out), MPI_PACKED);
  return staged(comm, send, recv, [&] {
    return PMPI_Alltoallw(send.mpiBuf, packed(send) ? send.byteCounts.data() : sendcounts,
                          packed(send) ? send.byteDispls.data() : sdispls,
                          packed(send) ? packedTypes.data() : sendtypes, recv.mpiBuf,
                          packed(recv) ? recv.byteCounts.data() : recvcounts,
                          packed(recv) ? recv.byteDispls.data() : rdispls,
                          packed(recv) ? packedTypes.data() : recvtypes, comm);
  });
}

int tempi_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf,
                             const int recvcounts[], const MPI_Aint rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm,
                             const tempi_static_plan *const sendplans[],
                             const tempi_static_plan *const recvplans[]) {
  verify::planArrays(comm, true, sendbuf, sendplans, sendtypes, recvplans, recvtypes,
                     "tempi_Neighbor_alltoallw");
  TEMPI_FLUSH_DEFERRED();
  if (!runtime::active())
    return PMPI_Neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                   rdispls, recvtypes, comm);
  int in = 0, out = 0;
  if (int rc = collectivePeers(comm, true, &in, &out); rc != MPI_SUCCESS)
    return runtime::raiseCode(comm, rc, "counting a collective's peers");
  bool p2p = false;
  if (int rc = neighbor::overP2P(comm, sendbuf, &p2p); rc != MPI_SUCCESS) return rc;
  if (p2p)
    return neighbor::exchange(
        comm,
        neighbor::partsOf(sendbuf, out, sendcounts, sdispls, 1, MPI_DATATYPE_NULL, sendtypes,
                          nullptr, sendplans),
        neighbor::partsOf(recvbuf, in, recvcounts, rdispls, 1, MPI_DATATYPE_NULL, recvtypes,
                          nullptr, recvplans));
  Side send, recv;
  if (sendbuf != MPI_IN_PLACE)
    fill(send, sendbuf, out, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes, nullptr, sendplans);
  else
    send.buf = const_cast<void *>(sendbuf);
  fill(recv, recvbuf, in, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes, nullptr, recvplans);
  if (!sideDevice(send) && !sideDevice(recv))
    return PMPI_Neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                   rdispls, recvtypes, comm);
  if (int rc = skipNullSources(comm, recv); rc != MPI_SUCCESS)
    return runtime::raiseCode(comm, rc, "reading a neighbour collective's topology");
  std::vector<MPI_Datatype> packedTypes(std::max(in, out), MPI_PACKED);
  return staged(comm, send, recv, [&] {
    std::vector<MPI_Aint> sda(send.byteDispls.begin(), send.byteDispls.end());
    std::vector<MPI_Aint> rda(recv.byteDispls.begin(), recv.byteDispls.end());
    return PMPI_Neighbor_alltoallw(send.mpiBuf, packed(send) ? send.byteCounts.data() : sendcounts,
                                   packed(send) ? sda.data() : sdispls,
                                   packed(send) ? packedTypes.data() : sendtypes, recv.mpiBuf,
                                   packed(recv) ? recv.byteCounts.data() : recvcounts,
                                   packed(recv) ? rda.data() : rdispls,
                                   packed(recv) ? packedTypes.data() : recvtypes, comm);
  });
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm) {
  return tempi_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                         recvtype, comm, nullptr, nullptr);
}
int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return tempi_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                         recvtypes, comm, nullptr, nullptr);
}
int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                           MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return tempi_Neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                  rdispls, recvtype, comm, nullptr, nullptr);
}
int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                           MPI_Comm comm) {
  return tempi_Neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                  rdispls, recvtypes, comm, nullptr, nullptr);
}

} // extern "C"
