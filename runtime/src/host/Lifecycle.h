/// \file
/// When the runtime starts and stops. Normally the MPI_Init/_Init_thread interposers start it
/// and MPI_Finalize's stops it. An MPI can also be initialized without MPI_Init reaching
/// libtempi: the Fortran bindings of Open MPI 4.1 and MPICH's mpi_f08 call PMPI_Init directly,
/// so a Fortran main whose C code TEMPI serves never passes through our MPI_Init. The checks
/// every device-buffer decision goes through (runtime::active, runtime::isDevice, and the
/// TEMPI_VERIFY_PLANS checks of the tempi_X entry points) therefore look at the phase first
/// (ensureStarted, one predicted branch): the first such call after the MPI initialized starts
/// the runtime late. Either way MPI_Finalize's deletion of MPI_COMM_SELF's attributes, which
/// happens before the MPI tears anything down ("Allowing User Functions at Process Termination"
/// in the MPI standard), stops it if our MPI_Finalize did not.
#pragma once

#include <atomic>

namespace tempi::runtime {

enum Phase : int {
  NotStarted, ///< before the MPI is initialized, or initialized behind our back (startLate)
  Starting,   ///< onInit's or startLate's body is running (it makes no call into libtempi)
  Running,
  Stopped ///< after onFinalize, or once the MPI is finalized: calls go straight to the MPI
};

extern std::atomic<int> gPhase;

/// Starts the runtime when the MPI is initialized and libtempi's MPI_Init never ran; otherwise
/// does nothing. Thread-safe: a second thread waits for the first one's start.
__attribute__((cold)) void startLate();

inline void ensureStarted() {
  if (__builtin_expect(gPhase.load(std::memory_order_acquire) < Running, false)) startLate();
}

} // namespace tempi::runtime
