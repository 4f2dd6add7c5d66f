/// \file
/// CUDA IPC for ranks on one node. ipcGetHandle() names the allocation that holds a device
/// pointer (cudaIpcGetMemHandle) and says how far into it the pointer is, because a peer opening
/// the handle gets the allocation's base. ipcOpen() maps a peer's handle once and caches the
/// mapping by the handle's bytes; finalize() closes every mapping and then frees the slabs
/// ipcAllocSlab() made (the host side has waited for every peer to close its mappings). Refuses (TEMPI_ERR_INVALID_ARG
/// / nullptr) pointers that are not device memory of this process.
#include "runtime/src/device/AddressRange.h"
#include "runtime/src/device/Device.h"
#include "runtime/src/device/Internal.h"
#include "tempi/kernels.cuh"

#include <cuda_runtime.h>

#include <array>
#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

namespace tempi::device {

static_assert(sizeof(cudaIpcMemHandle_t) <= kIpcHandleBytes, "IPC handle does not fit");

namespace {
using HandleBytes = std::array<unsigned char, kIpcHandleBytes>;
std::mutex ipcMutex;
std::map<HandleBytes, void *> &opened() {
  static std::map<HandleBytes, void *> m;
  return m;
}
std::vector<void *> &slabs() {
  static std::vector<void *> v;
  return v;
}
} // namespace

tempi_result ipcGetHandle(const void *devicePtr, unsigned char handle[kIpcHandleBytes],
                          int64_t *offsetInAllocation) {
  if (!available()) return TEMPI_ERR_UNSUPPORTED;
  if (!devicePtr || !handle || !offsetInAllocation) return TEMPI_ERR_INVALID_ARG;
  uintptr_t base = 0;
  size_t bytes = 0;
  if (classify(devicePtr) != MemKind::Device || !allocationRange(devicePtr, &base, &bytes))
    return TEMPI_ERR_INVALID_ARG;
  cudaIpcMemHandle_t h;
  TEMPI_CUDA_CHECK(cudaIpcGetMemHandle(&h, reinterpret_cast<void *>(base)));
  std::memset(handle, 0, kIpcHandleBytes);
  std::memcpy(handle, &h, sizeof h);
  *offsetInAllocation = static_cast<int64_t>(reinterpret_cast<uintptr_t>(devicePtr) - base);
  return TEMPI_SUCCESS;
}

void *ipcOpen(const unsigned char handle[kIpcHandleBytes]) {
  if (!available() || !handle) return nullptr;
  HandleBytes key;
  std::memcpy(key.data(), handle, kIpcHandleBytes);
  std::lock_guard<std::mutex> lock(ipcMutex);
  auto it = opened().find(key);
  if (it != opened().end()) return it->second;
  cudaIpcMemHandle_t h;
  std::memcpy(&h, handle, sizeof h);
  void *p = nullptr;
  if (!TEMPI_CUDA_LOG_ONLY(cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess)))
    return nullptr;
  opened()[key] = p;
  return p;
}

void *ipcAllocSlab(size_t bytes) {
  if (!available() || bytes == 0) return nullptr;
  void *p = nullptr;
  if (!TEMPI_CUDA_LOG_ONLY(cudaMalloc(&p, bytes))) return nullptr;
  std::lock_guard<std::mutex> lock(ipcMutex);
  slabs().push_back(p);
  return p;
}

int currentDevice() {
  int d = 0;
  if (!available() || !TEMPI_CUDA_LOG_ONLY(cudaGetDevice(&d))) return 0;
  return d;
}

int deviceCount() {
  int n = 0;
  if (!available() || !TEMPI_CUDA_LOG_ONLY(cudaGetDeviceCount(&n))) return 0;
  return n;
}

bool sharedThroughMps(int device) {
  // 0: not asked yet, 1: no, 2: yes (devices past the table are asked every time)
  static std::array<std::atomic<int>, 64> known{};
  if (!available() || device < 0) return false;
  if (size_t(device) < known.size())
    if (int k = known[size_t(device)].load(std::memory_order_relaxed)) return k == 2;
  int mps = 0;
  if (!TEMPI_CUDA_LOG_ONLY(cudaDeviceGetAttribute(&mps, cudaDevAttrMpsEnabled, device))) mps = 0;
  if (size_t(device) < known.size()) known[size_t(device)].store(mps ? 2 : 1, std::memory_order_relaxed);
  return mps != 0;
}

bool ipcPeersAccessible() {
  if (!available()) return false;
  int n = 0;
  if (!TEMPI_CUDA_LOG_ONLY(cudaGetDeviceCount(&n))) return false;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      int ok = 0;
      if (a != b && (!TEMPI_CUDA_LOG_ONLY(cudaDeviceCanAccessPeer(&ok, a, b)) || !ok)) return false;
    }
  return true;
}

void ipcCloseAll() {
  if (!available()) return;
  std::lock_guard<std::mutex> lock(ipcMutex);
  for (auto &[key, p] : opened()) TEMPI_CUDA_LOG_ONLY(cudaIpcCloseMemHandle(p));
  opened().clear();
}

void internal::releaseIpc() {
  ipcCloseAll();
  std::lock_guard<std::mutex> lock(ipcMutex);
  for (void *p : slabs()) TEMPI_CUDA_LOG_ONLY(cudaFree(p));
  slabs().clear();
}

} // namespace tempi::device
