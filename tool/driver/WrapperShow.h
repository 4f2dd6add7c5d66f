/// \file
/// What the MPI wrapper says it adds to a compile: its `-show` (MPICH, Intel MPI, MVAPICH) or
/// `--showme` (Open MPI) answer, read into the compiler it runs and the preprocessor flags it
/// passes (-I, -isystem, -D, -pthread), which tempi-rewrite, the prescan and nvcc need to parse a
/// source as the compiler does. The answer is remembered in the cache folder, keyed by the
/// wrapper file itself (path, size, mtime). A wrapper that answers neither query gives nothing.
#pragma once

#include "tool/driver/Driver.h"

#include <string>
#include <vector>

namespace tempi::driver {

struct WrapperShow {
  std::string compiler;                   ///< the first word of the answer (gcc, ...); may be empty
  std::vector<std::string> frontEndFlags; ///< -I DIR, -isystem DIR, -I..., -D..., -pthread
};

/// Asks cfg.wrapper (or reads its remembered answer from cfg.cacheDir); `scratchDir` holds the
/// captured output while the wrapper runs.
WrapperShow askWrapper(const Config &cfg, const std::string &scratchDir);

} // namespace tempi::driver
