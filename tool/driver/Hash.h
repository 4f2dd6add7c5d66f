/// \file
/// The one hash the driver's caches name their entries by (64-bit FNV-1a): stable across runs and
/// machines, which std::hash is not.
#pragma once

#include <cstdint>
#include <string>

namespace tempi::driver {

inline uint64_t fnv1a(const std::string &s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

} // namespace tempi::driver
