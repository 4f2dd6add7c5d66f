/// \file
/// Deferred sends (tempi_Isend_deferred, tempi_Issend_deferred; tempi.h): the compile-time tier's
/// bursts. A deferred device send gets a real MPI request from MPI_Send_init (or Ssend_init) on
/// its staging buffer at once, and its pack joins the calling thread's open batch (Batch.h)
/// without a synchronization. flush() runs the batch (one fused pack launch, the staging copies,
/// one synchronization) and starts every deferred request with one MPI_Startall, in the order the
/// sends were made, so MPI's non-overtaking order holds.
///
/// Every libtempi entry point except the nonblocking receives and the deferred sends themselves
/// calls flush() first; MPI_Finalize does too. That is the promise the caller of a deferred send
/// relies on (tempi-rewrite proves that such a call follows on every path).
///
/// A failed batch starts nothing: its requests are marked failed (Requests.h) and their Wait/Test
/// reports the error through the communicator's error handler, so no message is lost silently.
#pragma once

#include "Batch.h"

#include <mpi.h>

#include <cstddef>

namespace tempi::deferred {

/// Deferred sends of the calling thread not yet started (a thread-local counter).
size_t pending();
/// The calling thread's open batch, where deferred packs are enqueued.
Batch &batch();
/// Records a deferred request (already registered in the request table).
void add(MPI_Request request, MPI_Comm comm);
/// Runs the open batch and starts the deferred requests: MPI_SUCCESS, or the error (raised on the
/// first deferred send's communicator).
int flushPending();
/// What every entry point calls first; nearly free when nothing is deferred.
inline int flush() { return pending() ? flushPending() : MPI_SUCCESS; }

} // namespace tempi::deferred

/// The first line of every libtempi entry point that is not a nonblocking receive or a deferred
/// send: starts the thread's deferred sends, and returns their error if that failed.
#define TEMPI_FLUSH_DEFERRED()                                                                    \
  do {                                                                                            \
    if (int tempi_flush_rc_ = ::tempi::deferred::flush(); tempi_flush_rc_ != MPI_SUCCESS)        \
      return tempi_flush_rc_;                                                                     \
  } while (0)
