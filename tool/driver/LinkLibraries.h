/// \file
/// Which static archives a link takes for its -l libraries. tempi-cc inspects the program's
/// objects and archives for rewritten code (which needs the CUDA runtime on the link line); an
/// archive named by `-lNAME` instead of by its path must be found the way ld finds it.
#pragma once

#include "tool/driver/Args.h"

#include <string>
#include <vector>

namespace tempi::driver {

/// The archives ld would read for the command's -l libraries: -lNAME looked up in the -L folders
/// (then `libraryPath`, gcc's LIBRARY_PATH) in order; in one folder libNAME.so wins over
/// libNAME.a unless the library comes after -static or -Wl,-Bstatic; -l:FILE names the file
/// itself. ld's default folders are not searched: a program's own archives are not installed
/// there, and the system's hold no rewritten code.
std::vector<std::string> archivesNamedByLibraries(const CommandLine &cl,
                                                  const std::vector<std::string> &libraryPath);

/// LIBRARY_PATH split at ':' (empty parts dropped).
std::vector<std::string> splitLibraryPath(const char *value);

} // namespace tempi::driver
