/// \file
/// Kernel-plan selection: the word size is the largest of 16/8/4/2/1 dividing the start, the run,
/// every stride and the extent; alignedWordSize lowers it to the base address; grid dimensions.
#include "passes/KernelPlan.h"

#include <gtest/gtest.h>

using namespace tempi;

namespace {

StridedBlock shape(int64_t start, int64_t bytes, std::vector<StridedBlock::Dim> dims,
                   int64_t extent) {
  StridedBlock b;
  b.start = start;
  b.bytes = bytes;
  b.dims = std::move(dims);
  b.extent = extent;
  return b;
}

TEST(KernelPlan, WordSizeIsTheLargestDividingEverything) {
  EXPECT_EQ(makePlan(shape(0, 32, {{4, 128}, {4, 2048}}, 8192)).wordSize, 16);
  EXPECT_EQ(makePlan(shape(8, 32, {{4, 128}}, 8192)).wordSize, 8);      // start
  EXPECT_EQ(makePlan(shape(0, 12, {{4, 128}}, 8192)).wordSize, 4);      // run bytes
  EXPECT_EQ(makePlan(shape(0, 32, {{4, 130}}, 8192)).wordSize, 2);      // a stride
  EXPECT_EQ(makePlan(shape(0, 32, {{4, 128}, {3, 8}}, 8192)).wordSize, 8); // an outer stride
  EXPECT_EQ(makePlan(shape(0, 32, {{4, 128}}, 8191)).wordSize, 1);      // the extent
  EXPECT_EQ(makePlan(shape(-16, 16, {{4, -48}}, 64)).wordSize, 16);     // signs do not matter
  EXPECT_EQ(makePlan(shape(0, 12, {}, 16)).wordSize, 4);                // MPI_DOUBLE_INT
}

TEST(KernelPlan, WordsGridAndPackedBytes) {
  KernelPlan p = makePlan(shape(0, 32, {{4, 128}, {4, 2048}, {2, 65536}}, 131072));
  EXPECT_EQ(p.wordsPerRun, 2);
  EXPECT_EQ(p.gridDims, 3);
  EXPECT_EQ(p.packedBytes, 32 * 4 * 4 * 2);
  EXPECT_EQ(makePlan(shape(0, 8, {}, 8)).gridDims, 1);
  EXPECT_EQ(makePlan(shape(0, 8, {{2, 16}}, 32)).gridDims, 2);
}

TEST(KernelPlan, AlignedWordSizeFollowsTheBaseAddress) {
  KernelPlan p = makePlan(shape(0, 32, {{4, 128}}, 8192));
  ASSERT_EQ(p.wordSize, 16);
  EXPECT_EQ(alignedWordSize(p, 0x1000), 16);
  EXPECT_EQ(alignedWordSize(p, 0x1008), 8);
  EXPECT_EQ(alignedWordSize(p, 0x1004), 4);
  EXPECT_EQ(alignedWordSize(p, 0x1002), 2);
  EXPECT_EQ(alignedWordSize(p, 0x1001), 1);
  KernelPlan q = makePlan(shape(0, 12, {}, 12));
  EXPECT_EQ(alignedWordSize(q, 0x1000), 4); // never above the shape's own W
}

TEST(KernelPlan, Prints) {
  EXPECT_EQ(printPlan(makePlan(shape(4, 8, {{2, 16}}, 32))),
            "plan(word=4, words_per_run=2, grid_dims=2, packed_bytes=16, shape=strided(start=4, "
            "bytes=8, dims=[(2, 16)], extent=32, lb=0))");
}

} // namespace
