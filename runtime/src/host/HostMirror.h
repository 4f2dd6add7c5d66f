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

#include "Transfer.h"

#include <mpi.h>

#include <cstdint>
#include <vector>

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
  std::vector<Arg> args_;
  Staging block_;
};

/// Group size for the buffers of a collective on `comm`: the remote group's on an
/// intercommunicator, else the communicator's size. MPI_SUCCESS or the MPI's error.
int peerCount(MPI_Comm comm, int *n);
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
