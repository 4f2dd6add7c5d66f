/// \file
/// HostMirror (HostMirror.h): spans, one host block, the copies in and back.
#include "HostMirror.h"

#include "Runtime.h"
#include "TypeCache.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>

namespace tempi {

namespace {

constexpr size_t kAlign = 64; ///< each span starts on its own cache line of the block

size_t roundUp(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

/// Host memory for the block: pinned from the device layer's pool (faster copies), else pageable.
/// (Transfer.cpp's allocHost does the same for wires; it is file-local there.)
tempi_result allocBlock(Staging &s, size_t bytes) {
  s.bytes = bytes;
  s.host = device::allocPinned(bytes ? bytes : 1, false);
  s.pinned = s.host != nullptr;
  if (!s.host) s.host = malloc(bytes ? bytes : 1);
  return s.host ? TEMPI_SUCCESS : TEMPI_ERR_NO_MEMORY;
}

/// Waits for the copies enqueued so far; the first error wins.
tempi_result finishCopies(tempi_result first) {
  tempi_result s = device::synchronize(device::defaultStream());
  return first != TEMPI_SUCCESS ? first : s;
}

} // namespace

int HostMirror::push(const Arg &a) {
  assert(count_ < kMaxArgs && "a call with more buffer arguments than HostMirror holds");
  args_[count_] = a;
  return count_++;
}

int HostMirror::add(const void *buf, MPI_Count count, MPI_Datatype type, bool output) {
  Arg a;
  a.user = buf;
  a.output = output;
  if (deviceData(buf, count, type)) {
    a.device = true;
    touchedSpan(*typecache::lookup(type), count, &a.lo, &a.hi);
  }
  return push(a);
}

template <typename Offset, typename TypeOf>
int HostMirror::addSpans(const void *buf, int parts, const int counts[], Offset &&offsetOf,
                         TypeOf &&typeOf, bool output) {
  Arg a;
  a.user = buf;
  a.output = output;
  if (runtime::active() && buf && buf != MPI_IN_PLACE) {
    bool decided = runtime::isDevice(buf);
    a.device = decided;
    a.lo = INT64_MAX;
    a.hi = INT64_MIN;
    for (int i = 0; i < parts; ++i) {
      if (counts[i] <= 0) continue;
      const MPI_Datatype type = typeOf(i);
      const int64_t off = offsetOf(i);
      if (!decided) { // the pointer may lie outside the allocation: ask the first part's bytes
        a.device = deviceData(static_cast<const char *>(buf) + off, counts[i], type);
        decided = true;
      }
      int64_t lo = 0, hi = 0;
      touchedSpan(*typecache::lookup(type), counts[i], &lo, &hi);
      if (hi > lo) {
        a.lo = std::min(a.lo, off + lo);
        a.hi = std::max(a.hi, off + hi);
      }
    }
    if (a.hi < a.lo || !a.device) a.lo = a.hi = 0;
  }
  return push(a);
}

int HostMirror::addParts(const void *buf, int parts, const int counts[], const int displs[],
                         MPI_Datatype type, bool output) {
  const int64_t extent =
      runtime::active() && buf && buf != MPI_IN_PLACE ? typecache::lookup(type)->extent : 0;
  return addSpans(
      buf, parts, counts, [&](int i) { return int64_t(displs[i]) * extent; },
      [&](int) { return type; }, output);
}

int HostMirror::addPartsW(const void *buf, int parts, const int counts[], const int byteDispls[],
                          const MPI_Datatype types[], bool output) {
  return addSpans(
      buf, parts, counts, [&](int i) { return int64_t(byteDispls[i]); },
      [&](int i) { return types[i]; }, output);
}

int HostMirror::addPartsW(const void *buf, int parts, const int counts[],
                          const MPI_Aint byteDispls[], const MPI_Datatype types[], bool output) {
  return addSpans(
      buf, parts, counts, [&](int i) { return int64_t(byteDispls[i]); },
      [&](int i) { return types[i]; }, output);
}

bool HostMirror::anyDevice() const {
  for (const Arg &a : *this)
    if (a.device) return true;
  return false;
}

tempi_result HostMirror::copyIn() {
  // Outputs first: toWire needs the (one) device output at the start of the block.
  size_t total = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < count_; ++i)
      if (Arg &a = args_[i]; a.device && a.output == (pass == 0)) {
        a.offset = total;
        total = roundUp(total + size_t(a.hi - a.lo));
      }
  if (tempi_result r = allocBlock(block_, total); r != TEMPI_SUCCESS) return r;
  char *host = static_cast<char *>(block_.host);
  tempi_result first = TEMPI_SUCCESS;
  for (const Arg &a : *this)
    if (a.device && a.hi > a.lo && first == TEMPI_SUCCESS)
      first = device::copyAsync(host + a.offset, static_cast<const char *>(a.user) + a.lo,
                                size_t(a.hi - a.lo), device::defaultStream());
  return finishCopies(first);
}

void *HostMirror::mpiBuf(int i) const {
  const Arg &a = args_[size_t(i)];
  if (!a.device) return const_cast<void *>(a.user);
  return static_cast<char *>(block_.host) + a.offset - a.lo;
}

tempi_result HostMirror::copyOut() {
  const char *host = static_cast<const char *>(block_.host);
  tempi_result first = TEMPI_SUCCESS;
  for (const Arg &a : *this)
    if (a.device && a.output && a.hi > a.lo && first == TEMPI_SUCCESS)
      first = device::copyAsync(static_cast<char *>(const_cast<void *>(a.user)) + a.lo,
                                host + a.offset, size_t(a.hi - a.lo), device::defaultStream());
  return finishCopies(first);
}

bool HostMirror::toWire(Wire &w) {
  w = Wire{};
  w.staged = true;
  w.mirror = true;
  w.staging = block_;
  w.staging.bytes = 0;
  block_ = Staging{};
  bool output = false;
  for (const Arg &a : *this) {
    if (!a.device || !a.output) continue;
    assert(!output && a.offset == 0 && "a nonblocking call with two device outputs");
    output = true;
    w.userBuf = const_cast<void *>(a.user);
    w.spanLo = a.lo;
    w.spanHi = a.hi;
    w.staging.bytes = size_t(a.hi - a.lo); // what finishRecv copies back, from the block's start
  }
  return output;
}

int peerCount(MPI_Comm comm, int *n) {
  int inter = 0;
  if (int rc = PMPI_Comm_test_inter(comm, &inter); rc != MPI_SUCCESS) return rc;
  return inter ? PMPI_Comm_remote_size(comm, n) : PMPI_Comm_size(comm, n);
}

int neighborCounts(MPI_Comm comm, int *in, int *out) {
  int topo = MPI_UNDEFINED;
  if (int rc = PMPI_Topo_test(comm, &topo); rc != MPI_SUCCESS) return rc;
  if (topo == MPI_CART) {
    int ndims = 0;
    int rc = PMPI_Cartdim_get(comm, &ndims);
    *in = *out = 2 * ndims;
    return rc;
  }
  if (topo == MPI_GRAPH) {
    int rank = 0, n = 0;
    PMPI_Comm_rank(comm, &rank);
    int rc = PMPI_Graph_neighbors_count(comm, rank, &n);
    *in = *out = n;
    return rc;
  }
  if (topo == MPI_DIST_GRAPH) {
    int weighted = 0;
    return PMPI_Dist_graph_neighbors_count(comm, in, out, &weighted);
  }
  return MPI_ERR_TOPOLOGY;
}

int rootRole(MPI_Comm comm, int root, RootRole *role) {
  int inter = 0;
  if (int rc = PMPI_Comm_test_inter(comm, &inter); rc != MPI_SUCCESS) return rc;
  if (inter) {
    role->root = root == MPI_ROOT;
    role->leaf = root != MPI_ROOT && root != MPI_PROC_NULL;
    return MPI_SUCCESS;
  }
  int rank = 0;
  int rc = PMPI_Comm_rank(comm, &rank);
  role->root = rank == root;
  role->leaf = true;
  return rc;
}

} // namespace tempi
