/// \file
/// The TEMPI_* table, its parser and the logging switch. See Env.h.
#include "Env.h"

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>

namespace tempi {

const char *methodName(Method m) {
  switch (m) {
  case Method::Auto: return "auto";
  case Method::Staged: return "staged";
  case Method::OneShot: return "oneshot";
  case Method::Device: return "device";
  case Method::Ipc: return "ipc";
  }
  return "?";
}

const std::vector<EnvVar> &allEnvVars() {
  static const std::vector<EnvVar> vars = {
      {"TEMPI_DISABLE", "0", "0|1",
       "1: every call goes straight to the MPI (device buffers are then the MPI's business)."},
      {"TEMPI_METHOD", "auto", "auto|staged|oneshot|device|ipc",
       "Transfer method for device buffers; auto lets the performance model choose per message. "
       "device is honoured only when the MPI reports CUDA support. ipc (opt-in, every rank must "
       "set it): device sends to ranks of the same node go by CUDA IPC, the rest by auto "
       "(docs/runtime.md, \"The IPC method\")."},
      {"TEMPI_LOG", "warn", "error|warn|info|debug",
       "Log level of messages printed to stderr as tempi[rank] level: text."},
      {"TEMPI_POOL_BYTES", "1073741824", "bytes (suffix K, M, G allowed)",
       "Cap of each staging pool (device, pinned host); a message larger than the cap is "
       "served by a one-off allocation released when the message completes."},
      {"TEMPI_IPC_MIN_BYTES", "auto", "auto or bytes (suffix K, M, G allowed)",
       "With TEMPI_METHOD=ipc: smaller messages go by the model's method (at least 128, the "
       "size of the notice that replaces an IPC message). auto: 128 for a strided message when "
       "the GPU is shared through MPS, 64K otherwise."},
      {"TEMPI_CACHE_DIR", "", "directory",
       "Where model.txt (tempi-measure's parameters) is read and written; empty means "
       "$HOME/.cache/tempi."},
      {"TEMPI_NO_TYPE_CACHE", "0", "0|1",
       "1: no datatype plans (neither at MPI_Type_commit nor from rewritten calls' static "
       "plans); device buffers take the slow but always-correct mirror path (for debugging)."},
      {"TEMPI_COPY_BATCH", "1", "0|1",
       "1: the staging copies of requests completed together go to CUDA in one batched call "
       "(cudaMemcpyBatchAsync); 0: one cudaMemcpyAsync per copy (for comparison)."},
      {"TEMPI_BURST_ARENA", "1", "0|1",
       "1: deferred sends and nonblocking receives of device buffers take consecutive slices of "
       "one staging block per direction and use the staged method, so the copies of a burst "
       "merge into one; 0: each wire stages on its own, method from the model (for comparison)."},
      {"TEMPI_TIME_KERNELS", "0", "0|1",
       "1: time each fused pack/unpack launch on the GPU with CUDA events (the first 4096); "
       "the medians are logged at MPI_Finalize at level info (for benchmarks)."},
      {"TEMPI_PACK_GRAPHS", "1", "0|1",
       "1: an MPI_Pack or MPI_Unpack between device buffers that repeats an earlier call "
       "(type, addresses, count) replays a CUDA graph of its kernel launch, which costs less "
       "than launching it; 0: one launch per call (for comparison)."},
      {"TEMPI_GPU_TIME_SLICED", "auto", "auto|0|1",
       "1: this process's GPU runs other processes in turns (no MPS), and the model asks the "
       "one-shot method to be 30% faster than staged, not 10%, before it picks it. auto: 1 when "
       "the launcher's local rank count (MPI_LOCALNRANKS, OMPI_COMM_WORLD_LOCAL_SIZE, ...) "
       "exceeds the GPUs, CUDA_VISIBLE_DEVICES is unset and MPS is off."},
      {"TEMPI_VERIFY_PLANS", "0", "0|1",
       "1 (for tests): the first time a tempi_X call gets a static plan for a datatype, the plan "
       "is checked against the committed type (size, extent, lb, and the bytes PMPI_Pack packs "
       "from two elements), host buffers included; a mismatch prints one line and aborts the "
       "job with exit code 70."},
  };
  return vars;
}

static bool parseBool(const char *name, const char *v, bool dflt,
                      std::vector<std::string> *warnings) {
  if (!strcmp(v, "1") || !strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on"))
    return true;
  if (!strcmp(v, "0") || !strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcasecmp(v, "off") ||
      !*v)
    return false;
  if (warnings)
    warnings->push_back(std::string(name) + "=" + v + ": expected 0 or 1; using " +
                        (dflt ? "1" : "0"));
  return dflt;
}

/// auto|0|1 (1 and 0 spelled as parseBool reads them): -1 for auto, the empty string and a value
/// it cannot read (with a warning).
static int parseAutoBool(const char *name, const char *v, std::vector<std::string> *warnings) {
  if (!*v || !strcasecmp(v, "auto")) return -1;
  std::vector<std::string> unread;
  const bool b = parseBool(name, v, false, &unread);
  if (unread.empty()) return b ? 1 : 0;
  if (warnings) warnings->push_back(std::string(name) + "=" + v + ": expected auto, 0 or 1; using auto");
  return -1;
}

static bool parseBytes(const char *v, uint64_t *out) {
  errno = 0;
  char *end = nullptr;
  if (!*v || *v == '-') return false;
  unsigned long long n = strtoull(v, &end, 10);
  if (errno || end == v) return false;
  uint64_t mult = 1;
  if (*end) {
    switch (*end) {
    case 'k': case 'K': mult = 1ull << 10; break;
    case 'm': case 'M': mult = 1ull << 20; break;
    case 'g': case 'G': mult = 1ull << 30; break;
    default: return false;
    }
    ++end;
    if (*end == 'i' || *end == 'I') ++end;
    if (*end == 'b' || *end == 'B') ++end;
    if (*end) return false;
  }
  if (n > UINT64_MAX / mult) return false;
  *out = n * mult;
  return true;
}

Settings parseSettings(const std::function<const char *(const char *)> &get,
                       std::vector<std::string> *warnings) {
  Settings s;
  auto warn = [&](std::string msg) {
    if (warnings) warnings->push_back(std::move(msg));
  };
  if (const char *v = get("TEMPI_DISABLE")) s.disable = parseBool("TEMPI_DISABLE", v, false, warnings);
  if (const char *v = get("TEMPI_NO_TYPE_CACHE"))
    s.noTypeCache = parseBool("TEMPI_NO_TYPE_CACHE", v, false, warnings);
  if (const char *v = get("TEMPI_BURST_ARENA"))
    s.burstArena = parseBool("TEMPI_BURST_ARENA", v, true, warnings);
  if (const char *v = get("TEMPI_TIME_KERNELS"))
    s.timeKernels = parseBool("TEMPI_TIME_KERNELS", v, false, warnings);
  if (const char *v = get("TEMPI_PACK_GRAPHS"))
    s.packGraphs = parseBool("TEMPI_PACK_GRAPHS", v, true, warnings);
  if (const char *v = get("TEMPI_VERIFY_PLANS"))
    s.verifyPlans = parseBool("TEMPI_VERIFY_PLANS", v, false, warnings);
  if (const char *v = get("TEMPI_COPY_BATCH"))
    s.copyBatch = parseBool("TEMPI_COPY_BATCH", v, true, warnings);
  if (const char *v = get("TEMPI_METHOD")) {
    bool found = false;
    for (Method m : {Method::Auto, Method::Staged, Method::OneShot, Method::Device, Method::Ipc})
      if (!strcasecmp(v, methodName(m))) {
        s.method = m;
        found = true;
      }
    if (!found && *v)
      warn(std::string("TEMPI_METHOD=") + v +
           ": expected auto, staged, oneshot, device or ipc; using auto");
  }
  if (const char *v = get("TEMPI_LOG")) {
    static const char *names[] = {"error", "warn", "info", "debug"};
    bool found = false;
    for (int i = 0; i < 4; ++i)
      if (!strcasecmp(v, names[i])) {
        s.log = LogLevel(i);
        found = true;
      }
    if (!found && *v)
      warn(std::string("TEMPI_LOG=") + v + ": expected error, warn, info or debug; using warn");
  }
  // A byte count (parseBytes); a value it cannot read keeps the default, with a warning.
  auto byteCount = [&](const char *name, uint64_t &field, const char *expected) {
    const char *v = get(name);
    if (!v) return;
    uint64_t n = 0;
    if (parseBytes(v, &n))
      field = n;
    else if (*v)
      warn(std::string(name) + "=" + v + ": expected " + expected);
  };
  byteCount("TEMPI_POOL_BYTES", s.poolBytes, "a byte count such as 1073741824 or 1G; using 1G");
  if (const char *v = get("TEMPI_IPC_MIN_BYTES"); v && !strcasecmp(v, "auto"))
    s.ipcMinBytes = kIpcMinBytesAuto;
  else
    byteCount("TEMPI_IPC_MIN_BYTES", s.ipcMinBytes, "auto or a byte count such as 64K; using auto");
  if (const char *v = get("TEMPI_GPU_TIME_SLICED"))
    s.gpuTimeSliced = parseAutoBool("TEMPI_GPU_TIME_SLICED", v, warnings);
  if (const char *v = get("TEMPI_CACHE_DIR")) s.cacheDir = v;
  return s;
}

static int logRank = -1;

const Settings &settings() {
  // A function-local static: after the first call, one guard-byte load. std::call_once cost
  // a TLS access on every call, and this is on every request's path.
  static const Settings theSettings = [] {
    std::vector<std::string> warnings;
    Settings s = parseSettings([](const char *n) { return getenv(n); }, &warnings);
    for (const std::string &w : warnings)
      if (s.log >= LogLevel::Warn) fprintf(stderr, "tempi warn: %s\n", w.c_str());
    return s;
  }();
  return theSettings;
}

bool logEnabled(LogLevel level) { return level <= settings().log; }

void setLogRank(int rank) { logRank = rank; }

void logMessage(LogLevel level, const char *format, ...) {
  static const char *names[] = {"error", "warn", "info", "debug"};
  char text[1024];
  va_list ap;
  va_start(ap, format);
  vsnprintf(text, sizeof text, format, ap);
  va_end(ap);
  if (logRank >= 0)
    fprintf(stderr, "tempi[%d] %s: %s\n", logRank, names[int(level)], text);
  else
    fprintf(stderr, "tempi %s: %s\n", names[int(level)], text);
}

} // namespace tempi
