/// \file
/// The allocation that contains a device pointer (base and size), through the driver's
/// cuMemGetAddressRange, reached with cudaGetDriverEntryPointByVersion so that libtempi never
/// links libcuda (it must load on machines without a driver). Used by the pointer cache and IPC.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tempi::device {

/// False when the driver cannot say (no driver, not a device pointer).
bool allocationRange(const void *p, uintptr_t *base, size_t *bytes);

} // namespace tempi::device
