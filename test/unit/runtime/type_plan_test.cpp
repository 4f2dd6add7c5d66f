/// \file
/// Plans' run walks (TypePlan.h): forEachRun visits element runs in pack order and cuts at the
/// byte limit; touchedSpan covers every touched byte, for negative extents too. Checked against
/// the host reference packer.
#include "TypePlan.h"
#include "passes/ReferencePacker.h"
#include "tempi/tempi.h"

#include <gtest/gtest.h>

#include <vector>

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
} // namespace

TEST(TypePlan, RunsFollowPackOrderAndStopAtTheLimit) {
  StridedBlock b = shape(4, 3, {{2, 10}, {3, -40}}, 200);
  TypePlanPtr p = planFromStrided(b, 4 - 80, 93);
  // The reference: pack element 1 of a buffer whose bytes are their own offsets (mod 251).
  std::vector<unsigned char> base(1024);
  for (size_t i = 0; i < base.size(); ++i) base[i] = (unsigned char)(i % 251);
  const int64_t origin = 300;
  std::vector<unsigned char> packed(2 * b.size());
  packStrided(b, 2, base.data() + origin, packed.data());
  for (int64_t limit = 0; limit <= b.size(); ++limit) {
    std::vector<unsigned char> got;
    forEachRun(*p, 1, limit, [&](int64_t off, int64_t n) {
      for (int64_t k = 0; k < n; ++k) got.push_back(base[origin + off + k]);
    });
    ASSERT_EQ(int64_t(got.size()), limit);
    EXPECT_TRUE(std::equal(got.begin(), got.end(), packed.begin() + b.size())) << limit;
  }
}

TEST(TypePlan, BlockRuns) {
  TypePlan p;
  p.kind = TypePlan::Kind::Blocks;
  p.extent = 32;
  p.blocks.offsets = {8, 0, 20};
  p.blocks.lengths = {4, 2, 6};
  std::vector<std::pair<int64_t, int64_t>> runs;
  forEachRun(p, 2, 9, [&](int64_t o, int64_t n) { runs.push_back({o, n}); });
  EXPECT_EQ(runs, (std::vector<std::pair<int64_t, int64_t>>{{72, 4}, {64, 2}, {84, 3}}));
}

TEST(TypePlan, TouchedSpan) {
  TypePlanPtr p = planFromStrided(shape(8, 4, {}, -16), 8, 4);
  int64_t lo, hi;
  touchedSpan(*p, 3, &lo, &hi);
  EXPECT_EQ(lo, 8 - 32);
  EXPECT_EQ(hi, 12);
  touchedSpan(*p, 0, &lo, &hi);
  EXPECT_EQ(lo, hi);
}

TEST(TypePlan, ContiguousOnlyWhenOneRunFillsTheExtent) {
  EXPECT_TRUE(planFromStrided(shape(0, 8, {}, 8), 0, 8)->contiguous);
  EXPECT_FALSE(planFromStrided(shape(0, 8, {}, 16), 0, 8)->contiguous);
  EXPECT_FALSE(planFromStrided(shape(0, 8, {{2, 8}}, 16), 0, 16)->contiguous);
}

TEST(ResultString, EveryValue) {
  EXPECT_STREQ(tempi_result_string(TEMPI_SUCCESS), "TEMPI_SUCCESS");
  EXPECT_STREQ(tempi_result_string(TEMPI_ERR_UNSUPPORTED), "TEMPI_ERR_UNSUPPORTED");
  EXPECT_STREQ(tempi_result_string(TEMPI_ERR_INVALID_ARG), "TEMPI_ERR_INVALID_ARG");
  EXPECT_STREQ(tempi_result_string(TEMPI_ERR_CUDA), "TEMPI_ERR_CUDA");
  EXPECT_STREQ(tempi_result_string(TEMPI_ERR_MPI), "TEMPI_ERR_MPI");
  EXPECT_STREQ(tempi_result_string(TEMPI_ERR_NO_MEMORY), "TEMPI_ERR_NO_MEMORY");
  EXPECT_STREQ(tempi_result_string(TEMPI_ERR_INTERNAL), "TEMPI_ERR_INTERNAL");
  EXPECT_STREQ(tempi_result_string(tempi_result(42)), "TEMPI_ERR_UNKNOWN");
}
