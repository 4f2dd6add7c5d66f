/// \file
/// writeOutputFile (OutputFile.h).
#include "tool/clang/OutputFile.h"

#include "llvm/Support/FileSystem.h"

namespace tempi::frontend {

bool writeOutputFile(llvm::StringRef toolName, llvm::StringRef path,
                     llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    llvm::errs() << toolName << ": error: cannot write '" << path << "': " << ec.message() << "\n";
    return false;
  }
  write(os);
  os.close();
  if (os.has_error()) {
    llvm::errs() << toolName << ": error: cannot write '" << path << "'\n";
    os.clear_error();
    return false;
  }
  return true;
}

} // namespace tempi::frontend
