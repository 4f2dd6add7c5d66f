/// \file
/// What the GPU tests share: the skip rule (exit 77 when no GPU is usable, so ctest reports the
/// test as skipped on CPU-only machines), a CUDA check that fails the test with file:line, and a
/// seeded random generator whose seed is printed so a failure can be replayed (TEMPI_TEST_SEED),
/// and random test bytes from it.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace tempi::gputest {

constexpr int kSkip = 77;

/// Exits with 77 (skipped) when no GPU is usable.
inline void skipWithoutGpu(const char *program) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    (void)cudaGetLastError();
    std::printf("%s: SKIP: no usable CUDA device\n", program);
    std::exit(kSkip);
  }
}

#define GPUTEST_CUDA(call)                                                                        \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

/// Random bytes, for test inputs.
inline void fillRandom(std::vector<unsigned char> &v, std::mt19937_64 &rng) {
  for (auto &b : v) b = static_cast<unsigned char>(rng());
}

inline uint64_t seedFromEnvironment(uint64_t fallback) {
  const char *s = std::getenv("TEMPI_TEST_SEED");
  return s && *s ? std::strtoull(s, nullptr, 10) : fallback;
}

} // namespace tempi::gputest
