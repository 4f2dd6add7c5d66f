/// \file
/// What a truncated receive leaves in the program's buffer. The MPI standard leaves it open, and
/// the MPIs differ: MPICH 5 writes the part of the message that fits and counts that many bytes in
/// the status; Open MPI 4.1 writes that part too, and counts at least as many; MPICH 4.0.2 writes
/// nothing and counts 1 byte (between processes; to itself it writes the part that fits). A device receive lands in TEMPI's staging first, so TEMPI decides
/// which staged bytes reach the program's buffer: those the MPI vouches for by its count.
#pragma once

#include "Transfer.h"

#include <mpi.h>

namespace tempi {

/// Whether a receive into wire `w` that ended with error code `code` (its return value, or the
/// status's MPI_ERROR in a multiple completion) and status `st` left bytes in the staging that
/// go to the program's buffer: on success; on a truncation only when the MPI counts the staging
/// filled to its last byte or beyond (it wrote the part that fits). A mirror is not asked: it copies its
/// span back whatever happened, since the MPI wrote into a copy of the program's bytes.
bool stagedBytesLanded(int code, const MPI_Status &st, const Wire &w);

/// Whether a completed receive into wire `w` hands bytes to the program's buffer: a mirror always
/// (its span goes back whatever happened), a staged wire when stagedBytesLanded says so.
inline bool receiveDelivers(int code, const MPI_Status &st, const Wire &w) {
  return w.mirror || stagedBytesLanded(code, st, w);
}

} // namespace tempi
