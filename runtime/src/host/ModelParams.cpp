/// \file
/// Reading and writing the model cache file (ModelParams.h). Never aborts: bad input becomes a
/// warning and the default value.
#include "ModelParams.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace tempi {

const std::vector<ModelParamKey> &allModelParamKeys() {
  static const std::vector<ModelParamKey> keys = {
      {"d2h_gbps", &ModelParams::d2hGbps, "pinned device-to-host copy bandwidth, GB/s"},
      {"h2d_gbps", &ModelParams::h2dGbps, "pinned host-to-device copy bandwidth, GB/s"},
      {"pack_gbps", &ModelParams::packGbps, "pack kernel into device memory, packed GB/s"},
      {"oneshot_gbps", &ModelParams::oneshotGbps, "pack kernel into mapped pinned host memory, GB/s"},
      {"launch_us", &ModelParams::launchUs, "kernel launch plus stream synchronize, us"},
      {"copy_us", &ModelParams::copyUs, "one small cudaMemcpyAsync plus synchronize, us"},
      {"mpi_latency_us", &ModelParams::mpiLatencyUs, "host MPI one-way latency, us"},
      {"mpi_gbps", &ModelParams::mpiGbps, "host MPI bandwidth, GB/s"},
      {"ipc_gbps", &ModelParams::ipcGbps, "device copy from a peer's memory over CUDA IPC, GB/s"},
  };
  return keys;
}

std::string defaultModelPath() {
  if (const char *dir = getenv("TEMPI_CACHE_DIR"); dir && *dir) return std::string(dir) + "/model.txt";
  if (const char *home = getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/tempi/model.txt";
  return "";
}

ModelParams parseModelParams(std::string_view text, std::vector<std::string> *warnings) {
  ModelParams p;
  auto warn = [&](int line, const std::string &msg) {
    if (warnings) warnings->push_back("line " + std::to_string(line) + ": " + msg);
  };
  std::set<std::string> seen;
  size_t good = 0;
  int lineNo = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    std::string line(text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    ++lineNo;
    if (size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream in(line);
    std::string key, value, extra;
    if (!(in >> key)) continue; // blank or comment
    if (!(in >> value)) {
      warn(lineNo, "'" + key + "' has no value");
      continue;
    }
    if (in >> extra) {
      warn(lineNo, "'" + key + "': unexpected text after the value: '" + extra + "'");
      continue;
    }
    const ModelParamKey *k = nullptr;
    for (const ModelParamKey &c : allModelParamKeys())
      if (key == c.key) k = &c;
    if (!k) {
      warn(lineNo, "unknown key '" + key + "' (ignored)");
      continue;
    }
    if (!seen.insert(key).second) {
      warn(lineNo, "duplicate key '" + key + "' (the first value is kept)");
      continue;
    }
    errno = 0;
    char *end = nullptr;
    double v = strtod(value.c_str(), &end);
    if (errno || end == value.c_str() || *end || !std::isfinite(v) || v <= 0) {
      warn(lineNo, "'" + key + "': '" + value + "' is not a positive number; using the default");
      continue;
    }
    p.*(k->field) = v;
    ++good;
  }
  p.fromFile = good == allModelParamKeys().size();
  if (!p.fromFile && warnings && good > 0)
    for (const ModelParamKey &c : allModelParamKeys())
      if (!seen.count(c.key)) warnings->push_back(std::string("missing key '") + c.key + "'; using the default");
  return p;
}

ModelParams loadModelParams(const std::string &path, std::vector<std::string> *warnings) {
  if (path.empty()) return ModelParams{};
  std::ifstream f(path);
  if (!f) {
    if (errno != ENOENT && warnings)
      warnings->push_back(path + ": cannot read (" + strerror(errno) + "); using defaults");
    return ModelParams{};
  }
  std::stringstream ss;
  ss << f.rdbuf();
  std::vector<std::string> local;
  ModelParams p = parseModelParams(ss.str(), &local);
  if (warnings)
    for (std::string &w : local) warnings->push_back(path + ": " + w);
  return p;
}

std::string formatModelParams(const ModelParams &p) {
  std::string out = "# TEMPI performance model parameters (written by tempi-measure)\n";
  char buf[64];
  for (const ModelParamKey &k : allModelParamKeys()) {
    snprintf(buf, sizeof buf, "%.17g", p.*(k.field));
    out += std::string(k.key) + " " + buf + "\n";
  }
  return out;
}

static bool makeDirs(const std::string &dir, std::string *error) {
  if (dir.empty()) return true;
  struct stat st;
  if (stat(dir.c_str(), &st) == 0) return S_ISDIR(st.st_mode) || (*error = dir + " is not a directory", false);
  size_t slash = dir.find_last_of('/');
  if (slash != std::string::npos && slash > 0 && !makeDirs(dir.substr(0, slash), error)) return false;
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    *error = "cannot create " + dir + ": " + strerror(errno);
    return false;
  }
  return true;
}

bool writeModelParams(const ModelParams &p, const std::string &path, std::string *error) {
  std::string ignored;
  if (!error) error = &ignored;
  if (path.empty()) {
    *error = "no path for the model file (set TEMPI_CACHE_DIR or HOME)";
    return false;
  }
  size_t slash = path.find_last_of('/');
  if (slash != std::string::npos && !makeDirs(path.substr(0, slash), error)) return false;
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  FILE *f = fopen(tmp.c_str(), "w");
  if (!f) {
    *error = "cannot write " + tmp + ": " + strerror(errno);
    return false;
  }
  std::string text = formatModelParams(p);
  bool ok = fwrite(text.data(), 1, text.size(), f) == text.size();
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp.c_str(), path.c_str()) != 0) {
    *error = "cannot write " + path + ": " + strerror(errno);
    unlink(tmp.c_str());
    return false;
  }
  return true;
}

} // namespace tempi
