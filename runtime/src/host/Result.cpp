/// \file
/// tempi_result_string and tempi_register_kernels: the non-MPI entry points of tempi.h.
#include "../device/Device.h"
#include "tempi/tempi.h"

extern "C" const char *tempi_result_string(tempi_result r) {
  switch (r) {
  case TEMPI_SUCCESS: return "TEMPI_SUCCESS";
  case TEMPI_ERR_UNSUPPORTED: return "TEMPI_ERR_UNSUPPORTED";
  case TEMPI_ERR_INVALID_ARG: return "TEMPI_ERR_INVALID_ARG";
  case TEMPI_ERR_CUDA: return "TEMPI_ERR_CUDA";
  case TEMPI_ERR_MPI: return "TEMPI_ERR_MPI";
  case TEMPI_ERR_NO_MEMORY: return "TEMPI_ERR_NO_MEMORY";
  case TEMPI_ERR_INTERNAL: return "TEMPI_ERR_INTERNAL";
  case TEMPI_ERR_TRUNCATE: return "TEMPI_ERR_TRUNCATE";
  }
  return "TEMPI_ERR_UNKNOWN";
}

extern "C" void tempi_register_kernels(uint64_t shape_key, tempi_pack_fn pack,
                                       tempi_unpack_fn unpack) {
  tempi::device::registerKernels(shape_key, pack, unpack);
}
