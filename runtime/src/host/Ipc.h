/// \file
/// The IPC transfer method (TEMPI_METHOD=ipc, opt-in): a device send to a rank of the same node
/// packs into device memory the receiver can map (a slab, device::ipcAllocSlab) and sends, in
/// place of the packed bytes, a Notice that names the slab (its CUDA IPC handle), the offset and
/// the size. The receiver's TEMPI recognizes the notice in whatever receive matched it, unpacks
/// straight from the sender's memory, and acknowledges on TEMPI's own communicator; the sender
/// then reuses that part of the slab. Matching, ordering, tags and statuses stay the MPI's: the
/// notice travels as the message, with the program's envelope and send mode.
///
/// Because the notice replaces the message, every rank must run TEMPI with ipc set: MPI_Init
/// then makes one allreduce (a rank that does not set it would not join it, and the job would
/// hang there; jobs without ipc make none), and turns ipc off everywhere, with a warning, when
/// some rank cannot serve it (TEMPI_DISABLE, no GPU, GPUs that cannot map each other's memory). It also learns which ranks share
/// this node: only those are sent notices. Slabs are made at the first send that needs one, on
/// the device current then (programs choose their GPU after MPI_Init), and a receiver maps a slab
/// the first time a notice names it. What ipc cannot serve (another node, the rank itself, an
/// intercommunicator, messages under TEMPI_IPC_MIN_BYTES, a type without a packed plan) goes by
/// the model's method.
///
/// Known limit (docs/runtime.md): MPI_Probe and friends report the notice's size for a message
/// sent by ipc, not the message's. A receive sized from that probe is too small: TEMPI reports
/// MPI_ERR_TRUNCATE for it (never writing past the buffer).
#pragma once

#include "tempi/tempi.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace tempi {
struct Wire;
class Batch;
}

namespace tempi::ipc {

/// What travels in place of an IPC message's packed bytes. Messages under TEMPI_IPC_MIN_BYTES go
/// by the model: the notice and acknowledgement would cost more than they save.
struct Notice {
  uint64_t magic;
  uint64_t job;     ///< the job's random number, agreed at MPI_Init
  int64_t sender;   ///< MPI_COMM_WORLD rank
  int64_t slab;     ///< the sender's slab number (the acknowledgement names it back)
  int64_t offset;   ///< of the packed bytes in the slab's allocation
  int64_t bytes;    ///< packed bytes of the message
  int64_t seq;      ///< the sender's number for this part (an acknowledgement names it back)
  unsigned char handle[64];
  uint64_t check;   ///< a hash of every field above
};
constexpr size_t kNoticeBytes = sizeof(Notice);
/// The smallest message ipc takes: TEMPI_IPC_MIN_BYTES, or with auto (the default) 128 bytes
/// for a message that needs a pack kernel (not `contiguous`) when the current GPU is shared
/// through MPS, else 64 KiB; never smaller than the notice, which the receive buffer must hold.
uint64_t minBytes(bool contiguous);
/// Whether a message of `packedBytes` is large enough for ipc (minBytes()).
bool largeEnough(int64_t packedBytes, bool contiguous);

/// From MPI_Init. `requested`: TEMPI_METHOD=ipc is set here; without it nothing happens (no
/// collective call). With it, collective over MPI_COMM_WORLD: every rank must have set it.
/// `usable`: TEMPI is active here with a GPU whose peers can map each other's memory; ipc is on
/// only when every rank says so.
void onInit(bool requested, bool usable);
/// Collective, from MPI_Finalize before the device layer is released: drains acknowledgements,
/// closes this rank's mappings, waits for every rank to have done so (after which slabs may go).
void onFinalize();
bool active();

/// The MPI_COMM_WORLD rank of (comm, dest) when a notice may go there, else -1.
int peerFor(MPI_Comm comm, int dest);

/// For a send wire set up for ipc (Transfer.cpp): takes a part of a slab for w.packedBytes,
/// sets w.ipcRegion to it and writes the notice into the wire's host buffer. Collects the
/// acknowledgements that arrived first. TEMPI_ERR_NO_MEMORY when no slab can be had.
tempi_result takeRegion(Wire &w);
/// The MPI refused the notice's send: nobody will acknowledge that part of the slab.
void dropRegion(Wire &w);

/// Whether the kNoticeBytes at `bytes` are a notice of this job (magic, job, hash).
bool readNotice(const void *bytes, Notice &out);
/// The sender's packed bytes, mapped here (nullptr when the mapping fails).
const void *mapped(const Notice &n);
/// Tells the sender its bytes were read (after the unpack has finished).
void acknowledge(const Notice &n);
/// The same once batch b has run (its unpack read the bytes), together with every other
/// acknowledgement of b: one message per sender, however many of its notices b served.
void acknowledgeAfter(const Notice &n, Batch &b);

} // namespace tempi::ipc
