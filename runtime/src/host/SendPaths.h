/// \file
/// The device path of a nonblocking or persistent send with an int count, shared by the
/// interposers of MPI_Isend/Issend/Send_init (InterposeP2P.cpp) and MPI_Ibsend/Irsend and the
/// other persistent send modes (InterposeP2PMore.cpp): flush deferred sends, pass host buffers
/// to the MPI, else pack (a persistent send packs at each MPI_Start instead), call the MPI on the
/// packed wire and register the request so that completion releases the staging.
#pragma once

#include "tempi/tempi.h"

#include <mpi.h>

namespace tempi {

using NonblockingSend = int (*)(const void *, int, MPI_Datatype, int, int, MPI_Comm,
                                MPI_Request *);

int nonblockingSend(NonblockingSend pmpi, bool persistent, const void *buf, int count,
                    MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *request,
                    const tempi_static_plan *plan);

} // namespace tempi
