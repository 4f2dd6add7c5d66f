/// \file
/// tempi-host-ranges: knownHost() (runtime/src/device/HostRanges.h) says yes for the thread's
/// stack, memory the program's break was just grown by (the brk heap), a small malloc (glibc
/// puts it there; not checked under AddressSanitizer, whose allocator maps its own memory), the
/// program's globals, and a second thread's stack; no for fresh mmap'ed memory; and, when a GPU
/// is usable, no for cudaMalloc'ed and managed memory, while isDevice() agrees with
/// cudaPointerGetAttributes on all of them. Runs on any machine (label unit); the GPU part is
/// skipped (said so) without a GPU. test/fuzz/sanitize-runtime.sh also runs it under ASan + UBSan.
#include "runtime/src/device/Device.h"
#include "runtime/src/device/HostRanges.h"

#include <cuda_runtime.h>
#include <sys/mman.h>
#include <unistd.h>

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

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kMallocUsesBrk = false; // ASan's allocator maps its own chunks
#else
constexpr bool kMallocUsesBrk = true; // glibc: small blocks come from the brk heap
#endif
} // namespace

int main() {
  double local[64];
  expect(knownHost(u(local)), true, "stack array");
  expect(knownHost(u(globalBuffer + 100)), true, "global array");
  // Grow the break by a page: that memory is the brk heap whoever's malloc runs.
  void *grown = sbrk(4096);
  if (grown == reinterpret_cast<void *>(-1)) {
    std::printf("FAIL sbrk(4096) failed\n");
    ++failures;
  } else {
    expect(knownHost(u(grown)), true, "memory sbrk just added (brk heap)");
    expect(knownHost(u(grown) + 4095), true, "last byte sbrk just added");
    expect(knownHost(u(grown) + 4096), false, "just past the break");
    sbrk(-4096);
  }
  void *small = std::malloc(256);
  if (kMallocUsesBrk)
    expect(knownHost(u(small)), true, "small malloc (brk heap)");
  else
    std::printf("tempi-host-ranges: AddressSanitizer's malloc: small-malloc check skipped\n");
  void *page = mmap(nullptr, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  expect(knownHost(u(page)), false, "fresh mmap");
  std::thread([] {
    double theirs[16];
    expect(knownHost(u(theirs)), true, "second thread's stack");
  }).join();

  int gpus = 0;
  const bool haveGpu = cudaGetDeviceCount(&gpus) == cudaSuccess && gpus > 0;
  if (!haveGpu) {
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
  std::printf("tempi-host-ranges: %d failures (device checks %s)\n", failures,
              haveGpu ? "run" : "skipped: no GPU");
  return failures ? 1 : 0;
}
