/// \file
/// Deciding, without running tempi-rewrite, that a source has nothing the tool could rewrite.
///
/// The tool rewrites a call only when one of its datatype arguments has a static plan, and a plan
/// only comes from a type constructor call (MPI_Type_contiguous, _vector, _create_subarray, ...,
/// _dup: every one is spelled MPI_Type_...); predefined types alone never cause a rewrite
/// (docs/rewriter.md). So a translation unit whose preprocessed text holds no "MPI_Type_" outside
/// the MPI's own headers (which declare every constructor) is compiled as the MPI wrapper would
/// compile it, and the tool is not run. The test is conservative: any "MPI_Type_" (a comment, a
/// commit, a PMPI_ name, a user header) sends the source to the tool as before. When it is wrong in
/// the other direction (a future constructor not named MPI_Type_...), the cost is a missed
/// specialization, never a wrong object: the source is then compiled unchanged.
#pragma once

#include <string>
#include <vector>

namespace tempi::driver {

/// True when `preprocessed` (a compiler's -E output with its line markers) contains "MPI_Type_" in
/// text that comes from a file other than the MPI's headers: a file under one of `mpiIncludeDirs`
/// (the MPI wrapper's include folders) or a file named mpi.h. Text before the first line marker
/// counts as the main file's.
bool mentionsTypeConstructor(const std::string &preprocessed,
                             const std::vector<std::string> &mpiIncludeDirs);

} // namespace tempi::driver
