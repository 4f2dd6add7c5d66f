/// \file
/// Shapes that are slow on a GPU whatever the packing library does, judged on the canonical form
/// of each proven constructor chain (so a shape is judged by what it touches, not by how the
/// source spells it):
///   gpu-tiny-blocks     contiguous runs of 1 or 2 bytes, more than one of them: every run costs a
///                       whole memory sector, so useful bandwidth is at most 2b/(64+b) of a copy
///                       (3% for 1 byte, 6% for 2).
///   gpu-nearly-regular  an irregular block list (canonical form: a sequence of runs and streams of
///                       runs, at most 4096 runs) of at
///                       least 4 blocks in which at most a quarter break an otherwise regular
///                       (length, stride) grid: the few exceptions send the whole type to the
///                       block-list kernel instead of a strided one.
///   gpu-many-dims       a canonical StridedBlock with more than 3 strided dimensions: the pack
///                       kernel maps the run and 2 dimensions onto the grid and loops over the rest;
///                       one loop (the quantities of a 3-D halo) is normal, two or more are reported
///                       (passes/KernelPlan.h); every dimension left is already unmergeable.
/// Irregular forms that are not a flat list of runs are not judged (nothing is reported).
#include "tool/lint/CheckContext.h"

#include "passes/StridedBlock.h"

#include <map>

using namespace clang;

namespace tempi::lint {

namespace {

constexpr size_t kGridDims = 2; ///< strided dimensions the kernel grid maps besides the run
constexpr size_t kMaxQuietDims = 3; ///< one loop (e.g. over the quantities of a 3-D halo) is fine

struct Block {
  int64_t offset, bytes;
};

constexpr size_t kMaxBlocks = 4096; ///< longer block lists are not judged

/// Appends the runs of `n` shifted by `base`; false when the form is not a list of runs (a stream
/// of sequences) or has more than kMaxBlocks of them.
bool appendBlocks(const IRNode &n, int64_t base, std::vector<Block> &out) {
  int64_t at = base + n.offset;
  switch (n.kind) {
  case IRKind::Dense:
    if (n.bytes > 0)
      out.push_back({at, n.bytes});
    return out.size() <= kMaxBlocks;
  case IRKind::Stream:
    if (n.child->kind != IRKind::Dense || n.count < 0 ||
        out.size() + static_cast<size_t>(n.count) > kMaxBlocks)
      return false;
    for (int64_t i = 0; i < n.count; ++i)
      appendBlocks(*n.child, at + i * n.stride, out);
    return true;
  case IRKind::Seq:
    for (const IRPtr &e : n.elems)
      if (!appendBlocks(*e, at, out))
        return false;
    return true;
  }
  return false;
}

/// The runs of an irregular canonical form (a sequence at the root), or empty.
std::vector<Block> flatBlocks(const IRNode &n) {
  std::vector<Block> out;
  if (n.kind != IRKind::Seq || !appendBlocks(n, 0, out))
    return {};
  return out;
}

template <typename T> T mode(const std::vector<T> &v) {
  std::map<T, size_t> counts;
  T best = v.front();
  for (const T &x : v)
    if (++counts[x] > counts[best])
      best = x;
  return best;
}

std::string percent(int64_t b) { return std::to_string(200 * b / (64 + b)) + "%"; }

} // namespace

void checkGpuShapes(const CheckContext &c, std::vector<Finding> &out) {
  for (const ConstructorSite &s : c.constructors) {
    if (!s.canonical)
      continue;
    const std::string name = "'" + s.variable + "'";
    if (s.shape) {
      int64_t runs = 1;
      for (const StridedBlock::Dim &d : s.shape->dims)
        runs = d.count > 0 && runs < (int64_t(1) << 40) ? runs * d.count : runs;
      if (s.shape->bytes > 0 && s.shape->bytes <= 2 && runs > 1)
        out.push_back(findingAt(
            "gpu-tiny-blocks", s.call,
            name + " moves contiguous runs of " + std::to_string(s.shape->bytes) +
                (s.shape->bytes == 1 ? " byte" : " bytes") +
                ": each costs a whole memory sector on a GPU, at most " +
                percent(s.shape->bytes) +
                " of copy bandwidth whatever the library does; use a wider element type or a "
                "layout with longer runs",
            c.ctx));
      if (s.shape->dims.size() > kMaxQuietDims)
        out.push_back(findingAt(
            "gpu-many-dims", s.call,
            name + " has " + std::to_string(s.shape->dims.size()) +
                " strided dimensions after every mergeable one is merged (" +
                printStrided(*s.shape) + "): a GPU pack kernel maps the run and " +
                std::to_string(kGridDims) + " dimensions onto its grid and loops over the other " +
                std::to_string(s.shape->dims.size() - kGridDims),
            c.ctx));
      continue;
    }
    std::vector<Block> blocks = flatBlocks(*s.canonical);
    if (blocks.size() < 2)
      continue;
    bool tiny = true;
    for (const Block &b : blocks)
      tiny = tiny && b.bytes <= 2;
    if (tiny)
      out.push_back(findingAt("gpu-tiny-blocks", s.call,
                              name + " is a list of " + std::to_string(blocks.size()) +
                                  " blocks of at most 2 bytes: each costs a whole memory sector on "
                                  "a GPU, at most " + percent(2) +
                                  " of copy bandwidth whatever the library does",
                              c.ctx));
    if (blocks.size() < 4)
      continue;
    std::vector<int64_t> lengths, gaps;
    for (size_t i = 0; i < blocks.size(); ++i) {
      lengths.push_back(blocks[i].bytes);
      if (i)
        gaps.push_back(blocks[i].offset - blocks[i - 1].offset);
    }
    int64_t len = mode(lengths), stride = mode(gaps);
    std::vector<int64_t> bases;
    for (size_t i = 0; i < blocks.size(); ++i)
      bases.push_back(blocks[i].offset - static_cast<int64_t>(i) * stride);
    int64_t base = mode(bases);
    size_t exceptions = 0, firstOff = blocks.size();
    for (size_t i = 0; i < blocks.size(); ++i)
      if (blocks[i].bytes != len || blocks[i].offset != base + static_cast<int64_t>(i) * stride) {
        ++exceptions;
        if (firstOff == blocks.size())
          firstOff = i;
      }
    if (exceptions == 0 || exceptions * 4 > blocks.size())
      continue;
    const Block &b = blocks[firstOff];
    out.push_back(findingAt(
        "gpu-nearly-regular", s.call,
        name + " lists " + std::to_string(blocks.size()) + " blocks of which " +
            std::to_string(blocks.size() - exceptions) + " follow length " + std::to_string(len) +
            " and stride " + std::to_string(stride) + "; " + std::to_string(exceptions) +
            (exceptions == 1 ? " does not" : " do not") + " (block " + std::to_string(firstOff) +
            ": offset " + std::to_string(b.offset) + ", " + std::to_string(b.bytes) +
            " bytes), so the whole type takes the block-list kernel instead of a strided one; "
            "send the regular part as a vector and the exceptions separately",
        c.ctx));
  }
}

} // namespace tempi::lint
