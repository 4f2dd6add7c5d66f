/// \file
/// What tempi-cc adds to a link, and when: libtempi (the runtime tier) placed before the MPI
/// library, and the CUDA runtime where generated kernels are linked in (docs/tempi-cc.md, step
/// 6). Every program gets libtempi unless TEMPI_LINK_RUNTIME=0, a -static link or CMake's
/// compiler probe rules it out; then only a link whose objects call tempi_* gets it.
#pragma once

#include "tool/driver/Args.h"
#include "tool/driver/Driver.h"

#include <string>
#include <vector>

namespace tempi::driver {

/// What a link's object and archive inputs hold.
struct LinkInputs {
  bool useTempi = false; ///< some object calls tempi_* (rewritten code)
  bool withCuda = false; ///< ... and carries generated kernels
};

/// Reads the link's objects and archives: those named by their path, and the archives ld would
/// take for its -l libraries (archivesNamedByLibraries, with LIBRARY_PATH). Archives can be
/// large: the caller reads them once.
LinkInputs scanLinkInputs(const CommandLine &cl);

/// Whether the link gets libtempi even when no input calls tempi_*: TEMPI_LINK_RUNTIME is on,
/// the link is not static, and it is not CMake's compiler probe.
bool linksRuntimeAnyway(const Config &cfg, const CommandLine &cl);

/// Adds `-L<lib> -Wl,-rpath,<lib> -ltempi` (and, `withCuda`, the CUDA runtime) to `link`, where
/// libtempi comes before the MPI library.
void addTempiLinkFlags(const Config &cfg, std::vector<std::string> &link, bool withCuda);

} // namespace tempi::driver
