/// \file
/// tempi-cc / tempi-cxx: drop-in replacements for mpicc / mpicxx that build a program with
/// TEMPI's compile-time tier (docs/tempi-cc.md); tempi-fort: mpifort's, which rewrites nothing
/// but links what tempi-cc's objects need (a Fortran main with rewritten C objects).
///
/// This file reads the driver's own flags and environment and finds the programs and paths the
/// pipeline needs; Driver.cpp does the work. The language is chosen by the name it is called by
/// (tempi-cxx, tempi-c++, or any name ending in "cxx"/"c++"/"CC" is C++; one ending in
/// "fort"/"f90"/"f77" is Fortran) or by --lang=c|c++|fortran.
/// Refuses (exit code 1, a message naming the problem) when no MPI wrapper can be found or when
/// the wrapper it would call is tempi-cc itself.
#include "tool/driver/Driver.h"
#include "tool/driver/KernelCache.h"
#include "tool/driver/Process.h"

#include <climits>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <unistd.h>

#ifndef TEMPI_VERSION
#define TEMPI_VERSION "unknown"
#endif
#ifndef TEMPI_SOURCE_INCLUDE_DIR
#define TEMPI_SOURCE_INCLUDE_DIR ""
#endif
#ifndef TEMPI_INSTALL_LIBDIR
#define TEMPI_INSTALL_LIBDIR "lib"
#endif
#ifndef TEMPI_DEFAULT_NVCC
#define TEMPI_DEFAULT_NVCC ""
#endif

using namespace tempi::driver;

namespace {

std::string env(const char *name) {
  const char *v = std::getenv(name);
  return v ? v : "";
}

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string realPath(const std::string &p) {
  char buf[PATH_MAX];
  return realpath(p.c_str(), buf) ? std::string(buf) : p;
}

std::string nextTo(const std::string &dir, const std::string &name, const char *envName) {
  std::string fromEnv = env(envName);
  if (!fromEnv.empty())
    return findProgram(fromEnv);
  std::string candidate = dir + "/" + name;
  return access(candidate.c_str(), X_OK) == 0 ? candidate : findProgram(name);
}

/// The language a name picks: C++ for one ending in "cxx", "c++" or "CC", Fortran for one ending
/// in "fort", "f90" or "f77", C otherwise.
Language languageOfName(const std::string &called) {
  if (endsWith(called, "cxx") || endsWith(called, "c++") || endsWith(called, "CC"))
    return Language::Cxx;
  if (endsWith(called, "fort") || endsWith(called, "f90") || endsWith(called, "f77"))
    return Language::Fortran;
  return Language::C;
}

/// What a language's driver calls itself and which MPI wrapper it runs.
struct LanguageNames {
  const char *self;            ///< the name in messages
  const char *wrapper;         ///< the MPI wrapper, looked up on PATH
  const char *wrapperVariable; ///< the environment variable that names another wrapper
};

LanguageNames namesOf(Language lang) {
  switch (lang) {
  case Language::Cxx:
    return {"tempi-cxx", "mpicxx", "TEMPI_MPICXX"};
  case Language::Fortran:
    return {"tempi-fort", "mpifort", "TEMPI_MPIFORT"};
  case Language::C:
    break;
  }
  return {"tempi-cc", "mpicc", "TEMPI_MPICC"};
}

void printHelp(const std::string &self, const std::string &wrapperName) {
  std::cout << "usage: " << self << " [" << wrapperName << " arguments...]\n"
            << "A drop-in for " << wrapperName
            << " that rewrites MPI calls with statically known datatypes and\n"
               "compiles specialized GPU pack kernels (docs/tempi-cc.md).\n"
               "Own options:\n"
               "  -show           print the commands instead of running them\n"
               "  --version       print the wrapped compiler's version and TEMPI's\n"
               "  --no-fallback   a failure of tempi-rewrite or nvcc is an error, not a warning\n"
               "  --lint          also run tempi-lint on each source\n"
               "  --explain, -Rtempi\n"
               "                  print a remark at every datatype argument: rewritten, or why not\n"
               "  --lang=c|c++|fortran\n"
               "                  act as tempi-cc, tempi-cxx or tempi-fort whatever the name\n"
               "                  (tempi-fort rewrites nothing: it links libtempi, and the CUDA\n"
               "                  runtime for objects tempi-cc rewrote)\n"
               "  --tempi-help    this text\n";
}

} // namespace

int main(int argc, char **argv) {
  const std::string called = baseName(argv[0]);
  Config cfg;
  cfg.lang = languageOfName(called);

  std::vector<std::string> args;
  bool version = false, help = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--no-fallback")
      cfg.noFallback = true;
    else if (a == "--lint")
      cfg.runLint = true;
    else if (a == "--explain" || a == "-Rtempi")
      cfg.explain = true; // never reaches the compiler: gcc would read -Rtempi as -R (an rpath)
    else if (a == "--lang=c")
      cfg.lang = Language::C;
    else if (a == "--lang=c++")
      cfg.lang = Language::Cxx;
    else if (a == "--lang=fortran")
      cfg.lang = Language::Fortran;
    else if (a.rfind("--lang=", 0) == 0) {
      std::cerr << called << ": error: unknown language in '" << a
                << "' (use --lang=c, --lang=c++ or --lang=fortran)\n";
      return 1;
    } else if (a == "--tempi-help")
      help = true;
    else {
      if (a == "-show")
        cfg.show = true; // stays in args: a pass-through hands it to the wrapper
      if (a == "--version")
        version = true;
      args.push_back(a);
    }
  }
  const LanguageNames names = namesOf(cfg.lang);
  cfg.self = names.self;
  const std::string wrapperName = names.wrapper;
  const std::string wrapperVariable = names.wrapperVariable;
  if (help) {
    printHelp(cfg.self, wrapperName);
    return 0;
  }

  std::string wrapperSetting = env(wrapperVariable.c_str());
  cfg.wrapper = findProgram(wrapperSetting.empty() ? wrapperName : wrapperSetting);
  if (cfg.wrapper.empty()) {
    std::cerr << cfg.self << ": error: cannot find the MPI compiler wrapper '"
              << (wrapperSetting.empty() ? wrapperName : wrapperSetting) << "' ("
              << (wrapperSetting.empty() ? "not on PATH; set " + wrapperVariable
                                         : "from " + wrapperVariable)
              << ")\n";
    return 1;
  }
  std::string selfDir = selfDirectory();
  if (realPath(cfg.wrapper) == realPath(selfDir + "/" + called) ||
      realPath(cfg.wrapper) == realPath("/proc/self/exe")) {
    std::cerr << cfg.self << ": error: the MPI wrapper '" << cfg.wrapper
              << "' is this program itself; set " << wrapperVariable
              << " to the real one\n";
    return 1;
  }

  if (version) {
    // The wrapped compiler's answer first (tools parse its first line), then ours.
    int rc = 0;
    if (!cfg.show) {
      RunResult r = runProgram({cfg.wrapper, "--version"}, false);
      rc = r.exitCode;
    }
    std::cout << cfg.self << " (TEMPI) " << TEMPI_VERSION << ", wrapping " << cfg.wrapper << "\n";
    return rc;
  }

  cfg.rewrite = nextTo(selfDir, "tempi-rewrite", "TEMPI_REWRITE");
  cfg.lint = nextTo(selfDir, "tempi-lint", "TEMPI_LINT");
  cfg.nvcc = findProgram(env("TEMPI_NVCC").empty() ? "nvcc" : env("TEMPI_NVCC"));
  if (cfg.nvcc.empty() && env("TEMPI_NVCC").empty() && *TEMPI_DEFAULT_NVCC)
    cfg.nvcc = findProgram(TEMPI_DEFAULT_NVCC);

  // Installed: PREFIX/bin/tempi-cc, PREFIX/include/tempi, PREFIX/<libdir>. In the build tree:
  // build/bin/tempi-cc, build/lib, and the headers in the source tree.
  const std::string prefix = dirName(selfDir);
  const bool installed = fileExists(prefix + "/include/tempi/tempi.h");
  cfg.includeDir = env("TEMPI_INCLUDE_DIR");
  if (cfg.includeDir.empty())
    cfg.includeDir = installed ? prefix + "/include" : TEMPI_SOURCE_INCLUDE_DIR;
  cfg.libDir = env("TEMPI_LIB_DIR");
  if (cfg.libDir.empty())
    cfg.libDir = prefix + "/" + (installed ? TEMPI_INSTALL_LIBDIR : "lib");

  std::string arch = env("TEMPI_CUDA_ARCH");
  if (!arch.empty())
    cfg.cudaArch = (arch[0] >= '0' && arch[0] <= '9') ? "sm_" + arch : arch;
  std::istringstream flags(env("TEMPI_NVCC_FLAGS"));
  for (std::string f; flags >> f;)
    cfg.nvccFlags.push_back(f);
  cfg.cacheDir = KernelCache::defaultDirectory();
  std::string tmp = env("TMPDIR");
  cfg.tempRoot = tmp.empty() ? "/tmp" : tmp;
  cfg.verbose = !env("TEMPI_VERBOSE").empty() && env("TEMPI_VERBOSE") != "0";
  cfg.keepTemps = !env("TEMPI_KEEP_TEMPS").empty() && env("TEMPI_KEEP_TEMPS") != "0";
  cfg.linkRuntime = env("TEMPI_LINK_RUNTIME") != "0";
  return runDriver(cfg, args);
}
