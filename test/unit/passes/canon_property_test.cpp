/// \file
/// Property tests of canonicalize() on random trees from a small generator of our own:
///  - the byte ranges in pack order (forEachBlock, count 1..3) are those of the raw tree;
///  - packReference gives identical bytes, and so does packStrided when a StridedBlock exists;
///  - the root Layout is unchanged and canonicalize is idempotent;
///  - every pass on its own keeps the byte ranges (so a broken pass is caught by name);
///  - pools of equivalent descriptions of one strided layout give one printed canonical form;
///  - stridedFromBlocks (no IR, linear) agrees with canonicalize() where both find a StridedBlock.
#include "passes/PassRegistry.h"
#include "passes/ReferencePacker.h"
#include "passes/StridedBlock.h"
#include "passes/TextForm.h"

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

using namespace tempi;

namespace {

using Blocks = std::vector<std::pair<int64_t, int64_t>>;

Blocks blocksOf(const IRNode &n, int64_t count) {
  Blocks b;
  forEachBlock(n, count, [&](int64_t o, int64_t s) { b.push_back({o, s}); });
  return b;
}

class Gen {
public:
  explicit Gen(uint32_t seed) : rng_(seed) {}
  int64_t pick(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }

  IRPtr node(int depth) {
    int kind = depth <= 0 ? 0 : int(pick(0, 5));
    int64_t off = pick(0, 2) == 0 ? 0 : pick(-24, 24);
    if (kind == 0)
      return ir::dense(off, pick(0, 3) == 0 ? pick(0, 1) : pick(1, 8), {});
    if (kind <= 3) {
      IRPtr c = node(depth - 1);
      int64_t span = naturalLayout(*c).trueExtent;
      int64_t stride;
      switch (pick(0, 4)) {
      case 0: stride = span; break;                 // touching copies (foldable when dense)
      case 1: stride = -span; break;                // touching, decreasing
      case 2: stride = 0; break;                    // repeated bytes
      default: stride = pick(-40, 40); break;
      }
      return ir::stream(off, pick(0, 4), stride, c, {});
    }
    std::vector<IRPtr> elems;
    int64_t n = pick(0, 4);
    if (pick(0, 1)) { // a run of one shape in arithmetic progression
      IRPtr c = node(depth - 1);
      int64_t d = pick(-20, 20), o0 = pick(-10, 10);
      for (int64_t i = 0; i < n + 1; ++i)
        elems.push_back(ir::withOffset(c, o0 + i * d));
    } else {
      for (int64_t i = 0; i < n; ++i)
        elems.push_back(node(depth - 1));
    }
    return ir::seq(off, std::move(elems), {});
  }

  IRPtr root() {
    // Through the text form without layouts, so every inner node gets its natural layout.
    Result<IRPtr> parsed = parseIR(printIR(*node(int(pick(1, 4))), false));
    EXPECT_TRUE(bool(parsed)) << parsed.error();
    IRPtr n = *parsed;
    Layout l = n->layout;
    if (pick(0, 2) == 0) { // resized: another lb and extent, as MPI_Type_create_resized does
      l.lb = pick(-32, 32);
      l.extent = pick(-16, 64);
    }
    return ir::withLayout(n, l);
  }

private:
  std::mt19937 rng_;
};

/// Buffer big enough for offsets in [-kPad, kPad) for every test tree.
constexpr int64_t kPad = 4096;

std::vector<unsigned char> pattern() {
  std::vector<unsigned char> buf(2 * kPad);
  for (size_t i = 0; i < buf.size(); ++i)
    buf[i] = (unsigned char)(i * 131 + (i >> 8) * 7 + 1);
  return buf;
}

std::vector<unsigned char> pack(const IRNode &n, int64_t count) {
  static const std::vector<unsigned char> src = pattern();
  std::vector<unsigned char> out(size_t(n.layout.size * count));
  EXPECT_EQ(packReference(n, count, src.data() + kPad, out.data()), n.layout.size * count);
  return out;
}

TEST(CanonProperty, RandomTreesKeepBytesLayoutAndAreIdempotent) {
  Gen g(12345);
  int strided = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    IRPtr raw = g.root();
    IRPtr canon = canonicalize(raw);
    SCOPED_TRACE("raw:   " + printIR(*raw) + "\ncanon: " + printIR(*canon));
    ASSERT_EQ(canon->layout, raw->layout);
    for (int64_t count = 1; count <= 3; ++count) {
      ASSERT_EQ(blocksOf(*canon, count), blocksOf(*raw, count));
      ASSERT_EQ(pack(*canon, count), pack(*raw, count));
    }
    ASSERT_TRUE(equalIR(*canonicalize(canon), *canon));
    Result<IRPtr> again = parseIR(printIR(*canon));
    ASSERT_TRUE(bool(again)) << again.error();
    ASSERT_TRUE(equalIR(**again, *canon));
    if (std::optional<StridedBlock> b = toStridedBlock(*canon)) {
      ++strided;
      static const std::vector<unsigned char> src = pattern();
      for (int64_t count = 1; count <= 3; ++count) {
        std::vector<unsigned char> out(size_t(b->size() * count));
        ASSERT_EQ(b->size(), raw->layout.size);
        packStrided(*b, count, src.data() + kPad, out.data());
        ASSERT_EQ(out, pack(*raw, count));
      }
    }
  }
  EXPECT_GT(strided, 1000); // the generator must exercise the strided path too
}

TEST(CanonProperty, EveryPassAloneKeepsBytesAndRootLayout) {
  Gen g(777);
  for (int iter = 0; iter < 1500; ++iter) {
    IRPtr raw = g.root();
    for (const PassInfo &p : allPasses()) {
      IRPtr out = p.run(raw);
      SCOPED_TRACE(std::string(p.name) + "\nraw: " + printIR(*raw) + "\nout: " + printIR(*out));
      ASSERT_EQ(out->layout, raw->layout);
      ASSERT_EQ(blocksOf(*out, 2), blocksOf(*raw, 2));
    }
  }
}

TEST(CanonProperty, UnpackRoundTrips) {
  Gen g(4242);
  static const std::vector<unsigned char> src = pattern();
  for (int iter = 0; iter < 500; ++iter) {
    IRPtr raw = g.root();
    IRPtr canon = canonicalize(raw);
    std::vector<unsigned char> packed = pack(*raw, 2);
    std::vector<unsigned char> dst(2 * kPad, 0);
    ASSERT_EQ(unpackReference(*canon, 2, packed.data(), dst.data() + kPad), 2 * raw->layout.size);
    std::vector<unsigned char> repacked(packed.size());
    packReference(*raw, 2, dst.data() + kPad, repacked.data());
    // Overlapping types (stride 0, overlapping copies) keep the last write; compare only when the
    // raw tree touches each byte once.
    Blocks bl = blocksOf(*raw, 2);
    std::vector<int> touched(2 * kPad, 0);
    bool overlap = false;
    for (auto [o, s] : bl)
      for (int64_t i = 0; i < s; ++i)
        overlap |= ++touched[size_t(kPad + o + i)] > 1;
    if (!overlap)
      ASSERT_EQ(repacked, packed) << printIR(*raw);
  }
}

/// Equivalent descriptions of one strided layout: dims split into two streams, the run split into
/// a stream of touching pieces, count-1 streams with offsets wrapped around parts, offsets moved
/// between levels, dims written out as seqs of copies, and one copy peeled off a dimension.
class Describer {
public:
  explicit Describer(uint32_t seed) : rng_(seed) {}
  int64_t pick(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }

  IRPtr run(int64_t bytes) {
    if (bytes % 2 == 0 && pick(0, 1)) // dense(b) == stream(2, b/2, dense(b/2))
      return ir::stream(0, 2, bytes / 2, run(bytes / 2), {});
    return ir::dense(0, bytes, {});
  }

  IRPtr wrapUnit(IRPtr n) {
    if (pick(0, 3))
      return n;
    int64_t shift = pick(-8, 8); // count-1 stream at offset shift, child moved back
    return ir::stream(shift, 1, pick(-100, 100), ir::withOffset(n, n->offset - shift), {});
  }

  IRPtr dim(int64_t count, int64_t stride, IRPtr child) {
    int64_t how = pick(0, 4);
    if (how == 0 && count % 2 == 0 && count > 2) // split the dimension
      return ir::stream(0, count / 2, stride * 2, dim(2, stride, child), {});
    if (how == 1 && count <= 4) { // copies written out as a seq
      std::vector<IRPtr> elems;
      for (int64_t i = 0; i < count; ++i)
        elems.push_back(wrapUnit(ir::withOffset(child, child->offset + i * stride)));
      return ir::seq(0, std::move(elems), {});
    }
    if (how == 2 && count >= 3) { // one copy peeled off the front or the back into a seq
      IRPtr first = ir::withOffset(child, child->offset);
      IRPtr last = ir::withOffset(child, child->offset + (count - 1) * stride);
      if (pick(0, 1))
        return ir::seq(0, {first, ir::stream(stride, count - 1, stride, child, {})}, {});
      return ir::seq(0, {ir::stream(0, count - 1, stride, child, {}), last}, {});
    }
    return ir::stream(0, count, stride, wrapUnit(child), {});
  }

  IRPtr describe(const StridedBlock &b) {
    IRPtr n = run(b.bytes);
    for (const StridedBlock::Dim &d : b.dims)
      n = dim(d.count, d.stride, n);
    n = ir::withOffset(n, n->offset + b.start);
    Layout l = naturalLayout(*n);
    l.lb = b.lb;
    l.extent = b.extent;
    return ir::withLayout(n, l);
  }

private:
  std::mt19937 rng_;
};

/// A random StridedBlock of 4-byte words, up to 3 dims, each stride past the extent of the dim
/// inside it (no dim folds into or touches the one inside it), lb 0, extent 4096.
StridedBlock randomUnfoldable(Describer &d) {
  StridedBlock b;
  b.start = d.pick(-64, 64);
  b.bytes = d.pick(1, 4) * 4;
  int64_t inner = b.bytes;
  for (int64_t k = d.pick(0, 3); k > 0; --k) {
    int64_t stride = inner + 4 * d.pick(1, 8);
    if (d.pick(0, 3) == 0)
      stride = -stride;
    int64_t count = d.pick(2, 6);
    b.dims.push_back({count, stride});
    inner = count * (stride < 0 ? -stride : stride);
  }
  b.lb = 0;
  b.extent = 4096;
  return b;
}

TEST(CanonProperty, EquivalentDescriptionsGiveOneForm) {
  Describer d(99);
  for (int iter = 0; iter < 300; ++iter) {
    const StridedBlock b = randomUnfoldable(d);
    std::string first;
    for (int variant = 0; variant < 6; ++variant) {
      IRPtr raw = d.describe(b);
      IRPtr canon = canonicalize(raw);
      ASSERT_EQ(blocksOf(*canon, 2), blocksOf(*raw, 2)) << printIR(*raw);
      std::string printed = printIR(*canon);
      if (variant == 0)
        first = printed;
      ASSERT_EQ(printed, first) << "raw: " << printIR(*raw);
      std::optional<StridedBlock> got = toStridedBlock(*canon);
      ASSERT_TRUE(got.has_value()) << printed;
      ASSERT_EQ(*got, b) << printStrided(*got) << " vs " << printStrided(b);
    }
  }
}

std::optional<StridedBlock> fromBlocks(const IRNode &n) {
  std::vector<int64_t> offsets, lengths;
  for (auto [o, s] : blocksOf(n, 1)) {
    offsets.push_back(o);
    lengths.push_back(s);
  }
  return stridedFromBlocks(offsets, lengths, n.layout.extent, n.layout.lb);
}

/// stridedFromBlocks, the runtime's plan for block lists too long to canonicalize at commit:
/// its StridedBlock packs the raw tree's bytes; where canonicalize() also finds one, the two are
/// equal; and it finds every strided layout whose runs do not touch across a dim.
TEST(CanonProperty, StridedFromBlocksAgreesWithCanonicalize) {
  static const std::vector<unsigned char> src = pattern();
  Gen g(2468);
  int both = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    IRPtr raw = g.root();
    std::optional<StridedBlock> fast = fromBlocks(*raw);
    if (!fast)
      continue;
    SCOPED_TRACE("raw: " + printIR(*raw) + "\nfrom blocks: " + printStrided(*fast));
    for (int64_t count = 1; count <= 3; ++count) {
      std::vector<unsigned char> out(size_t(fast->size() * count));
      ASSERT_EQ(fast->size(), raw->layout.size);
      packStrided(*fast, count, src.data() + kPad, out.data());
      ASSERT_EQ(out, pack(*raw, count));
    }
    if (std::optional<StridedBlock> canon = toStridedBlock(*canonicalize(raw))) {
      ASSERT_EQ(*fast, *canon) << printStrided(*canon);
      ++both;
    }
  }
  EXPECT_GT(both, 1000);

  Describer d(1357);
  for (int iter = 0; iter < 300; ++iter) {
    const StridedBlock b = randomUnfoldable(d);
    IRPtr raw = d.describe(b);
    std::optional<StridedBlock> fast = fromBlocks(*raw);
    ASSERT_TRUE(fast.has_value()) << printIR(*raw);
    ASSERT_EQ(*fast, b) << printStrided(*fast) << " vs " << printStrided(b);
  }
}

} // namespace
