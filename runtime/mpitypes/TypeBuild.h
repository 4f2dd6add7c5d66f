/// \file
/// buildMpiType: makes the MPI datatype a TypeExpr describes, with the MPI's own constructors.
///
/// The expression is first checked with translate(), so arguments MPI would reject (negative
/// counts, subarray starts out of range, unknown names, ...) come back as an error message and
/// never reach the MPI (whose default error handler would abort). Arguments beyond the int range
/// of the classic C bindings are refused too.
///
/// The result is NOT committed: commit it before communication. For a Named expression the result
/// is the predefined handle itself, which must not be freed: release results with freeBuiltType(),
/// which frees derived types only. Intermediate types are freed before returning.
#pragma once

#include "passes/Result.h"
#include "passes/TypeExpr.h"

#include <mpi.h>

namespace tempi {

Result<MPI_Datatype> buildMpiType(const TypeExpr &e);
/// Frees `t` unless it is predefined; sets it to MPI_DATATYPE_NULL.
void freeBuiltType(MPI_Datatype &t);

} // namespace tempi
