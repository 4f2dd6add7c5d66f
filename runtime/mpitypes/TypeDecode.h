/// \file
/// decodeMpiType: the TypeExpr of an existing MPI datatype, read back with
/// MPI_Type_get_envelope / MPI_Type_get_contents, recursively.
///
/// The runtime calls this at MPI_Type_commit. Every derived handle that MPI_Type_get_contents
/// returns is a new reference and is freed here (as the standard requires); predefined handles
/// are never freed. MPI's order, distribution and MPI_DISTRIBUTE_DFLT_DARG constants are mapped
/// to TypeExpr's (Order, Distrib, kDargDefault).
///
/// Refuses (error message): MPI_DATATYPE_NULL, predefined types this table does not know, and
/// combiners TypeExpr has no form for (MPI_COMBINER_F90_REAL/COMPLEX/INTEGER, and any large-count
/// contents that do not fit 64 bits).
#pragma once

#include "passes/Result.h"
#include "passes/TypeExpr.h"

#include <mpi.h>

namespace tempi {

Result<TypeExprPtr> decodeMpiType(MPI_Datatype t);

} // namespace tempi
