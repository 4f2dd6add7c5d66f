/// \file
/// StridedBlock: conversion from canonical IR (and refusal when a seq remains), size, the printed
/// form, and shapeKey (FNV-1a 64 of the printed form; extent and lb take part).
#include "passes/PassRegistry.h"
#include "passes/StridedBlock.h"
#include "passes/TextForm.h"

#include <gtest/gtest.h>

#include <cstdint>

using namespace tempi;

namespace {

std::optional<StridedBlock> strided(const std::string &irText) {
  Result<IRPtr> r = parseIR(irText);
  EXPECT_TRUE(bool(r)) << r.error();
  return toStridedBlock(*canonicalize(*r));
}

TEST(StridedBlock, DimsInsideOutStartIsTheSumOfOffsets) {
  std::optional<StridedBlock> b = toStridedBlock(
      **parseIR("stream(off=4096, count=4, stride=2048, stream(off=256, count=4, stride=128, "
                "dense(off=16, bytes=32))) @ lb=0 extent=32768 true_lb=4368 true_extent=6560 "
                "size=512"));
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->start, 4368);
  EXPECT_EQ(b->bytes, 32);
  EXPECT_EQ(b->dims, (std::vector<StridedBlock::Dim>{{4, 128}, {4, 2048}}));
  EXPECT_EQ(b->extent, 32768);
  EXPECT_EQ(b->lb, 0);
  EXPECT_EQ(b->size(), 512);
  EXPECT_EQ(printStrided(*b),
            "strided(start=4368, bytes=32, dims=[(4, 128), (4, 2048)], extent=32768, lb=0)");
}

TEST(StridedBlock, IrregularTypesHaveNone) {
  EXPECT_FALSE(strided("seq(off=0, [dense(off=0, bytes=2), dense(off=4, bytes=4)])"));
  EXPECT_FALSE(strided("stream(off=0, count=3, stride=16, seq(off=0, [dense(off=0, bytes=8), "
                       "dense(off=12, bytes=4)]))"));
}

TEST(StridedBlock, EmptyTypesHaveNoBytesNoDims) {
  std::optional<StridedBlock> b =
      strided("stream(off=8, count=0, stride=4, dense(off=0, bytes=4)) @ lb=-4 extent=12 "
              "true_lb=0 true_extent=0 size=0");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(printStrided(*b), "strided(start=0, bytes=0, dims=[], extent=12, lb=-4)");
  EXPECT_EQ(b->size(), 0);
  // Straight from a non-canonical empty chain, too.
  std::optional<StridedBlock> raw =
      toStridedBlock(**parseIR("stream(off=8, count=0, stride=4, dense(off=0, bytes=4))"));
  ASSERT_TRUE(raw.has_value());
  EXPECT_EQ(raw->bytes, 0);
  EXPECT_TRUE(raw->dims.empty());
}

TEST(StridedBlock, NegativeStridesAndStartsAreKept) {
  std::optional<StridedBlock> b = strided("stream(off=-8, count=3, stride=-16, dense(off=0, bytes=8))");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(printStrided(*b), "strided(start=-8, bytes=8, dims=[(3, -16)], extent=40, lb=-40)");
}

/// One element's block list (forEachBlock, adjacent ranges merged) and stridedFromBlocks of it.
std::optional<StridedBlock> fromBlocks(const std::string &irText) {
  Result<IRPtr> r = parseIR(irText);
  EXPECT_TRUE(bool(r)) << r.error();
  std::vector<int64_t> offsets, lengths;
  forEachBlock(**r, 1, [&](int64_t o, int64_t n) {
    offsets.push_back(o);
    lengths.push_back(n);
  });
  return stridedFromBlocks(offsets, lengths, (*r)->layout.extent, (*r)->layout.lb);
}

TEST(StridedFromBlocks, FindsTheCanonicalDims) {
  // A 3-D face written out as a seq of rows: the dims canonicalize finds.
  std::string rows = "seq(off=0, [";
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 4; ++y)
      rows += std::string(z + y ? ", " : "") + "dense(off=" +
              std::to_string(1000 + z * 4096 + y * 256) + ", bytes=24)";
  rows += "])";
  std::optional<StridedBlock> b = fromBlocks(rows);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(printStrided(*b), "strided(start=1000, bytes=24, dims=[(4, 256), (3, 4096)], "
                              "extent=8984, lb=1000)");
  EXPECT_EQ(*b, *strided(rows));
  // Negative and zero strides, and a dim whose span is the next stride (one dim, as
  // flatten-streams makes it).
  EXPECT_EQ(*fromBlocks("stream(off=-8, count=3, stride=-16, dense(off=0, bytes=8))"),
            *strided("stream(off=-8, count=3, stride=-16, dense(off=0, bytes=8))"));
  EXPECT_EQ(printStrided(*fromBlocks("stream(off=0, count=3, stride=0, dense(off=4, bytes=2))")),
            "strided(start=4, bytes=2, dims=[(3, 0)], extent=2, lb=4)");
  EXPECT_EQ(printStrided(*fromBlocks("stream(off=0, count=2, stride=64, stream(off=0, count=2, "
                                     "stride=32, dense(off=0, bytes=8)))")),
            "strided(start=0, bytes=8, dims=[(4, 32)], extent=104, lb=0)");
  // One run, and no bytes.
  EXPECT_EQ(printStrided(*fromBlocks("stream(off=16, count=4, stride=8, dense(off=0, bytes=8))")),
            "strided(start=16, bytes=32, dims=[], extent=32, lb=16)");
  EXPECT_EQ(printStrided(*fromBlocks("dense(off=0, bytes=0)")),
            "strided(start=0, bytes=0, dims=[], extent=0, lb=0)");
}

TEST(StridedFromBlocks, RefusesListsNoStridedBlockHas) {
  // Unequal runs; offsets that are no progression; a group count that does not divide the list;
  // groups whose second level is no progression.
  EXPECT_FALSE(fromBlocks("seq(off=0, [dense(off=0, bytes=8), dense(off=16, bytes=4)])"));
  EXPECT_FALSE(fromBlocks("seq(off=0, [dense(off=0, bytes=4), dense(off=8, bytes=4), "
                          "dense(off=20, bytes=4)])"));
  EXPECT_FALSE(fromBlocks("seq(off=0, [dense(off=0, bytes=4), dense(off=8, bytes=4), "
                          "dense(off=16, bytes=4), dense(off=100, bytes=4), "
                          "dense(off=108, bytes=4)])"));
  EXPECT_FALSE(fromBlocks("seq(off=0, [dense(off=0, bytes=4), dense(off=8, bytes=4), "
                          "dense(off=100, bytes=4), dense(off=108, bytes=4), "
                          "dense(off=150, bytes=4), dense(off=158, bytes=4)])"));
  // Runs that touch across a dim merge into longer runs: a regular type it leaves to the block
  // list (documented in StridedBlock.h); canonicalize still finds its StridedBlock.
  const char *touching = "stream(off=0, count=2, stride=24, stream(off=0, count=2, stride=16, "
                         "dense(off=0, bytes=8)))";
  EXPECT_FALSE(fromBlocks(touching));
  EXPECT_TRUE(strided(touching).has_value());
  // Offsets whose differences overflow.
  EXPECT_FALSE(stridedFromBlocks({INT64_MIN, INT64_MAX}, {1, 1}, 0, 0));
  EXPECT_FALSE(stridedFromBlocks({0, 1}, {1}, 0, 0));
}

uint64_t fnv1a(const std::string &s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s)
    h = (h ^ c) * 0x100000001b3ull;
  return h;
}

TEST(ShapeKey, IsFnv1aOfThePrintedForm) {
  StridedBlock b{0, 8, {{4, 512}, {2, 4096}}, 8192, 0};
  EXPECT_EQ(shapeKey(b), fnv1a(printStrided(b)));
  EXPECT_EQ(fnv1a(""), 0xcbf29ce484222325ull); // the reference itself: empty string = basis
  EXPECT_EQ(fnv1a("a"), 0xaf63dc4c8601ec8cull);  // published FNV-1a 64 test vector
}

TEST(ShapeKey, DiffersWhenAnyFieldDiffers) {
  StridedBlock b{0, 8, {{4, 512}, {2, 4096}}, 8192, 0};
  StridedBlock other[] = {
      {8, 8, {{4, 512}, {2, 4096}}, 8192, 0},  {0, 16, {{4, 512}, {2, 4096}}, 8192, 0},
      {0, 8, {{2, 4096}, {4, 512}}, 8192, 0},  {0, 8, {{4, 512}, {2, 4096}}, 4096, 0},
      {0, 8, {{4, 512}, {2, 4096}}, 8192, -8}, {0, 8, {{4, 512}}, 8192, 0},
  };
  for (const StridedBlock &o : other)
    EXPECT_NE(shapeKey(o), shapeKey(b)) << printStrided(o);
}

} // namespace
