/// \file
/// The MPI-4 large-count (_c) forms of MPI_Alltoallv, MPI_Alltoallw, MPI_Neighbor_alltoallv and
/// MPI_Neighbor_alltoallw: MPI_X_c (profiling interface) = tempi_X_c(..., NULL plans). Host
/// buffers go to PMPI_X_c with the caller's arguments. With a device buffer, when every count
/// and displacement fits an int (Neighbor_alltoallw_c: every count; its int form takes MPI_Aint
/// displacements) the int forms run (tempi_Alltoallv, ..., InterposeCollectives.cpp: packed
/// staging); otherwise each device side is mirrored here: the span its peers touch is copied to
/// host memory, the MPI gets the caller's counts, displacements and types on that copy, and a
/// receive side's span is copied back after the call. Every entry point first starts the
/// thread's deferred sends (DeferredSends.h).
///
/// Refuses nothing itself; like the int forms it assumes one allocation per side (a side is
/// classified by its buffer pointer and first peer's part, and a mirror copies one span).
/// Compiled only against an MPI with the _c calls (MPI_VERSION >= 4, TEMPI_HAVE_LARGE_COUNT).
#include "tempi/tempi.h"

#ifdef TEMPI_HAVE_LARGE_COUNT

#include "DeferredSends.h"
#include "HostMirror.h"
#include "NeighborP2P.h"
#include "Runtime.h"
#include "Transfer.h"
#include "VerifyPlans.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <vector>

using namespace tempi;

namespace {

bool fitsInt(MPI_Count v) { return v >= INT_MIN && v <= INT_MAX; }

template <typename T> bool allFitInt(const T *v, int n) {
  if (!v) return true;
  for (int i = 0; i < n; ++i)
    if (!fitsInt(MPI_Count(v[i]))) return false;
  return true;
}

template <typename T> std::vector<int> toInt(const T *v, int n) {
  std::vector<int> out;
  if (v) out.assign(v, v + n);
  return out;
}

/// One side of a large-count collective with a device buffer: the host copy of the span all its
/// peers touch. `types` is null for the v forms (one type, displacements in its extent).
struct MirrorSide {
  void *buf = nullptr;
  void *host = nullptr; ///< malloc'ed copy of [lo, hi)
  int64_t lo = 0, hi = 0;
  bool device = false;
  ~MirrorSide() { free(host); }

  /// The pointer the MPI gets: the host copy shifted so that the caller's offsets land in it.
  void *mpiBuf() const { return device ? static_cast<char *>(host) - lo : buf; }
};

tempi_result mirrorIn(MirrorSide &s, const void *buf, int n, const MPI_Count counts[],
                      const MPI_Aint displs[], MPI_Datatype oneType, const MPI_Datatype types[],
                      const tempi_static_plan *onePlan, const tempi_static_plan *const plans[]) {
  s.buf = const_cast<void *>(buf);
  if (!runtime::active() || !buf || buf == MPI_IN_PLACE) return TEMPI_SUCCESS;
  MPI_Aint scale = 1;
  if (!types) {
    MPI_Aint lb = 0;
    PMPI_Type_get_extent(oneType, &lb, &scale);
  }
  s.lo = INT64_MAX;
  s.hi = INT64_MIN;
  for (int i = 0; i < n; ++i) {
    if (counts[i] <= 0) continue;
    MPI_Datatype t = types ? types[i] : oneType;
    const char *part = static_cast<const char *>(buf) + int64_t(displs[i]) * scale;
    s.device = s.device || runtime::isDevice(buf) || deviceData(part, counts[i], t);
    TypePlanPtr p = planFor(t, types ? (plans ? plans[i] : nullptr) : onePlan);
    int64_t lo = 0, hi = 0;
    touchedSpan(*p, counts[i], &lo, &hi);
    if (hi > lo) {
      s.lo = std::min(s.lo, int64_t(displs[i]) * scale + lo);
      s.hi = std::max(s.hi, int64_t(displs[i]) * scale + hi);
    }
  }
  if (s.hi < s.lo) s.lo = s.hi = 0;
  if (!s.device) return TEMPI_SUCCESS;
  const size_t span = size_t(s.hi - s.lo);
  s.host = malloc(span ? span : 1);
  if (!s.host) return TEMPI_ERR_NO_MEMORY;
  // A receive side is copied too: the bytes between the types' blocks must survive.
  return copyAndSync(s.host, static_cast<char *>(s.buf) + s.lo, span);
}

tempi_result mirrorOut(const MirrorSide &s) {
  if (!s.device) return TEMPI_SUCCESS;
  return copyAndSync(static_cast<char *>(s.buf) + s.lo, s.host, size_t(s.hi - s.lo));
}

/// Runs `call(sendbuf, recvbuf)` on mirrored sides (device buffers whose counts need the _c call).
template <typename Call>
int mirrored(MPI_Comm comm, MirrorSide &send, MirrorSide &recv, Call &&call) {
  int rc = call(send.mpiBuf(), recv.mpiBuf());
  if (rc != MPI_SUCCESS) return rc;
  if (tempi_result r = mirrorOut(recv); r != TEMPI_SUCCESS)
    return runtime::raise(comm, r, "copying a collective's device receive buffer back");
  return rc;
}

/// Whether a collective side with these arguments touches device memory (quick check before any
/// conversion; mirrorIn decides for real).
bool anyDevice(const void *buf, int n, const MPI_Count counts[], const MPI_Aint displs[],
               MPI_Datatype oneType, const MPI_Datatype types[]) {
  if (!runtime::active() || !buf || buf == MPI_IN_PLACE) return false;
  if (runtime::isDevice(buf)) return true;
  MPI_Aint scale = 1;
  if (!types) {
    MPI_Aint lb = 0;
    PMPI_Type_get_extent(oneType, &lb, &scale);
  }
  for (int i = 0; i < n; ++i)
    if (counts[i] > 0)
      return deviceData(static_cast<const char *>(buf) + int64_t(displs[i]) * scale, counts[i],
                        types ? types[i] : oneType);
  return false;
}

int alltoallvCommon(bool neighbor, const void *sendbuf, const MPI_Count sendcounts[],
                    const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype,
                    MPI_Comm comm, const tempi_static_plan *sendplan,
                    const tempi_static_plan *recvplan) {
  TEMPI_FLUSH_DEFERRED();
  auto pmpi = neighbor ? PMPI_Neighbor_alltoallv_c : PMPI_Alltoallv_c;
  if (!runtime::active())
    return pmpi(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                comm);
  int in = 0, out = 0;
  if (int rc = collectivePeers(comm, neighbor, &in, &out); rc != MPI_SUCCESS)
    return runtime::raiseCode(comm, rc, "counting a collective's peers");
  const bool inPlace = sendbuf == MPI_IN_PLACE;
  // Before the device check: every rank must take the same path.
  bool p2p = false;
  if (int rc = neighbor ? neighbor::overP2P(comm, sendbuf, &p2p) : MPI_SUCCESS; rc != MPI_SUCCESS)
    return rc;
  if (p2p) {
    MPI_Aint lb = 0, sext = 0, rext = 0;
    PMPI_Type_get_extent(sendtype, &lb, &sext);
    PMPI_Type_get_extent(recvtype, &lb, &rext);
    return neighbor::exchange(
        comm,
        neighbor::partsOf(sendbuf, out, sendcounts, sdispls, sext, sendtype, nullptr, sendplan,
                          nullptr),
        neighbor::partsOf(recvbuf, in, recvcounts, rdispls, rext, recvtype, nullptr, recvplan,
                          nullptr));
  }
  if (!(!inPlace && anyDevice(sendbuf, out, sendcounts, sdispls, sendtype, nullptr)) &&
      !anyDevice(recvbuf, in, recvcounts, rdispls, recvtype, nullptr))
    return pmpi(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                comm);
  if ((inPlace || (allFitInt(sendcounts, out) && allFitInt(sdispls, out))) &&
      allFitInt(recvcounts, in) && allFitInt(rdispls, in)) {
    std::vector<int> sc = inPlace ? std::vector<int>() : toInt(sendcounts, out);
    std::vector<int> sd = inPlace ? std::vector<int>() : toInt(sdispls, out);
    std::vector<int> rc = toInt(recvcounts, in), rd = toInt(rdispls, in);
    return (neighbor ? tempi_Neighbor_alltoallv : tempi_Alltoallv)(
        sendbuf, inPlace ? nullptr : sc.data(), inPlace ? nullptr : sd.data(), sendtype, recvbuf,
        rc.data(), rd.data(), recvtype, comm, sendplan, recvplan);
  }
  MirrorSide send, recv;
  tempi_result r = TEMPI_SUCCESS;
  if (!inPlace)
    r = mirrorIn(send, sendbuf, out, sendcounts, sdispls, sendtype, nullptr, sendplan, nullptr);
  else
    send.buf = const_cast<void *>(sendbuf);
  if (r == TEMPI_SUCCESS)
    r = mirrorIn(recv, recvbuf, in, recvcounts, rdispls, recvtype, nullptr, recvplan, nullptr);
  if (r != TEMPI_SUCCESS) return runtime::raise(comm, r, "mirroring a collective's device buffer");
  return mirrored(comm, send, recv, [&](const void *sb, void *rb) {
    return pmpi(sb, sendcounts, sdispls, sendtype, rb, recvcounts, rdispls, recvtype, comm);
  });
}

int alltoallwCommon(bool neighbor, const void *sendbuf, const MPI_Count sendcounts[],
                    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                    const MPI_Datatype recvtypes[], MPI_Comm comm,
                    const tempi_static_plan *const sendplans[],
                    const tempi_static_plan *const recvplans[]) {
  TEMPI_FLUSH_DEFERRED();
  auto pmpi = neighbor ? PMPI_Neighbor_alltoallw_c : PMPI_Alltoallw_c;
  if (!runtime::active())
    return pmpi(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                comm);
  int in = 0, out = 0;
  if (int rc = collectivePeers(comm, neighbor, &in, &out); rc != MPI_SUCCESS)
    return runtime::raiseCode(comm, rc, "counting a collective's peers");
  const bool inPlace = sendbuf == MPI_IN_PLACE;
  // Before the device check: every rank must take the same path.
  bool p2p = false;
  if (int rc = neighbor ? neighbor::overP2P(comm, sendbuf, &p2p) : MPI_SUCCESS; rc != MPI_SUCCESS)
    return rc;
  if (p2p)
    return neighbor::exchange(
        comm,
        neighbor::partsOf(sendbuf, out, sendcounts, sdispls, 1, MPI_DATATYPE_NULL, sendtypes,
                          nullptr, sendplans),
        neighbor::partsOf(recvbuf, in, recvcounts, rdispls, 1, MPI_DATATYPE_NULL, recvtypes,
                          nullptr, recvplans));
  if (!(!inPlace && anyDevice(sendbuf, out, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes)) &&
      !anyDevice(recvbuf, in, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes))
    return pmpi(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                comm);
  const bool countsFit = (inPlace || allFitInt(sendcounts, out)) && allFitInt(recvcounts, in);
  if (countsFit && neighbor) { // MPI_Neighbor_alltoallw has MPI_Aint displacements already
    std::vector<int> sc = inPlace ? std::vector<int>() : toInt(sendcounts, out);
    std::vector<int> rc = toInt(recvcounts, in);
    return tempi_Neighbor_alltoallw(sendbuf, inPlace ? nullptr : sc.data(), sdispls, sendtypes,
                                    recvbuf, rc.data(), rdispls, recvtypes, comm, sendplans,
                                    recvplans);
  }
  if (countsFit && (inPlace || allFitInt(sdispls, out)) && allFitInt(rdispls, in)) {
    std::vector<int> sc = inPlace ? std::vector<int>() : toInt(sendcounts, out);
    std::vector<int> sd = inPlace ? std::vector<int>() : toInt(sdispls, out);
    std::vector<int> rc = toInt(recvcounts, in), rd = toInt(rdispls, in);
    return tempi_Alltoallw(sendbuf, inPlace ? nullptr : sc.data(), inPlace ? nullptr : sd.data(),
                           sendtypes, recvbuf, rc.data(), rd.data(), recvtypes, comm, sendplans,
                           recvplans);
  }
  MirrorSide send, recv;
  tempi_result r = TEMPI_SUCCESS;
  if (!inPlace)
    r = mirrorIn(send, sendbuf, out, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes, nullptr,
                 sendplans);
  else
    send.buf = const_cast<void *>(sendbuf);
  if (r == TEMPI_SUCCESS)
    r = mirrorIn(recv, recvbuf, in, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes, nullptr,
                 recvplans);
  if (r != TEMPI_SUCCESS) return runtime::raise(comm, r, "mirroring a collective's device buffer");
  return mirrored(comm, send, recv, [&](const void *sb, void *rb) {
    return pmpi(sb, sendcounts, sdispls, sendtypes, rb, recvcounts, rdispls, recvtypes, comm);
  });
}

} // namespace

extern "C" {

int tempi_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                      const tempi_static_plan *sendplan, const tempi_static_plan *recvplan) {
  verify::plans(sendbuf, sendplan, sendtype, recvplan, recvtype, "tempi_Alltoallv_c");
  return alltoallvCommon(false, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                         rdispls, recvtype, comm, sendplan, recvplan);
}
int tempi_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm,
                               const tempi_static_plan *sendplan,
                               const tempi_static_plan *recvplan) {
  verify::plans(sendbuf, sendplan, sendtype, recvplan, recvtype, "tempi_Neighbor_alltoallv_c");
  return alltoallvCommon(true, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                         rdispls, recvtype, comm, sendplan, recvplan);
}
int tempi_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                      const tempi_static_plan *const sendplans[],
                      const tempi_static_plan *const recvplans[]) {
  verify::planArrays(comm, false, sendbuf, sendplans, sendtypes, recvplans, recvtypes,
                     "tempi_Alltoallw_c");
  return alltoallwCommon(false, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                         rdispls, recvtypes, comm, sendplans, recvplans);
}
int tempi_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                               MPI_Comm comm, const tempi_static_plan *const sendplans[],
                               const tempi_static_plan *const recvplans[]) {
  verify::planArrays(comm, true, sendbuf, sendplans, sendtypes, recvplans, recvtypes,
                     "tempi_Neighbor_alltoallw_c");
  return alltoallwCommon(true, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                         rdispls, recvtypes, comm, sendplans, recvplans);
}

// The profiling-interface entry points.
int MPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                    const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return tempi_Alltoallv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype, comm, nullptr, nullptr);
}
int MPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return tempi_Alltoallw_c(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                           recvtypes, comm, nullptr, nullptr);
}
int MPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                             const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                             const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                             MPI_Datatype recvtype, MPI_Comm comm) {
  return tempi_Neighbor_alltoallv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                    rdispls, recvtype, comm, nullptr, nullptr);
}
int MPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                             const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                             void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return tempi_Neighbor_alltoallw_c(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                    rdispls, recvtypes, comm, nullptr, nullptr);
}

} // extern "C"

#endif // TEMPI_HAVE_LARGE_COUNT
