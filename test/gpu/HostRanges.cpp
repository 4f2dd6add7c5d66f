/// \file
/// tempi-host-ranges: knownHost() (runtime/src/device/HostRanges.h) says yes for the thread's
/// stack, a small malloc (the brk heap), the program's globals, and a second thread's stack; no
/// for fresh mmap'ed memory; and, when a GPU is usable, no for cudaMalloc'ed and managed memory,
/// while isDevice() agrees with cudaPointerGetAttributes on all of them. Runs on any machine (label
/// unit); the GPU part is skipped (said so) without a GPU.
#include "runtime/src/device/Device.h"
#include "runtime/src/device/HostRanges.h"

#include <cuda_runtime.h>
#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

using tempi::device::isDevice;
using tempi::device::knownHost;

namespace {
int failures = 0;
double globalBuffer[512];

void expect(bool got, bool want, const char *what) {
  if (got != want) {
    std::printf("FAIL %s: got %d, want %d\n", what, int(got), int(want));
    ++failures;
  }
}
uintptr_t u(const void *p) { return reinterpret_cast<uintptr_t>(p); }
} // namespace

int main() {
  double local[64];
  expect(knownHost(u(local)), true, "stack array");
  expect(knownHost(u(globalBuffer + 100)), true, "global array");
  void *small = std::malloc(256);
  expect(knownHost(u(small)), true, "small malloc (brk heap)");
  void *page = mmap(nullptr, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  expect(knownHost(u(page)), false, "fresh mmap");
  std::thread([] {
    double theirs[16];
    expect(knownHost(u(theirs)), true, "second thread's stack");
  }).join();

  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) {
    (void)cudaGetLastError();
    std::printf("tempi-host-ranges: no GPU: device checks skipped\n");
  } else {
    void *dev = nullptr, *managed = nullptr, *pinned = nullptr;
    cudaMalloc(&dev, 1 << 20);
    cudaMallocManaged(&managed, 1 << 20);
    cudaMallocHost(&pinned, 1 << 20);
    expect(knownHost(u(dev)), false, "cudaMalloc");
    expect(knownHost(u(managed)), false, "cudaMallocManaged");
    expect(isDevice(dev), true, "isDevice(cudaMalloc)");
    expect(isDevice(static_cast<char *>(dev) + 4096), true, "isDevice(inside cudaMalloc)");
    expect(isDevice(local), false, "isDevice(stack)");
    expect(isDevice(pinned), false, "isDevice(cudaMallocHost)");
    expect(isDevice(page), false, "isDevice(mmap)");
    cudaFree(dev);
    cudaFree(managed);
    cudaFreeHost(pinned);
  }
  munmap(page, 1 << 20);
  std::free(small);
  std::printf("tempi-host-ranges: %d failures\n", failures);
  return failures ? 1 : 0;
}
