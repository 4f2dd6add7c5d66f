/// \file
/// TEMPI_VERIFY_PLANS=1: a test-only check that every static plan a tempi_X entry point receives
/// describes exactly its committed datatype, whatever the buffer (host or device) and whether or
/// not a GPU exists. Without it a wrong compile-time proof goes unnoticed on host buffers, which
/// go straight to the MPI.
///
/// The first time a (static plan, datatype handle) pair is seen, the plan's size, extent and lb
/// are compared with PMPI_Type_size_x / PMPI_Type_get_extent_x, and two elements of the type are
/// packed from one scratch buffer (a byte pattern without zeros) twice: by PMPI_Pack (the
/// reference) and by walking the plan (start + sum(idx_i * stride_i), `bytes` bytes a run,
/// element e shifted by e * extent). The packed strings must be equal, except where the MPI left
/// the zero-filled output unwritten (a zero never comes from the pattern: padding an MPI may skip,
/// such as a long double's unused bytes). A type spanning more than 256 MiB is only checked by its
/// size, extent and lb (one info line). A mismatch prints one line to stderr naming the call, the
/// plan's text and what differs, then PMPI_Abort(MPI_COMM_WORLD, 70).
///
/// Off (the default), each entry point pays two well-predicted branches: the runtime's phase
/// (Lifecycle.h) and gOn.
#pragma once

#include "Lifecycle.h"
#include "tempi/tempi.h"

#include <mpi.h>

namespace tempi::verify {

/// TEMPI_VERIFY_PLANS, set once when the runtime starts (onInit) from settings().
extern bool gOn;

/// The checks themselves (VerifyPlans.cpp); called only when gOn, so kept out of the hot paths.
__attribute__((cold)) void check(const tempi_static_plan *sp, MPI_Datatype type, const char *call);
__attribute__((cold)) void checkArrays(MPI_Comm comm, bool neighbor, const void *sendbuf,
                                       const tempi_static_plan *const sendplans[],
                                       const MPI_Datatype sendtypes[],
                                       const tempi_static_plan *const recvplans[],
                                       const MPI_Datatype recvtypes[], const char *call);
__attribute__((cold)) void forgetType(MPI_Datatype type);

/// When the runtime starts (after the MPI initialized): sets gOn; when it stops (before the MPI
/// finalizes).
void onInit(bool on);
void onFinalize();

// ---- What the entry points call ----
// Each starts the runtime first (Lifecycle.h): a tempi_X call can be the first call into
// libtempi when the MPI was initialized without our MPI_Init, and its plan is checked too.

/// One static plan (a null plan is not checked).
inline void plan(const tempi_static_plan *sp, MPI_Datatype type, const char *call) {
  runtime::ensureStarted();
  if (__builtin_expect(gOn, false) && sp) check(sp, type, call);
}

/// A send and a receive plan (Sendrecv, the v collectives): the send plan is not checked when
/// sendbuf is MPI_IN_PLACE (the MPI ignores the send type then).
inline void plans(const void *sendbuf, const tempi_static_plan *sendplan, MPI_Datatype sendtype,
                  const tempi_static_plan *recvplan, MPI_Datatype recvtype, const char *call) {
  runtime::ensureStarted();
  if (__builtin_expect(gOn, false)) {
    if (sendplan && sendbuf != MPI_IN_PLACE) check(sendplan, sendtype, call);
    if (recvplan) check(recvplan, recvtype, call);
  }
}

/// The plan arrays of the w collectives: one entry per peer (collectivePeers), null arrays and
/// null entries allowed; the send side is skipped for MPI_IN_PLACE.
inline void planArrays(MPI_Comm comm, bool neighbor, const void *sendbuf,
                       const tempi_static_plan *const sendplans[], const MPI_Datatype sendtypes[],
                       const tempi_static_plan *const recvplans[], const MPI_Datatype recvtypes[],
                       const char *call) {
  runtime::ensureStarted();
  if (__builtin_expect(gOn, false) && (sendplans || recvplans))
    checkArrays(comm, neighbor, sendbuf, sendplans, sendtypes, recvplans, recvtypes, call);
}

/// MPI_Type_free: the handle may come back for another type.
inline void forget(MPI_Datatype type) {
  if (__builtin_expect(gOn, false)) forgetType(type);
}

} // namespace tempi::verify
