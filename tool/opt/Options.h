/// \file
/// tempi-opt's command line: what it reads, which passes it runs and what it prints.
/// parseOptions refuses unknown options, unknown pass names, unknown --print values, a bad --count and more
/// than one input file, with a message for exit code 2.
#pragma once

#include "passes/PassRegistry.h"
#include "passes/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tempi::opt {

enum class PrintMode { IR, Canonical, Strided, Plan, Expr, Blocks };

struct Options {
  std::string input = "-";                ///< a file, or "-" for stdin
  bool explicitPasses = false;            ///< -passes= given: run exactly those, once each
  std::vector<const PassInfo *> passes;   ///< in order
  PrintMode print = PrintMode::IR;
  int64_t count = 1;                      ///< elements, for --print=blocks
  bool help = false, version = false, listPasses = false;
};

Result<Options> parseOptions(const std::vector<std::string> &args);
std::string usage();

} // namespace tempi::opt
