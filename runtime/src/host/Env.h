/// \file
/// Every TEMPI_* environment variable, declared in one table with its default and documentation,
/// parsed once into Settings, and the runtime's one logging switch (TEMPI_LOG).
///
/// Parsing never fails the program: a value it cannot read is reported as a warning naming the
/// variable and the value, and the default is used instead. docs/environment.md lists the same
/// table; a unit test checks that the two agree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tempi {

/// How a device buffer is moved. Auto lets the performance model choose per message.
enum class Method { Auto, Staged, OneShot, Device, Ipc };
enum class LogLevel { Error = 0, Warn = 1, Info = 2, Debug = 3 };

const char *methodName(Method m); ///< "auto", "staged", "oneshot", "device", "ipc"

struct EnvVar {
  const char *name;         ///< "TEMPI_METHOD"
  const char *defaultValue; ///< as a user would write it
  const char *values;       ///< accepted values, for docs ("auto|staged|oneshot|device|ipc")
  const char *doc;          ///< one line
};
/// The table, in the order docs/environment.md lists it.
const std::vector<EnvVar> &allEnvVars();

/// TEMPI_IPC_MIN_BYTES=auto (the default): the IPC method picks its threshold by how the GPU is
/// shared (ipc::largeEnough).
constexpr uint64_t kIpcMinBytesAuto = UINT64_MAX;

struct Settings {
  bool disable = false;                   ///< TEMPI_DISABLE: everything straight to the MPI
  Method method = Method::Auto;           ///< TEMPI_METHOD
  LogLevel log = LogLevel::Warn;          ///< TEMPI_LOG
  uint64_t poolBytes = uint64_t(1) << 30; ///< TEMPI_POOL_BYTES: cap per pool (device, pinned)
  uint64_t ipcMinBytes = kIpcMinBytesAuto; ///< TEMPI_IPC_MIN_BYTES: smaller messages skip ipc
  std::string cacheDir;                   ///< TEMPI_CACHE_DIR ("" = ~/.cache/tempi)
  bool noTypeCache = false;               ///< TEMPI_NO_TYPE_CACHE: no commit-time plans
  bool copyBatch = true;                  ///< TEMPI_COPY_BATCH: one batched call per copy list
  bool burstArena = true;                 ///< TEMPI_BURST_ARENA: bursts stage in one arena
  bool timeKernels = false;               ///< TEMPI_TIME_KERNELS: events around fused launches
  bool packGraphs = true;                 ///< TEMPI_PACK_GRAPHS: MPI_Pack replays CUDA graphs
  int gpuTimeSliced = -1;                 ///< TEMPI_GPU_TIME_SLICED: -1 auto, 0, 1 (GpuSharing.h)
  bool verifyPlans = false;               ///< TEMPI_VERIFY_PLANS: check static plans (tests)
};

/// Parses the variables through `get` (nullptr = unset); problems go to `warnings`.
Settings parseSettings(const std::function<const char *(const char *)> &get,
                       std::vector<std::string> *warnings);

/// The process-wide settings, read from the environment on first use (thread-safe).
const Settings &settings();

/// Logging: one switch (TEMPI_LOG). Messages go to stderr as "tempi[<rank>] <level>: <text>".
bool logEnabled(LogLevel level);
void logMessage(LogLevel level, const char *format, ...) __attribute__((format(printf, 2, 3)));
void setLogRank(int rank); ///< called when the runtime starts (normally at MPI_Init)

} // namespace tempi

#define TEMPI_LOG(level, ...)                                                                     \
  do {                                                                                            \
    if (::tempi::logEnabled(::tempi::LogLevel::level))                                            \
      ::tempi::logMessage(::tempi::LogLevel::level, __VA_ARGS__);                                 \
  } while (0)
