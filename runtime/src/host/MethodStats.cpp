/// \file
/// The method counters of MethodStats.h.
#include "MethodStats.h"

#include <atomic>
#include <bit>

namespace tempi::methodstats {

namespace {

/// The methods a wire can end with (never Auto; Ipc only when TEMPI_METHOD=ipc, Ipc.h).
constexpr Method kMethods[] = {Method::Staged, Method::OneShot, Method::Device, Method::Ipc};
constexpr int kBuckets = 64;

/// [contiguous][bucket][method]
std::atomic<uint64_t> counts[2][kBuckets][std::size(kMethods)];

int bucketOf(int64_t bytes) { return bytes <= 1 ? 0 : std::bit_width(uint64_t(bytes)) - 1; }

} // namespace

void note(Method m, int64_t bytes, bool contiguous) {
  for (size_t i = 0; i < std::size(kMethods); ++i)
    if (kMethods[i] == m)
      counts[contiguous][bucketOf(bytes)][i].fetch_add(1, std::memory_order_relaxed);
}

std::string summary(bool contiguous) {
  std::string out;
  for (int b = 0; b < kBuckets; ++b) {
    std::string entry;
    for (size_t i = 0; i < std::size(kMethods); ++i)
      if (uint64_t n = counts[contiguous][b][i].load(std::memory_order_relaxed))
        entry += std::string(" ") + methodName(kMethods[i]) + "=" + std::to_string(n);
    if (entry.empty()) continue;
    if (!out.empty()) out += ", ";
    out += "2^" + std::to_string(b) + entry;
  }
  return out;
}

void reset() {
  for (auto &kind : counts)
    for (auto &bucket : kind)
      for (auto &c : bucket) c.store(0, std::memory_order_relaxed);
}

} // namespace tempi::methodstats
