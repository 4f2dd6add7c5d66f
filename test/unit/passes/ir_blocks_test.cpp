/// \file
/// forEachBlock: the byte ranges a TypeIR denotes, in pack order, adjacent ranges merged, empty
/// ranges skipped, element i of a count shifted by i * root extent; and the natural layout.
#include "passes/TextForm.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

using namespace tempi;

namespace {

using Blocks = std::vector<std::pair<int64_t, int64_t>>;

Blocks blocks(const std::string &text, int64_t count = 1) {
  Result<IRPtr> r = parseIR(text);
  EXPECT_TRUE(bool(r)) << r.error();
  Blocks out;
  if (r)
    forEachBlock(**r, count, [&](int64_t o, int64_t b) { out.push_back({o, b}); });
  return out;
}

TEST(ForEachBlock, StreamInPackOrderWithNegativeStride) {
  EXPECT_EQ(blocks("stream(off=100, count=3, stride=-16, dense(off=4, bytes=4))"),
            (Blocks{{104, 4}, {88, 4}, {72, 4}}));
}

TEST(ForEachBlock, MergesAdjacentRangesOnlyInIncreasingOrder) {
  EXPECT_EQ(blocks("stream(off=0, count=3, stride=4, dense(off=0, bytes=4))"), (Blocks{{0, 12}}));
  EXPECT_EQ(blocks("stream(off=8, count=3, stride=-4, dense(off=0, bytes=4))"),
            (Blocks{{8, 4}, {4, 4}, {0, 4}}));
}

TEST(ForEachBlock, SeqIsConcatenationShiftedByItsOffset) {
  EXPECT_EQ(blocks("seq(off=10, [dense(off=8, bytes=2), dense(off=0, bytes=4), "
                   "dense(off=4, bytes=0), dense(off=4, bytes=1)])"),
            (Blocks{{18, 2}, {10, 5}}));
}

TEST(ForEachBlock, CountStepsByTheRootExtent) {
  EXPECT_EQ(blocks("dense(off=0, bytes=12) @ lb=0 extent=16 true_lb=0 true_extent=12 size=12", 3),
            (Blocks{{0, 12}, {16, 12}, {32, 12}}));
  EXPECT_EQ(blocks("dense(off=0, bytes=4) @ lb=0 extent=4 true_lb=0 true_extent=4 size=4", 3),
            (Blocks{{0, 12}}));
  EXPECT_EQ(blocks("dense(off=0, bytes=4) @ lb=0 extent=-8 true_lb=0 true_extent=4 size=4", 2),
            (Blocks{{0, 4}, {-8, 4}}));
}

TEST(ForEachBlock, ZeroCountsDenoteNothing) {
  EXPECT_EQ(blocks("stream(off=0, count=0, stride=4, dense(off=0, bytes=4))"), Blocks{});
  EXPECT_EQ(blocks("dense(off=0, bytes=4)", 0), Blocks{});
}

TEST(NaturalLayout, SpansTheBytesOffsetsIncluded) {
  Result<IRPtr> r = parseIR("seq(off=-4, [dense(off=10, bytes=2), stream(off=0, count=2, "
                            "stride=-8, dense(off=0, bytes=1))])");
  ASSERT_TRUE(bool(r));
  EXPECT_EQ(naturalLayout(**r), (Layout{-12, 20, -12, 20, 4}));
  EXPECT_EQ(naturalLayout(*ir::dense(5, 0, {})), Layout{});
}

} // namespace
