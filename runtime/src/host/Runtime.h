/// \file
/// Process-wide runtime state: whether TEMPI acts at all (set once when the runtime starts), the
/// model parameters, whether the MPI is CUDA-aware, and the mapping of runtime failures to MPI
/// errors raised through the communicator's error handler.
#pragma once

#include "../device/Device.h"
#include "Lifecycle.h"
#include "ModelParams.h"

#include <mpi.h>

namespace tempi::runtime {

/// True once the runtime started (Lifecycle.h) when TEMPI_DISABLE is unset and a GPU is usable.
/// Until then, and without a GPU, every interposer calls the MPI with the caller's arguments.
extern bool gActive;
inline bool active() {
  ensureStarted();
  return gActive;
}

/// A device buffer TEMPI must handle (never handed to a non-CUDA-aware MPI). Host, pinned host
/// and managed memory go to the MPI as they are; so does MPI_IN_PLACE.
inline bool isDevice(const void *p) {
  ensureStarted();
  return gActive && p && p != MPI_IN_PLACE && device::isDevice(p);
}

const ModelParams &params();
bool mpiCudaAware();

/// Called by the MPI_Init/_Init_thread interposers after the MPI initialized (reads the settings
/// and the model cache, and sets passes/' named-type alignments to the MPI's), and by
/// MPI_Finalize before the MPI finalizes (completes detached requests, releases pools and plans),
/// or by the MPI_COMM_SELF callback MPI_Finalize runs first when it passes libtempi by. Each runs
/// once: a second call, or onInit after startLate, does nothing (Lifecycle.h).
void onInit();
void onFinalize();

/// Maps a runtime failure to an MPI error class (NO_MEMORY -> MPI_ERR_NO_MEM, INVALID_ARG ->
/// MPI_ERR_ARG, everything else -> MPI_ERR_OTHER), logs `what`, raises it through comm's error
/// handler (MPI_Comm_call_errhandler) and returns the code for the interposer to return.
int raise(MPI_Comm comm, tempi_result r, const char *what);
/// The same for an MPI error code chosen by the caller (MPI_ERR_TRUNCATE, ...).
int raiseCode(MPI_Comm comm, int code, const char *what);

} // namespace tempi::runtime
