/// \file
/// The cache of compiled generated kernels, keyed by content.
///
/// The key is everything that decides the object nvcc would produce: the generated source, the
/// full nvcc command line (compiler path, architecture, flags) and the text of the runtime headers
/// the source includes (tempi/kernels.cuh, tempi/tempi.h). An entry is one file NAME.entry (NAME:
/// 16 hex digits of a 64-bit hash of the key) holding the key's length, the whole key text and the
/// object. A hit compares the stored key byte for byte, so a hash collision is a miss, never a
/// wrong object. Entries are published with rename(), so concurrent builds (make -j) never see a
/// partial entry.
#pragma once

#include <string>

namespace tempi::driver {

class KernelCache {
public:
  /// `dir` is created on first store; an empty dir disables the cache.
  explicit KernelCache(std::string dir) : dir_(std::move(dir)) {}

  /// The default directory: TEMPI_CACHE_DIR, else $XDG_CACHE_HOME/tempi/kernels, else
  /// ~/.cache/tempi/kernels; empty when none can be formed or TEMPI_CACHE_DIR is "off".
  static std::string defaultDirectory();

  /// On a hit, writes the cached object to `object` and returns true.
  bool lookup(const std::string &key, const std::string &object) const;
  /// Copies `object` into the cache under `key`; false when the cache is disabled or cannot be
  /// written (nothing is lost: the caller still has `object`).
  bool store(const std::string &key, const std::string &object) const;

  /// The same store for any bytes (the rewrite cache keeps its results here too).
  bool lookupBytes(const std::string &key, std::string &payload) const;
  bool storeBytes(const std::string &key, const std::string &payload) const;

  const std::string &directory() const { return dir_; }

private:
  std::string entryPath(const std::string &key) const;
  std::string dir_;
};

} // namespace tempi::driver
