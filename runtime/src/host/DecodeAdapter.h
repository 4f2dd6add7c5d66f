/// \file
/// runtime/mpitypes as the runtime sees it: the decoder (a committed MPI_Datatype to its
/// constructor tree) for the type cache, and the named-type alignment calibration for MPI_Init.
/// Forwards to runtime/mpitypes when that library is built; without it every derived type fails
/// to decode with a message saying so (and takes the mirror path), and nothing is calibrated.
#pragma once

#include "passes/Result.h"
#include "passes/TypeExpr.h"

#include <mpi.h>

#include <vector>

namespace tempi {

Result<TypeExprPtr> decodeType(MPI_Datatype type);

/// Sets passes/' alignment of every predefined type to this MPI's (NamedProbe.h), so decoded
/// structs of types the MPI aligns otherwise than the built-in table (MPICH 5.0.2: MPI_REAL16,
/// MPI_COMPLEX32, MPI_COMPLEX4) get a plan instead of the mirror path. Once, in MPI_Init, before
/// any type is planned. Returns the types whose alignment differs from the built-in table.
std::vector<AlignmentDifference> calibrateNamedTypes();

} // namespace tempi
