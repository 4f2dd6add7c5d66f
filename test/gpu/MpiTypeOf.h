/// \file
/// The MPI datatype of a StridedBlock, built the plain way a program would: a contiguous run of
/// MPI_BYTE, one MPI_Type_create_hvector per outer dimension (negative strides included), a
/// struct placing it at the start offset, resized to the extent. Committed; the caller frees it.
/// The GPU tests pack it with the MPI on the host as their reference.
#pragma once

#include "passes/StridedBlock.h"

#include <mpi.h>

namespace tempi::gputest {

inline MPI_Datatype mpiTypeOf(const StridedBlock &b) {
  MPI_Datatype t, next;
  MPI_Type_contiguous(int(b.bytes), MPI_BYTE, &t);
  for (const auto &d : b.dims) {
    MPI_Type_create_hvector(int(d.count), 1, MPI_Aint(d.stride), t, &next);
    MPI_Type_free(&t);
    t = next;
  }
  int one = 1;
  MPI_Aint disp = MPI_Aint(b.start);
  MPI_Type_create_struct(1, &one, &disp, &t, &next);
  MPI_Type_free(&t);
  MPI_Type_create_resized(next, 0, MPI_Aint(b.extent), &t);
  MPI_Type_free(&next);
  MPI_Type_commit(&t);
  return t;
}

} // namespace tempi::gputest
