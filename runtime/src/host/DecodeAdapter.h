/// \file
/// The runtime decoder as the type cache sees it: a committed MPI_Datatype to its constructor
/// tree. Forwards to runtime/mpitypes (decodeMpiType) when that library is built; without it every
/// derived type fails to decode with a message saying so (and takes the mirror path).
#pragma once

#include "passes/Result.h"
#include "passes/TypeExpr.h"

#include <mpi.h>

namespace tempi {

Result<TypeExprPtr> decodeType(MPI_Datatype type);

} // namespace tempi
