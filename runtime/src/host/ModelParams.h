/// \file
/// The measured parameters of the performance model and their cache file.
///
/// tempi-measure measures them once per machine and writes them with writeModelParams(); the
/// runtime reads them at MPI_Init with loadModelParams(). The file is text, one "key value" line
/// per parameter ('#' starts a comment). Reading never fails the caller: a missing file gives the
/// defaults silently, a malformed or partial file gives the defaults for what is wrong or missing,
/// and says so in `warnings` (unknown keys, bad numbers, values <= 0, duplicate keys).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tempi {

struct ModelParams {
  // Defaults: conservative values from an H100/H200 VM with PCIe host links (docs/runtime.md).
  double d2hGbps = 20.0;      ///< d2h_gbps: pinned device-to-host copy, GB/s
  double h2dGbps = 20.0;      ///< h2d_gbps: pinned host-to-device copy, GB/s
  double packGbps = 500.0;    ///< pack_gbps: device pack kernel into device memory, GB/s (packed bytes)
  double oneshotGbps = 10.0;  ///< oneshot_gbps: pack kernel writing mapped pinned host memory, GB/s
  double launchUs = 10.0;     ///< launch_us: kernel launch + stream synchronize, us
  double copyUs = 8.0;        ///< copy_us: one small cudaMemcpyAsync + synchronize, us
  double mpiLatencyUs = 5.0;  ///< mpi_latency_us: host MPI ping-pong latency (one way), us
  double mpiGbps = 5.0;       ///< mpi_gbps: host MPI bandwidth, GB/s
  double ipcGbps = 100.0;     ///< ipc_gbps: device copy from a peer's memory over CUDA IPC, GB/s
  bool fromFile = false;      ///< true when every key came from a cache file
};

/// One key of the file format, with its member, for writers, readers and docs alike.
struct ModelParamKey {
  const char *key;
  double ModelParams::*field;
  const char *doc;
};
const std::vector<ModelParamKey> &allModelParamKeys();

/// The cache file path: $TEMPI_CACHE_DIR/model.txt, else $HOME/.cache/tempi/model.txt, else
/// "" (no home: the runtime uses the defaults).
std::string defaultModelPath();

/// Parses the text of a cache file; what is wrong is described in `warnings` (one per problem,
/// "line N: ...") and replaced by the default. fromFile is set when every key was present and good.
ModelParams parseModelParams(std::string_view text, std::vector<std::string> *warnings);
/// Reads `path` with parseModelParams; a missing file gives the defaults and no warning, an
/// unreadable one a warning.
ModelParams loadModelParams(const std::string &path, std::vector<std::string> *warnings);

/// The text form, every key in allModelParamKeys() order, values with full precision.
std::string formatModelParams(const ModelParams &p);
/// Writes formatModelParams(p) to `path` atomically (temporary file + rename), creating the
/// parent directories. Returns false with a message in `error` on failure.
bool writeModelParams(const ModelParams &p, const std::string &path, std::string *error);

} // namespace tempi
