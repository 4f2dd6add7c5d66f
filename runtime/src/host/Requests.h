/// \file
/// Requests of nonblocking and persistent device-buffer operations. The user holds the MPI's real
/// request; this table maps it to the pending work (staging to release, unpack to do) that the
/// Wait/Test families finish once the MPI reports completion. Requests TEMPI does not know pass
/// through untouched, so a mix of both kinds in one Waitall works; when the table is empty every
/// Wait/Test call is the plain PMPI call.
///
/// Completing several receives at once (Waitall, Waitsome, Testall, Testsome) unpacks them as one
/// batch (Batch.h): one fused launch and one synchronization. Every call here first starts the
/// thread's deferred sends (DeferredSends.h).
///
/// MPI_Request_free of an active TEMPI request detaches it: the real request is kept and
/// progressed (MPI_Test) on later Wait/Test calls and waited for at MPI_Finalize, so a freed
/// device receive still lands in the user's buffer and its staging is released.
#pragma once

#include "Transfer.h"

#include <mpi.h>

#include <memory>

namespace tempi::requests {

struct PendingOp {
  Wire wire;
  bool isRecv = false;
  bool persistent = false;
  bool active = false; ///< started and not yet completed
  /// The MPI request is a persistent stand-in (MPI_Send_init) for a nonblocking deferred send:
  /// freed when the operation completes, so the program sees MPI_REQUEST_NULL as after MPI_Wait.
  bool standIn = false;
  /// A receive from a real rank: the MPI gives it a handle of its own even when it completes at
  /// once (only MPI_PROC_NULL receives and eager sends share a completed handle, in MPICH and
  /// Open MPI), so add() need not ask the MPI whether it is done already (that call runs the
  /// MPI's progress engine: 0.2 us per receive of a halo burst).
  bool ownHandle = false;
  /// A deferred send whose pack failed: never started; its completion reports this error.
  tempi_result failed = TEMPI_SUCCESS;
  MPI_Comm comm = MPI_COMM_NULL;
  /// A receive finished when it was registered whose status the MPI reports wrong (an IPC notice
  /// it served, Ipc.h): the byte count its completion reports instead; -1 otherwise.
  MPI_Count arrivedBytes = -1;
};

/// A fresh op: one the calling thread recycled (a completed one-shot op), else a new one. A burst
/// registers hundreds of ops per exchange, more than malloc's per-thread cache holds.
std::unique_ptr<PendingOp> newOp();

/// True when some TEMPI request is pending or detached (a relaxed atomic load).
bool any();
void add(MPI_Request request, std::unique_ptr<PendingOp> op);
size_t pendingCount(); ///< tests
/// Marks the op of `request` failed (its deferred pack did not run); see PendingOp::failed.
void markFailed(MPI_Request request, tempi_result r);

int wait(MPI_Request *request, MPI_Status *status);
int waitall(int count, MPI_Request requests[], MPI_Status statuses[]);
int waitany(int count, MPI_Request requests[], int *index, MPI_Status *status);
int waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
             MPI_Status statuses[]);
int test(MPI_Request *request, int *flag, MPI_Status *status);
int testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[]);
int testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status);
int testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
             MPI_Status statuses[]);
/// MPI_Request_get_status: a completed device receive is unpacked at once (the request stays).
int requestGetStatus(MPI_Request request, int *flag, MPI_Status *status);
int start(MPI_Request *request);
int startall(int count, MPI_Request requests[]);
int requestFree(MPI_Request *request);

/// Waits for detached requests and releases every remaining staging buffer (MPI_Finalize).
void finalize();

} // namespace tempi::requests
