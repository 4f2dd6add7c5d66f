/// \file
/// Truncation.h: which staged bytes of a failed receive reach the program.
#include "Truncation.h"

namespace tempi {

bool stagedBytesLanded(int code, const MPI_Status &st, const Wire &w) {
  if (code == MPI_SUCCESS) return true;
  int cls = MPI_SUCCESS;
  if (PMPI_Error_class(code, &cls) != MPI_SUCCESS || cls != MPI_ERR_TRUNCATE) return false;
  if (!w.staged || w.mirror || w.packedBytes <= 0) return false;
  MPI_Count got = -1;
  if (PMPI_Get_elements_x(&st, MPI_BYTE, &got) != MPI_SUCCESS) return false;
  // MPICH 5 counts the part that fits (== staging); Open MPI 4.1 counts more than the buffer
  // holds (seen on the GPU machine: it wrote the part that fits, libtempi left the buffer as it
  // was); MPICH 4.0.2 counts 1 byte and writes nothing.
  return got >= w.packedBytes;
}

} // namespace tempi
