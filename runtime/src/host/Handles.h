/// \file
/// MPI handles as hash keys. MPI_Datatype and MPI_Request are ints in MPICH and pointers in Open
/// MPI; both fit in 64 bits, so they are copied bytewise into a uint64_t.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <cstring>

namespace tempi {

template <typename Handle> inline uint64_t handleKey(Handle h) {
  static_assert(sizeof(Handle) <= sizeof(uint64_t), "MPI handle wider than 64 bits");
  uint64_t k = 0;
  std::memcpy(&k, &h, sizeof h);
  return k;
}

} // namespace tempi
