/// \file
/// The predefined datatypes of the MPI this is compiled against: name <-> MPI_Datatype.
///
/// The table is compiled against the MPI's own mpi.h, one guarded entry per MPI-4.1 predefined
/// name, so it builds with MPICH (MPI_Datatype is an int) and Open MPI (a pointer) alike; a name
/// the MPI does not define, or defines as MPI_DATATYPE_NULL, is simply absent. Aliases
/// (MPI_LONG_LONG_INT and MPI_LONG_LONG) map to one handle; namedTypeName() answers the first
/// spelling in passes/NamedTypes.cpp's order.
#pragma once

#include <mpi.h>

#include <string_view>

namespace tempi {

/// The handle of the predefined type `name`, or MPI_DATATYPE_NULL when this MPI lacks it.
MPI_Datatype namedTypeHandle(std::string_view name);
/// The name of predefined handle `t` ("MPI_DOUBLE"), or nullptr when `t` is not predefined.
const char *namedTypeName(MPI_Datatype t);
/// True when `t` is a predefined (named) datatype, which must never be freed.
bool isNamedHandle(MPI_Datatype t);

} // namespace tempi
