/// \file
/// The method counters (MethodStats.h): buckets by packed bytes, the summary's format (parsed by
/// examples/benchmarks/summarize.py), reset.
#include "MethodStats.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace tempi;

TEST(MethodStats, EmptyIsEmpty) {
  methodstats::reset();
  EXPECT_EQ(methodstats::summary(), "");
}

TEST(MethodStats, BucketsArePowersOfTwoInIncreasingSize) {
  methodstats::reset();
  methodstats::note(Method::Staged, int64_t(4) << 20);
  methodstats::note(Method::OneShot, 8);
  methodstats::note(Method::OneShot, 15);
  methodstats::note(Method::OneShot, 16);
  methodstats::note(Method::Staged, (int64_t(8) << 20) - 1);
  methodstats::note(Method::OneShot, int64_t(4) << 20);
  methodstats::note(Method::Device, 0);
  EXPECT_EQ(methodstats::summary(), "2^0 device=1, 2^3 oneshot=2, 2^4 oneshot=1, 2^22 staged=2 oneshot=1");
}

// Auto is never a wire's method; ipc is (TEMPI_METHOD=ipc) and is reported as such.
TEST(MethodStats, AutoIsNotCountedIpcIs) {
  methodstats::reset();
  methodstats::note(Method::Auto, 64);
  EXPECT_EQ(methodstats::summary(), "");
  methodstats::note(Method::Ipc, 64);
  methodstats::note(Method::Staged, 64);
  EXPECT_EQ(methodstats::summary(), "2^6 staged=1 ipc=1");
}

TEST(MethodStats, CountsFromManyThreadsAddUp) {
  methodstats::reset();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([] {
      for (int i = 0; i < 1000; ++i) methodstats::note(Method::Staged, 1 << 20);
    });
  for (auto &t : threads) t.join();
  EXPECT_EQ(methodstats::summary(), "2^20 staged=4000");
  methodstats::reset();
  EXPECT_EQ(methodstats::summary(), "");
}
