/// \file
/// HostMirror: the host copies of one MPI call's device buffer arguments, for the calls libtempi
/// does not pack (the collectives of InterposeHostMirror*.cpp, MPI_Isendrecv). Each argument
/// (buf, count, datatype), or (buf, counts[], displs[], datatype) of a v-variant, that is device
/// memory gets a host copy of the byte span its type touches (touchedSpan), filled from the device
/// before the call; the MPI gets the original counts and datatypes on that copy, and the spans of
/// output arguments are copied back after it. Outputs are copied in too, so the bytes between a
/// type's blocks (and parts a call leaves alone) come back unchanged.
///
/// It refuses nothing: host memory, MPI_IN_PLACE and null pointers pass through as they are (the
/// MPI gets the caller's pointer), and so does every argument while the runtime is inactive. All
/// copies of a call share one host block (pinned from the device layer's pool, else malloc),
/// released by the destructor, or handed to a request's Wire (toWire) for a nonblocking call.
///
/// Cost: every device argument crosses PCIe twice for an output (in, back) and once for an input,
/// its whole span (gaps included), with one synchronization before the call and one after; the
/// MPI then works on host memory. Correct for every datatype and MPI_Op, never fast.
#pragma once

#include "Ipc.h"
#include "Requests.h"
#include "Runtime.h"
#include "Transfer.h"

#include <mpi.h>

#include <cstdint>
#include <memory>

namespace tempi {

class HostMirror {
public:
  HostMirror() = default;
  HostMirror(const HostMirror &) = delete;
  HostMirror &operator=(const HostMirror &) = delete;
  ~HostMirror() { releaseStaging(block_); }

  /// `count` elements of `type` at `buf`; `output`: the MPI writes it (copied back). Returns the
  /// argument's index for mpiBuf().
  int add(const void *buf, MPI_Count count, MPI_Datatype type, bool output);
  /// A v-variant's buffer: part i is counts[i] elements of `type` at buf + displs[i] extents.
  int addParts(const void *buf, int parts, const int counts[], const int displs[],
               MPI_Datatype type, bool output);

  /// An alltoallw-style buffer: part i is counts[i] elements of types[i] at buf + byteDispls[i].
  int addPartsW(const void *buf, int parts, const int counts[], const int byteDispls[],
                const MPI_Datatype types[], bool output);
  int addPartsW(const void *buf, int parts, const int counts[], const MPI_Aint byteDispls[],
                const MPI_Datatype types[], bool output);

  /// Whether some argument added is device memory (if not, the caller makes the plain call).
  bool anyDevice() const;
  /// Allocates the host block and copies every device argument's span into it (one sync).
  tempi_result copyIn();
  /// The pointer the MPI gets for argument `i`: the caller's, or the host copy shifted so that
  /// the caller's offsets land in it. Valid after copyIn().
  void *mpiBuf(int i) const;
  /// Copies the spans of device outputs back to the device (one sync).
  tempi_result copyOut();
  /// For a nonblocking call: moves the block into `w` as a mirror receive wire of the device
  /// output (at most one; Transfer.h's finishRecv then copies its span back), or, when only
  /// inputs are device memory, as staging to release at completion. Returns whether there is an
  /// output to copy back (PendingOp::isRecv).
  bool toWire(Wire &w);

private:
  struct Arg {
    const void *user = nullptr;
    int64_t lo = 0, hi = 0; ///< span touched, bytes relative to user
    bool device = false, output = false;
    size_t offset = 0;      ///< of the span in the block
  };
  /// The union of the spans of `parts` parts: part i is counts[i] elements of typeOf(i) at
  /// buf + offsetOf(i) bytes.
  template <typename Offset, typename TypeOf>
  int addSpans(const void *buf, int parts, const int counts[], Offset &&offsetOf, TypeOf &&typeOf,
               bool output);
  /// Every call mirrors at most two buffer arguments; fixed storage keeps the host-buffer path
  /// free of allocations.
  static constexpr int kMaxArgs = 2;
  Arg args_[kMaxArgs];
  int count_ = 0;
  int push(const Arg &a);
  const Arg *begin() const { return args_; }
  const Arg *end() const { return args_ + count_; }
  Staging block_;
};

/// Runs an MPI call on the host copies of `m`'s device arguments. request == nullptr: the
/// blocking call `blocking()`, then the outputs copied back. Otherwise `nonblocking(request)`, and
/// the copies handed to the request table, which copies the output back when the request
/// completes and releases them. Without device arguments: the call with the caller's pointers
/// (mpiBuf returns them), nothing else. A failed copy is raised on `comm`; nothing is started.
///
/// p2pRecv: the receive argument (its index in m, count and type), for a nonblocking call that
/// receives a point-to-point message (MPI_Isendrecv): with the IPC method on, that message may be
/// a notice (Ipc.h), so the request is registered, host buffers too, and its completion looks for
/// the notice where the MPI received (mpiBuf) and serves it.
struct P2PRecv {
  int arg;
  MPI_Count count;
  MPI_Datatype type;
};
template <typename Blocking, typename Nonblocking>
int mirroredCall(MPI_Comm comm, HostMirror &m, MPI_Request *request, Blocking &&blocking,
                 Nonblocking &&nonblocking, const P2PRecv *p2pRecv = nullptr) {
  const bool ipcRecv = request && p2pRecv && ipc::active();
  const bool device = m.anyDevice();
  if (!device && !ipcRecv) return request ? nonblocking(request) : blocking();
  if (device) {
    if (tempi_result r = m.copyIn(); r != TEMPI_SUCCESS)
      return runtime::raise(comm, r, "copying device buffers to the host");
    if (!request) {
      int rc = blocking();
      if (rc != MPI_SUCCESS) return rc;
      if (tempi_result r = m.copyOut(); r != TEMPI_SUCCESS)
        return runtime::raise(comm, r, "copying a result back to the device");
      return rc;
    }
  }
  int rc = nonblocking(request);
  if (rc != MPI_SUCCESS) return rc;
  auto op = requests::newOp();
  void *received = ipcRecv ? m.mpiBuf(p2pRecv->arg) : nullptr; // before toWire takes the copies
  if (device) op->isRecv = m.toWire(op->wire);
  if (ipcRecv) { // the view a notice is looked for in (the host copy, or the caller's host buffer)
    op->wire.ptr = received;
    op->wire.count = p2pRecv->count;
    op->wire.type = p2pRecv->type;
    op->wire.countUnreliable = true; // also keeps it from being finished at registration
    op->isRecv = true;
  }
  op->active = true;
  op->comm = comm;
  requests::add(*request, std::move(op));
  return rc;
}

/// Group size for the buffers of a collective on `comm`: the remote group's on an
/// intercommunicator, else the communicator's size. MPI_SUCCESS or the MPI's error.
int peerCount(MPI_Comm comm, int *n);
/// In- and out-degree of a communicator with a topology (Cartesian, graph, distributed graph),
/// for the neighborhood collectives; MPI_ERR_TOPOLOGY without one.
int neighborCounts(MPI_Comm comm, int *in, int *out);
/// Receive (in) and send (out) peers of an all-to-all collective: peerCount for both, or with
/// `neighbor` the topology's degrees (neighborCounts).
inline int collectivePeers(MPI_Comm comm, bool neighbor, int *in, int *out) {
  if (neighbor) return neighborCounts(comm, in, out);
  const int rc = peerCount(comm, in);
  *out = *in;
  return rc;
}
/// What the calling process does in a rooted collective (MPI_Bcast, _Reduce, _Gather(v),
/// _Scatter(v)): `root`: its root-only arguments count (intracommunicator: rank == root;
/// intercommunicator: root == MPI_ROOT); `leaf`: its non-root arguments count (intracommunicator:
/// always, the root takes part too; intercommunicator: a process of the other group, so neither
/// for MPI_PROC_NULL).
struct RootRole {
  bool root = false, leaf = true;
};
int rootRole(MPI_Comm comm, int root, RootRole *role);

} // namespace tempi
