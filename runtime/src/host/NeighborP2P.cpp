/// \file
/// Neighbour collectives as point-to-point messages when ipc is on (NeighborP2P.h): the
/// topology read once per communicator and cached with the private communicator, and the
/// exchange over libtempi's own nonblocking receives and deferred sends.
#include "NeighborP2P.h"

#include "CommCache.h"
#include "DeferredSends.h"
#include "Ipc.h"
#include "Requests.h"
#include "Runtime.h"

#include <climits>

namespace tempi::neighbor {
namespace {

/// The one tag of the private communicator: every message there belongs to a neighbour
/// collective, and collectives on one communicator are ordered, so non-overtaking keeps
/// consecutive calls apart.
constexpr int kTag = 0;

/// What is cached on a program's communicator (it owns the private communicator).
struct Topology {
  bool usable = false;
  MPI_Comm wire = MPI_COMM_NULL; ///< the private communicator (usable only)
  std::vector<int> sources, dests;
  Topology() = default;
  Topology(const Topology &) = delete;
  Topology &operator=(const Topology &) = delete;
  ~Topology() {
    if (wire != MPI_COMM_NULL) PMPI_Comm_free(&wire);
  }
};

CommCache<Topology> topologies;

/// Reads comm's neighbours in the order MPI_Neighbor_alltoallw numbers them, and whether the
/// point-to-point exchange is used (NeighborP2P.h: the same answer on every rank).
int readTopology(MPI_Comm comm, Topology &t) {
  int topo = MPI_UNDEFINED;
  if (int rc = PMPI_Topo_test(comm, &topo); rc != MPI_SUCCESS) return rc;
  if (topo == MPI_DIST_GRAPH) {
    int in = 0, out = 0, weighted = 0;
    if (int rc = PMPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted); rc != MPI_SUCCESS)
      return rc;
    t.sources.assign(size_t(in > 0 ? in : 1), MPI_PROC_NULL);
    t.dests.assign(size_t(out > 0 ? out : 1), MPI_PROC_NULL);
    std::vector<int> sw(t.sources.size()), dw(t.dests.size());
    int rc = PMPI_Dist_graph_neighbors(comm, in, t.sources.data(),
                                       weighted ? sw.data() : MPI_UNWEIGHTED, out,
                                       t.dests.data(), weighted ? dw.data() : MPI_UNWEIGHTED);
    t.sources.resize(size_t(in));
    t.dests.resize(size_t(out));
    t.usable = rc == MPI_SUCCESS;
    return rc;
  }
  if (topo == MPI_CART) {
    int ndims = 0;
    if (int rc = PMPI_Cartdim_get(comm, &ndims); rc != MPI_SUCCESS) return rc;
    std::vector<int> dims(size_t(ndims) + 1), periods(size_t(ndims) + 1), coords(size_t(ndims) + 1);
    if (int rc = PMPI_Cart_get(comm, ndims, dims.data(), periods.data(), coords.data());
        rc != MPI_SUCCESS)
      return rc;
    t.usable = true;
    for (int d = 0; d < ndims; ++d) {
      // A periodic dimension of 1 or 2 processes: one process is both neighbours.
      if (periods[size_t(d)] && dims[size_t(d)] < 3) t.usable = false;
      int lower = MPI_PROC_NULL, upper = MPI_PROC_NULL;
      if (int rc = PMPI_Cart_shift(comm, d, 1, &lower, &upper); rc != MPI_SUCCESS) return rc;
      t.sources.insert(t.sources.end(), {lower, upper});
      t.dests.insert(t.dests.end(), {lower, upper});
    }
    return MPI_SUCCESS;
  }
  return MPI_SUCCESS; // MPI_GRAPH or none: the MPI's collective (which reports a missing one)
}

/// One part's receive, by TEMPI's nonblocking receive (the _c form for a count over INT_MAX,
/// which only the MPI-4 _c collectives can pass).
int postRecv(const Part &p, int source, MPI_Comm wire, MPI_Request *r) {
#ifdef TEMPI_HAVE_LARGE_COUNT
  if (p.count > INT_MAX) return tempi_Irecv_c(p.buf, p.count, p.type, source, kTag, wire, r, p.plan);
#endif
  return tempi_Irecv(p.buf, int(p.count), p.type, source, kTag, wire, r, p.plan);
}

/// One part's send, deferred: every device part's pack joins one batch, run by the wait.
int postSend(const Part &p, int dest, MPI_Comm wire, MPI_Request *r) {
#ifdef TEMPI_HAVE_LARGE_COUNT
  if (p.count > INT_MAX)
    return tempi_Isend_deferred_c(p.buf, p.count, p.type, dest, kTag, wire, r, p.plan);
#endif
  return tempi_Isend_deferred(p.buf, int(p.count), p.type, dest, kTag, wire, r, p.plan);
}

/// Ends what was posted before a failure: receives cancelled (a cancelled TEMPI receive moves no
/// data), the deferred sends started and their requests freed (they complete on their own).
void abandon(std::vector<MPI_Request> &reqs, size_t receives) {
  (void)deferred::flush();
  for (size_t i = 0; i < reqs.size(); ++i) {
    if (i < receives) {
      PMPI_Cancel(&reqs[i]);
      requests::wait(&reqs[i], MPI_STATUS_IGNORE);
    } else {
      requests::requestFree(&reqs[i]);
    }
  }
}

/// The cached answer for comm, read (and the private communicator made) at the first call.
int readOrMake(MPI_Comm comm, bool *use) {
  Topology *t = nullptr;
  int rc = topologies.get(comm, &t, [comm](Topology &fresh) {
    if (int rc = readTopology(comm, fresh); rc != MPI_SUCCESS || !fresh.usable) return rc;
    // A communicator over the same group: unlike a dup it copies none of the program's
    // attributes (their copy callbacks do not run) and carries no topology.
    MPI_Group group = MPI_GROUP_NULL;
    int rc = PMPI_Comm_group(comm, &group);
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_create(comm, group, &fresh.wire);
    if (group != MPI_GROUP_NULL) PMPI_Group_free(&group);
    // Errors there return to exchange(), which raises them on the program's communicator.
    if (rc == MPI_SUCCESS) PMPI_Comm_set_errhandler(fresh.wire, MPI_ERRORS_RETURN);
    return rc;
  });
  if (rc == MPI_SUCCESS) *use = t->usable;
  return rc;
}


} // namespace

int sources(MPI_Comm comm, std::vector<int> *out) {
  Topology t;
  int rc = readTopology(comm, t);
  *out = std::move(t.sources);
  return rc;
}

int overP2P(MPI_Comm comm, const void *sendbuf, bool *use) {
  *use = false;
  if (!runtime::active() || !ipc::active() || sendbuf == MPI_IN_PLACE) return MPI_SUCCESS;
  if (int rc = readOrMake(comm, use); rc != MPI_SUCCESS)
    return runtime::raiseCode(comm, rc, "reading a neighbour collective's topology");
  return MPI_SUCCESS;
}


int exchange(MPI_Comm comm, const std::vector<Part> &sends, const std::vector<Part> &recvs) {
  Topology *t = topologies.find(comm);
  if (!t || !t->usable || sends.size() != t->dests.size() ||
      recvs.size() != t->sources.size())
    return runtime::raiseCode(comm, MPI_ERR_INTERN, "a neighbour collective without its topology");
  std::vector<MPI_Request> reqs;
  reqs.reserve(sends.size() + recvs.size());
  int rc = MPI_SUCCESS;
  // Receives first, in the sources' order; then the sends, in the destinations' order. A
  // neighbour that is MPI_PROC_NULL takes part in nothing (its block is left as it is).
  for (size_t j = 0; j < recvs.size() && rc == MPI_SUCCESS; ++j) {
    const Part &p = recvs[j];
    if (t->sources[j] == MPI_PROC_NULL) continue;
    MPI_Request r = MPI_REQUEST_NULL;
    rc = postRecv(p, t->sources[j], t->wire, &r);
    if (rc == MPI_SUCCESS) reqs.push_back(r);
  }
  const size_t receives = reqs.size();
  for (size_t i = 0; i < sends.size() && rc == MPI_SUCCESS; ++i) {
    const Part &p = sends[i];
    if (t->dests[i] == MPI_PROC_NULL) continue;
    MPI_Request r = MPI_REQUEST_NULL;
    rc = postSend(p, t->dests[i], t->wire, &r);
    if (rc == MPI_SUCCESS) reqs.push_back(r);
  }
  if (rc != MPI_SUCCESS) {
    abandon(reqs, receives);
    return runtime::raiseCode(comm, rc, "posting a neighbour collective's messages");
  }
  std::vector<MPI_Status> statuses(reqs.size());
  rc = requests::waitall(int(reqs.size()), reqs.data(), statuses.data());
  if (rc == MPI_ERR_IN_STATUS)
    for (const MPI_Status &s : statuses)
      if (s.MPI_ERROR != MPI_SUCCESS && s.MPI_ERROR != MPI_ERR_PENDING) {
        rc = s.MPI_ERROR;
        break;
      }
  if (rc != MPI_SUCCESS)
    return runtime::raiseCode(comm, rc, "completing a neighbour collective's messages");
  return MPI_SUCCESS;
}

} // namespace tempi::neighbor
