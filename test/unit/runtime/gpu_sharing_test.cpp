/// \file
/// The time-slicing test (GpuSharing.h): the launcher's local rank count, and more ranks than GPUs
/// without MPS.
#include "GpuSharing.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace tempi;

namespace {
int localRanks(std::map<std::string, std::string> env) {
  return sharing::localRanksFromLauncher([&](const char *name) -> const char * {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}
} // namespace

TEST(GpuSharing, LocalRanksFromEachLauncher) {
  EXPECT_EQ(localRanks({}), 0);
  EXPECT_EQ(localRanks({{"MPI_LOCALNRANKS", "4"}}), 4);
  EXPECT_EQ(localRanks({{"OMPI_COMM_WORLD_LOCAL_SIZE", "8"}}), 8);
  EXPECT_EQ(localRanks({{"MV2_COMM_WORLD_LOCAL_SIZE", "2"}}), 2);
  EXPECT_EQ(localRanks({{"PALS_LOCAL_SIZE", "3"}}), 3);
  // Hydra's first; unreadable values are skipped, not taken as 0 ranks
  EXPECT_EQ(localRanks({{"MPI_LOCALNRANKS", "2"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "9"}}), 2);
  EXPECT_EQ(localRanks({{"MPI_LOCALNRANKS", "two"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "5"}}), 5);
  EXPECT_EQ(localRanks({{"MPI_LOCALNRANKS", "-1"}}), 0);
  EXPECT_EQ(localRanks({{"MPI_LOCALNRANKS", "4x"}}), 0);
  EXPECT_EQ(localRanks({{"MPI_LOCALNRANKS", ""}}), 0);
}

TEST(GpuSharing, TimeSlicedWhenRanksOutnumberGpusWithoutMps) {
  EXPECT_TRUE(sharing::timeSliced(2, 1, false, false));
  EXPECT_TRUE(sharing::timeSliced(8, 4, false, false));
  EXPECT_FALSE(sharing::timeSliced(2, 2, false, false)); // one GPU each
  EXPECT_FALSE(sharing::timeSliced(1, 1, false, false));
  EXPECT_FALSE(sharing::timeSliced(4, 1, false, true));  // MPS: one context, kernels side by side
  EXPECT_FALSE(sharing::timeSliced(0, 1, false, false)); // launcher unknown: as before
  EXPECT_FALSE(sharing::timeSliced(4, 0, false, false)); // no GPU
  // CUDA_VISIBLE_DEVICES set: one GPU seen may be one GPU each; unknown, so as before
  EXPECT_FALSE(sharing::timeSliced(4, 1, true, false));
}
