/// \file
/// What tempi-cc adds to a link, and when (see LinkFlags.h).
#include "tool/driver/LinkFlags.h"

#include "tool/driver/LinkLibraries.h"
#include "tool/driver/Process.h"

#include <algorithm>
#include <cstdlib>

namespace tempi::driver {
namespace {

std::vector<std::string> tempiLinkFlags(const Config &cfg, bool withCuda) {
  std::vector<std::string> f = {"-L" + cfg.libDir, "-Wl,-rpath," + cfg.libDir};
  // A Fortran program's objects call mpi_send_ and the like, never MPI_Send: with --as-needed
  // (the default of Debian's and Ubuntu's toolchains) the linker would drop libtempi, and the
  // Fortran bindings' calls of the C MPI_* functions would never reach it.
  if (cfg.lang == Language::Fortran)
    f.insert(f.end(), {"-Wl,--push-state,--no-as-needed", "-ltempi", "-Wl,--pop-state"});
  else
    f.push_back("-ltempi");
  if (withCuda && !cfg.nvcc.empty()) {
    std::string root = dirName(dirName(cfg.nvcc));
    std::string lib = root + "/lib64";
    if (!fileExists(lib + "/libcudart.so"))
      lib = root + "/targets/x86_64-linux/lib";
    f.insert(f.end(), {"-L" + lib, "-Wl,-rpath," + lib, "-lcudart"});
    // nvcc's host code is C++: a C link (mpicc) needs the C++ runtime spelled out.
    if (cfg.lang != Language::Cxx)
      f.push_back("-lstdc++");
  }
  return f;
}

/// CMake learns a compiler's implicit libraries from the verbose link of a probe program
/// (CMakeCCompilerABI.c, CMakeCXXCompilerABI.cpp) and adds them to every link made by another
/// language's compiler: with libtempi among them, a C++ or Fortran link of a project built with
/// CC=tempi-cc got -ltempi without its rpath, and the program could not start. The probe is no
/// MPI program; it is linked as the MPI wrapper links it.
bool isCompilerProbe(const CommandLine &cl) {
  auto probe = [&](size_t i) {
    const std::string base = baseName(cl.args[i]);
    return base.rfind("CMake", 0) == 0 && base.find("CompilerABI.") != std::string::npos;
  };
  return std::any_of(cl.otherInputs.begin(), cl.otherInputs.end(), probe) ||
         std::any_of(cl.sources.begin(), cl.sources.end(),
                     [&](const Input &in) { return probe(in.index); });
}

} // namespace

LinkInputs scanLinkInputs(const CommandLine &cl) {
  LinkInputs found;
  std::vector<std::string> paths;
  for (size_t i : cl.otherInputs)
    paths.push_back(cl.args[i]);
  // Archives named by -l are what a build system's own static libraries usually look like.
  const std::vector<std::string> libraryPath = splitLibraryPath(getenv("LIBRARY_PATH"));
  for (std::string &archive : archivesNamedByLibraries(cl, libraryPath))
    paths.push_back(std::move(archive));
  for (const std::string &path : paths) {
    auto dot = path.rfind('.');
    std::string ext = dot == std::string::npos ? "" : path.substr(dot);
    if (ext != ".o" && ext != ".a" && ext != ".obj")
      continue;
    std::string bytes;
    if (!readFile(path, bytes))
      continue;
    // Rewritten code calls tempi_* entry points; generated kernels register with the CUDA runtime.
    if (bytes.find("tempi_") != std::string::npos) {
      found.useTempi = true;
      if (bytes.find("__cudaRegisterFatBinary") != std::string::npos)
        found.withCuda = true;
    }
  }
  return found;
}

bool linksRuntimeAnyway(const Config &cfg, const CommandLine &cl) {
  if (!cfg.linkRuntime || isCompilerProbe(cl))
    return false;
  // There is no static libtempi: a static link gets the runtime only where it cannot do
  // without (and fails there, saying so, as before).
  return std::none_of(cl.args.begin(), cl.args.end(),
                      [](const std::string &a) { return a == "-static" || a == "-static-pie"; });
}

/// libtempi interposes the MPI only when it comes before the MPI library in the program's load
/// order. The wrapper adds its own MPI library after everything the user wrote, so the flags are
/// appended; but a link line that names the MPI library itself (`-lmpich`, as CMake's
/// ${MPI_C_LIBRARIES} gives) gets them just before it, where --as-needed also keeps libtempi
/// (the objects before it call MPI_*).
void addTempiLinkFlags(const Config &cfg, std::vector<std::string> &link, bool withCuda) {
  auto namesMpiLibrary = [](const std::string &a) {
    std::string name; // -lNAME, or a path to libNAME.so[.N]
    if (a.rfind("-l", 0) == 0) {
      name = a.substr(2);
    } else if (a.empty() || a[0] != '-') {
      const std::string base = baseName(a);
      const size_t so = base.find(".so");
      if (base.rfind("lib", 0) == 0 && so != std::string::npos)
        name = base.substr(3, so - 3);
    }
    // mpi, mpich, mpi_cxx, mpichcxx, mpifort, mpi_usempif08, ...
    return name == "mpi" || name == "mpifort" || name == "mpicxx" || name.rfind("mpi_", 0) == 0 ||
           name.rfind("mpich", 0) == 0;
  };
  auto at = std::find_if(link.begin(), link.end(), namesMpiLibrary);
  const std::vector<std::string> flags = tempiLinkFlags(cfg, withCuda);
  link.insert(at, flags.begin(), flags.end());
}

} // namespace tempi::driver
