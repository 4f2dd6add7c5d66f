/// \file
/// MPI_Neighbor_alltoallw and MPI_Neighbor_alltoallv (and their _c forms) as point-to-point
/// messages, used when the IPC method is on (Ipc.h). The MPI's own collective gets every device
/// part staged through the host in one packed exchange (InterposeCollectives.cpp); TEMPI's
/// point-to-point path sends each neighbour's part by ipc instead: packed on the GPU into a slab
/// the neighbour unpacks from, with every send's pack in one fused launch (deferred sends).
///
/// The messages go on a private communicator over the same group (made at the first such call,
/// cached as an attribute of the program's communicator, freed with it), with one tag; receives
/// are posted in the order of the topology's sources, sends made in the order of its
/// destinations. MPI's non-overtaking order then matches the k-th message from a process with the
/// k-th time that process appears among the sources, as MPICH's and Open MPI's neighbour
/// collectives do on a distributed graph with repeated edges.
///
/// When (the answer is the same on every rank of the communicator, as it must be: all ranks of
/// one collective take the same path): ipc is on (agreed by every rank at MPI_Init), and the
/// communicator has a distributed-graph topology, or a Cartesian one in which no process is a
/// neighbour twice. A periodic dimension of one or two processes makes one such neighbour, and
/// MPIs differ in which of its two messages lands in which block, so that stays with the MPI, as
/// do MPI_Graph topologies.
#pragma once

#include "tempi/tempi.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tempi::neighbor {

/// One neighbour's part of a side: `count` elements of `type` at `buf` (plan: the compile-time
/// tier's, or null).
struct Part {
  void *buf = nullptr;
  MPI_Count count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  const tempi_static_plan *plan = nullptr;
};

/// Whether a neighbour collective on `comm` goes as point-to-point messages (see the file
/// comment; never with MPI_IN_PLACE, which the MPI's own collective rejects). On its first call
/// for a communicator whose answer is yes it makes the private communicator: collective over
/// `comm`, which the caller's collective is anyway. Returns MPI_SUCCESS, or the MPI error that
/// stopped it, raised on comm (*use is false then).
int overP2P(MPI_Comm comm, const void *sendbuf, bool *use);

/// comm's sources in the order MPI_Neighbor_alltoallw numbers its receive blocks (Cartesian: per
/// dimension the lower, then the upper; MPI_PROC_NULL where there is none). Empty for an
/// MPI_Graph topology (not needed there: it has no MPI_PROC_NULL neighbours).
int sources(MPI_Comm comm, std::vector<int> *out);

/// A side's parts from a collective's arguments: n peers, counts[i] elements of types[i] (or of
/// `one` for the v forms) at byte offset displs[i] * scale (scale: 1 for the w forms, the type's
/// extent for the v forms), plans[i] (or `onePlan`).
template <class Count, class Displ>
std::vector<Part> partsOf(const void *buf, int n, const Count counts[], const Displ displs[],
                          MPI_Aint scale, MPI_Datatype one, const MPI_Datatype types[],
                          const tempi_static_plan *onePlan,
                          const tempi_static_plan *const plans[]) {
  std::vector<Part> parts(std::size_t(n > 0 ? n : 0));
  for (int i = 0; i < n; ++i) {
    Part &p = parts[std::size_t(i)];
    // Integer arithmetic: a null buffer with zero counts is legal, and null + offset is not.
    p.buf = reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(buf) +
                                     uintptr_t(MPI_Aint(displs[i]) * scale));
    p.count = MPI_Count(counts[i]);
    p.type = types ? types[i] : one;
    p.plan = types ? (plans ? plans[i] : nullptr) : onePlan;
  }
  return parts;
}

/// The exchange: sends[i] to the topology's i-th destination, recvs[j] from its j-th source (both
/// sized as MPI_Neighbor_alltoallw's arrays). Errors are raised through comm's error handler.
int exchange(MPI_Comm comm, const std::vector<Part> &sends, const std::vector<Part> &recvs);

} // namespace tempi::neighbor
