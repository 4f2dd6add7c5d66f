/// \file
/// The content-addressed kernel object cache (see KernelCache.h).
#include "tool/driver/KernelCache.h"

#include "tool/driver/Hash.h"
#include "tool/driver/Process.h"

#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

namespace tempi::driver {
namespace {

bool makeDirs(const std::string &dir) {
  std::string cur;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = dir.find('/', pos + 1);
    cur = dir.substr(0, pos);
    if (cur.empty())
      continue;
    if (mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST)
      return false;
  }
  return true;
}

bool publish(const std::string &contents, const std::string &dest) {
  std::string tmp = dest + ".tmp." + std::to_string(getpid());
  if (!writeFile(tmp, contents)) {
    unlink(tmp.c_str());
    return false;
  }
  if (std::rename(tmp.c_str(), dest.c_str()) != 0) {
    unlink(tmp.c_str());
    return false;
  }
  return true;
}

} // namespace

std::string KernelCache::defaultDirectory() {
  if (const char *d = std::getenv("TEMPI_CACHE_DIR"))
    return std::string(d) == "off" ? "" : d;
  if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return std::string(x) + "/tempi/kernels";
  if (const char *h = std::getenv("HOME"); h && *h)
    return std::string(h) + "/.cache/tempi/kernels";
  return "";
}

std::string KernelCache::entryPath(const std::string &key) const {
  char name[17];
  std::snprintf(name, sizeof name, "%016" PRIx64, fnv1a(key));
  return dir_ + "/" + name + ".entry";
}

bool KernelCache::lookup(const std::string &key, const std::string &object) const {
  std::string payload;
  return lookupBytes(key, payload) && writeFile(object, payload);
}

bool KernelCache::lookupBytes(const std::string &key, std::string &payload) const {
  std::string entry;
  if (dir_.empty() || !readFile(entryPath(key), entry))
    return false;
  size_t newline = entry.find('\n');
  if (newline == std::string::npos || newline > 20)
    return false;
  size_t keyLength = std::strtoull(entry.substr(0, newline).c_str(), nullptr, 10);
  if (entry.size() < newline + 1 + keyLength ||
      entry.compare(newline + 1, keyLength, key) != 0 || keyLength != key.size())
    return false;
  payload = entry.substr(newline + 1 + keyLength);
  return true;
}

bool KernelCache::store(const std::string &key, const std::string &object) const {
  std::string bytes;
  return readFile(object, bytes) && storeBytes(key, bytes);
}

bool KernelCache::storeBytes(const std::string &key, const std::string &payload) const {
  if (dir_.empty() || !makeDirs(dir_))
    return false;
  return publish(std::to_string(key.size()) + "\n" + key + payload, entryPath(key));
}

} // namespace tempi::driver
