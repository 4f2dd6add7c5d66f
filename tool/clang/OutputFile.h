/// \file
/// Writing a tool's output file: one place for the error messages tempi-rewrite and tempi-lint
/// print when a file cannot be opened or written ("<tool>: error: cannot write '<path>': ...").
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace tempi::frontend {

/// Opens `path` as text, lets `write` fill it, closes it. False, with the error printed to stderr
/// under `toolName`, when it cannot be opened or written.
bool writeOutputFile(llvm::StringRef toolName, llvm::StringRef path,
                     llvm::function_ref<void(llvm::raw_ostream &)> write);

} // namespace tempi::frontend
