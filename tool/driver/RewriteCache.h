/// \file
/// The rewrite cache: an unchanged rebuild reuses tempi-rewrite's output instead of running it.
///
/// Like ccache's direct mode. The key is the tool (path, size, mtime), its arguments, the working
/// directory and the source text; the entry holds the rewritten source, the generated kernels and
/// the list of headers the source included with a hash and size of each. A hit requires every
/// listed header to be unchanged. Known limit (shared with ccache): a header newly created earlier
/// in the include path than the one used before is not noticed; TEMPI_CACHE_DIR=off disables all
/// caching. Only rewritten sources are stored (a source the tool leaves alone costs no more than
/// the compile that runs beside the tool).
#pragma once

#include "tool/driver/KernelCache.h"

#include <string>
#include <vector>

namespace tempi::driver {

struct CachedRewrite {
  std::string rewritten; ///< the rewritten source
  std::string kernels;   ///< the generated .cu (may be empty)
};

/// The key of one tool run. `toolArgs` must not contain the temporary output paths.
std::string rewriteKey(const std::string &tool, const std::vector<std::string> &toolArgs,
                       const std::string &sourceText);

/// An entry that stays valid while every listed header is unchanged (hash and size), holding
/// `parts` (byte strings). The rewrite cache and tempi-cc's object cache both use it.
bool storeWithHeaders(const KernelCache &cache, const std::string &key,
                      const std::vector<std::string> &headers,
                      const std::vector<std::string> &parts);
/// A hit needs the key, every header unchanged and exactly `count` parts.
bool lookupWithHeaders(const KernelCache &cache, const std::string &key,
                       std::vector<std::string> &parts, size_t count);

bool lookupRewrite(const KernelCache &cache, const std::string &key, CachedRewrite &out);
/// `headers`: every file the source includes (from the compiler's -M output).
bool storeRewrite(const KernelCache &cache, const std::string &key,
                  const std::vector<std::string> &headers, const CachedRewrite &result);

/// The prerequisites of a Make rule as the compiler's -M prints it (the target dropped).
std::vector<std::string> parseMakeDependencies(const std::string &text);

} // namespace tempi::driver
