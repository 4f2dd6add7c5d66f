/// \file
/// The method counters (MethodStats.h): buckets by packed bytes, contiguous data apart, the
/// summary's format (parsed by examples/benchmarks/summarize.py), reset.
#include "MethodStats.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace tempi;

TEST(MethodStats, EmptyIsEmpty) {
  methodstats::reset();
  EXPECT_EQ(methodstats::summary(false), "");
  EXPECT_EQ(methodstats::summary(true), "");
}

TEST(MethodStats, BucketsArePowersOfTwoInIncreasingSize) {
  methodstats::reset();
  methodstats::note(Method::Staged, int64_t(4) << 20, false);
  methodstats::note(Method::OneShot, 8, false);
  methodstats::note(Method::OneShot, 15, false);
  methodstats::note(Method::OneShot, 16, false);
  methodstats::note(Method::Staged, (int64_t(8) << 20) - 1, false);
  methodstats::note(Method::OneShot, int64_t(4) << 20, false);
  methodstats::note(Method::Device, 0, false);
  EXPECT_EQ(methodstats::summary(false), "2^0 device=1, 2^3 oneshot=2, 2^4 oneshot=1, 2^22 staged=2 oneshot=1");
}

// Auto is never a wire's method; ipc is (TEMPI_METHOD=ipc) and is reported as such.
TEST(MethodStats, AutoIsNotCountedIpcIs) {
  methodstats::reset();
  methodstats::note(Method::Auto, 64, false);
  EXPECT_EQ(methodstats::summary(false), "");
  methodstats::note(Method::Ipc, 64, false);
  methodstats::note(Method::Staged, 64, false);
  EXPECT_EQ(methodstats::summary(false), "2^6 staged=1 ipc=1");
}

TEST(MethodStats, CountsFromManyThreadsAddUp) {
  methodstats::reset();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([] {
      for (int i = 0; i < 1000; ++i) methodstats::note(Method::Staged, 1 << 20, false);
    });
  for (auto &t : threads) t.join();
  EXPECT_EQ(methodstats::summary(false), "2^20 staged=4000");
  methodstats::reset();
  EXPECT_EQ(methodstats::summary(false), "");
}

// The model prices contiguous data (one copy) and packed data apart: one size can go one way for
// each, and a benchmark must be able to tell which went which way.
TEST(MethodStats, ContiguousDataIsCountedApart) {
  methodstats::reset();
  methodstats::note(Method::Staged, int64_t(4) << 20, true);
  methodstats::note(Method::OneShot, int64_t(4) << 20, false);
  methodstats::note(Method::OneShot, int64_t(4) << 20, false);
  EXPECT_EQ(methodstats::summary(true), "2^22 staged=1");
  EXPECT_EQ(methodstats::summary(false), "2^22 oneshot=2");
  methodstats::reset();
  EXPECT_EQ(methodstats::summary(true), "");
}
