/// \file
/// The time-slicing test of GpuSharing.h.
#include "GpuSharing.h"

#include "../device/Device.h"
#include "Env.h"

#include <cstdlib>

namespace tempi::sharing {

int localRanksFromLauncher(const std::function<const char *(const char *)> &get) {
  for (const char *name : {"MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE",
                           "MV2_COMM_WORLD_LOCAL_SIZE", "PALS_LOCAL_SIZE"}) {
    const char *v = get(name);
    if (!v || !*v) continue;
    char *end = nullptr;
    const long n = strtol(v, &end, 10);
    if (*end == '\0' && n > 0 && n < (1L << 20)) return int(n);
  }
  return 0;
}

bool timeSliced(int localRanks, int visibleGpus, bool visibleDevicesSet, bool mps) {
  return !mps && !visibleDevicesSet && localRanks > 0 && visibleGpus > 0 && localRanks > visibleGpus;
}

bool gpuTimeSliced() {
  static const bool answer = [] {
    const int forced = settings().gpuTimeSliced;
    if (forced >= 0) return forced == 1;
    const int ranks = localRanksFromLauncher([](const char *n) { return getenv(n); });
    const int gpus = device::deviceCount();
    const bool mps = device::sharedThroughMps(device::currentDevice());
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    const bool sliced = timeSliced(ranks, gpus, visible != nullptr, mps);
    TEMPI_LOG(Info, "GPU %s: %d ranks on this node, %d GPUs visible%s, MPS %s",
              sliced ? "time-sliced" : "not time-sliced", ranks, gpus,
              visible ? " (CUDA_VISIBLE_DEVICES set: sharing unknown)" : "", mps ? "on" : "off");
    return sliced;
  }();
  return answer;
}

} // namespace tempi::sharing
