/// \file
/// Probes of how the MPI this is linked with treats each predefined datatype, where MPIs differ
/// and passes/' built-in table (NamedTypes.cpp) cannot know:
///  - its alignment, which MPICH pads a struct's extent to: MPICH 4.0.2 aligns MPI_REAL16 and
///    MPI_COMPLEX32 to 1, MPICH 5.0.2 to 16 (and MPI_COMPLEX4 to 4). calibrateNamedTypeAlignments()
///    measures every predefined type and sets the measured values in passes/ (the oracle does this
///    before checking, libtempi once in MPI_Init);
///  - which bytes of an element a strided MPI_Pack writes: MPICH packs x87 long doubles (and, in
///    5.0.2, the 16-byte Fortran types, MPI_INTEGER16 and MPI_LOGICAL16 included) by value, so
///    only bytes 0-9 of each 16 are written. The oracle uses it to decide which types' unwritten
///    bytes it may skip.
/// Every MPI call here is a PMPI_ call, so libtempi's own interposers never see the probes' types.
/// Call after MPI_Init.
#pragma once

#include "passes/Result.h"
#include "passes/TypeExpr.h"

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace tempi {

/// The alignment the MPI gives predefined type `t` (of extent `extent`), read from its struct
/// padding: a struct {t at 0; contiguous(2, MPI_CHAR) at P - 1}, with P the first multiple of 64
/// past the extent, has extent P + alignment for any power-of-two alignment up to 64. The marker
/// is a derived type, so MPICH's "all fields the same type" rule never turns the padding off.
Result<int64_t> measureNamedTypeAlignment(MPI_Datatype t, int64_t extent);

/// Measures every predefined type this MPI has and sets each measured alignment in passes/
/// (setNamedTypeAlignment). Returns the types whose alignment now differs from the built-in table
/// (namedAlignmentDifferences()). A type that cannot be measured keeps the table's value.
std::vector<AlignmentDifference> calibrateNamedTypeAlignments();

/// Which bytes of one packed element of predefined type `t` a strided MPI_Pack writes: element
/// byte i (0 <= i < MPI_Type_size) is written when it is written in every element of
/// vector(2, 1, 2, t) and vector(2, 2, 3, t), each packed over two complementary backgrounds.
/// Empty when the MPI refused to build or pack the probes.
std::vector<bool> stridedPackWrittenBytes(MPI_Datatype t);

} // namespace tempi
