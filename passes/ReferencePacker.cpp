/// \file
/// The host reference packer: byte ranges in pack order, copied one memcpy each. From a TypeIR it
/// walks forEachBlock (element i shifted by i * root extent); from a StridedBlock it walks the
/// dimensions as StridedBlock.h defines them. Refuses a negative count (returns -1, copies
/// nothing). The caller guarantees that every range lies inside the buffer.
#include "passes/ReferencePacker.h"

#include <cstring>
#include <vector>

namespace tempi {

int64_t packReference(const IRNode &type, int64_t count, const unsigned char *base,
                      unsigned char *packed) {
  if (count < 0)
    return -1;
  int64_t done = 0;
  forEachBlock(type, count, [&](int64_t off, int64_t bytes) {
    std::memcpy(packed + done, base + off, size_t(bytes));
    done += bytes;
  });
  return done;
}

int64_t unpackReference(const IRNode &type, int64_t count, const unsigned char *packed,
                        unsigned char *base) {
  if (count < 0)
    return -1;
  int64_t done = 0;
  forEachBlock(type, count, [&](int64_t off, int64_t bytes) {
    std::memcpy(base + off, packed + done, size_t(bytes));
    done += bytes;
  });
  return done;
}

namespace {

/// Calls f(offset) for the start of every run of element `elem`, in pack order.
template <typename F> void forEachRun(const StridedBlock &b, int64_t elemBase, F &&f) {
  if (b.bytes == 0)
    return;
  std::vector<int64_t> idx(b.dims.size(), 0);
  for (const StridedBlock::Dim &d : b.dims)
    if (d.count <= 0)
      return;
  for (;;) {
    int64_t off = elemBase + b.start;
    for (size_t j = 0; j < b.dims.size(); ++j)
      off += idx[j] * b.dims[j].stride;
    f(off);
    size_t j = 0;
    for (; j < b.dims.size(); ++j) { // dims[0] varies fastest
      if (++idx[j] < b.dims[j].count)
        break;
      idx[j] = 0;
    }
    if (j == b.dims.size())
      return;
  }
}

} // namespace

int64_t packStrided(const StridedBlock &b, int64_t count, const unsigned char *base,
                    unsigned char *packed) {
  if (count < 0)
    return -1;
  int64_t done = 0;
  for (int64_t i = 0; i < count; ++i)
    forEachRun(b, i * b.extent, [&](int64_t off) {
      std::memcpy(packed + done, base + off, size_t(b.bytes));
      done += b.bytes;
    });
  return done;
}

int64_t unpackStrided(const StridedBlock &b, int64_t count, const unsigned char *packed,
                      unsigned char *base) {
  if (count < 0)
    return -1;
  int64_t done = 0;
  for (int64_t i = 0; i < count; ++i)
    forEachRun(b, i * b.extent, [&](int64_t off) {
      std::memcpy(base + off, packed + done, size_t(b.bytes));
      done += b.bytes;
    });
  return done;
}

} // namespace tempi
