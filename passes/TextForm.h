/// \file
/// The text forms of TypeExpr and TypeIR, used by tempi-opt, the lit tests, diagnostics and the
/// oracle's failure reports. Both round-trip exactly: parse(print(x)) == x.
///
/// TypeExpr text mirrors the C call without its output argument, arrays in brackets:
///   MPI_DOUBLE
///   vector(4, 1, 8, MPI_DOUBLE)
///   hvector(4, 1, 512, contiguous(2, MPI_FLOAT))
///   indexed(2, [1, 2], [0, 5], MPI_INT)
///   struct(2, [1, 1], [0, 8], [MPI_DOUBLE, MPI_INT])
///   subarray(3, [8, 8, 8], [4, 4, 1], [2, 2, 3], C, MPI_DOUBLE)       (order: C | Fortran)
///   darray(4, 1, 2, [8, 8], [BLOCK, CYCLIC], [DFLT, 2], [2, 2], C, MPI_INT)
///   resized(-8, 24, dup(MPI_INT))
/// TypeIR text (every node prints its offset; Seq lists its elements in pack order):
///   stream(off=0, count=4, stride=512, dense(off=0, bytes=8))
///   seq(off=0, [dense(off=0, bytes=8), dense(off=16, bytes=4)])
/// A root may carry its MPI layout as a suffix: `... @ lb=0 extent=16 true_lb=0 true_extent=12 size=12`.
///
/// Parse errors name the position as "line:column: reason".
#pragma once

#include "passes/Result.h"
#include "passes/TypeExpr.h"
#include "passes/TypeIR.h"

#include <string>
#include <string_view>

namespace tempi {

std::string printExpr(const TypeExpr &e);
Result<TypeExprPtr> parseExpr(std::string_view text);

std::string printIR(const IRNode &n, bool withLayout = true);
Result<IRPtr> parseIR(std::string_view text);

} // namespace tempi
