/// \file
/// available(): whether a CUDA driver and at least one GPU are usable. Asked once per process;
/// every other function of the device layer checks it first, so that a CUDA build on a machine
/// without a GPU (CI) behaves exactly like NoDevice.cpp.
#include "runtime/src/device/Device.h"

#include <cuda_runtime.h>

namespace tempi::device {

bool available() {
  static const bool usable = [] {
    int n = 0;
    const cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess) {
      (void)cudaGetLastError(); // no driver or no device: not an error for TEMPI, just no GPU
      return false;
    }
    return n > 0;
  }();
  return usable;
}

} // namespace tempi::device
