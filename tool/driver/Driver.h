/// \file
/// The tempi-cc pipeline: for each C/C++ source, tempi-rewrite into a temporary directory, compile
/// the rewritten source with the MPI wrapper and the generated kernels with nvcc (cached), and
/// link libtempi and the CUDA runtime. Everything else is the MPI wrapper's business: a command
/// with nothing to rewrite runs the wrapper with the user's arguments unchanged.
///
/// Failure policy: when tempi-rewrite, nvcc, the partial link or the compile of the rewritten
/// source fails, the original source is compiled unchanged after a warning that says what failed
/// ("tempi-cc: warning: <what failed>; compiling <file> unchanged"); with --no-fallback that is
/// an error and the exit code is 1. A failure of the compiler on the user's own code is reported
/// by the compiler and its exit code is returned: when the rewritten source does not compile, the
/// source as written is compiled, and if that fails too its output and exit code are the answer.
#pragma once

#include "tool/driver/Args.h"

#include <string>
#include <vector>

namespace tempi::driver {

/// The language a command is for, chosen by the program's name or --lang= (Main.cpp).
enum class Language {
  C,       ///< tempi-cc, wrapping mpicc
  Cxx,     ///< tempi-cxx, wrapping mpicxx (which compiles a .c file as C++)
  /// tempi-fort, wrapping mpifort. Fortran is not rewritten (nor C handed to it); what it adds is
  /// the link: libtempi (and the CUDA runtime) for objects rewritten by tempi-cc, as tempi-cc
  /// links them, so a Fortran main can link C objects that tempi-cc rewrote.
  Fortran,
};

struct Config {
  std::string self;          ///< "tempi-cc", "tempi-cxx" or "tempi-fort": the name in messages
  Language lang = Language::C;
  std::string wrapper;       ///< mpicc / mpicxx / mpifort (resolved path)
  std::string rewrite;       ///< tempi-rewrite, empty when not found
  std::string lint;          ///< tempi-lint, empty when not found
  std::string nvcc;          ///< empty when not found: kernels are then not specialized
  std::string includeDir;    ///< holds tempi/tempi.h and tempi/kernels.cuh
  std::string libDir;        ///< holds libtempi
  std::string cudaArch = "sm_90";
  std::vector<std::string> nvccFlags; ///< TEMPI_NVCC_FLAGS
  std::string cacheDir;      ///< empty: no cache
  std::string tempRoot = "/tmp";
  bool show = false, noFallback = false, runLint = false, verbose = false, keepTemps = false;
  /// --explain / -Rtempi: tempi-rewrite prints a remark at every datatype argument (what was
  /// rewritten, or why a call was left to the runtime). The rewrite and object caches are not
  /// read then, so the tool runs and the remarks appear on every build.
  bool explain = false;
  /// TEMPI_LINK_RUNTIME (default on): every program linked gets libtempi, the runtime tier for
  /// what the tool left alone. Off: only links that call tempi_* (a rewritten source or object).
  bool linkRuntime = true;
};

/// Runs the whole command. `originalArgs` are the user's arguments with the driver's own flags
/// removed but response files not expanded (what a pass-through hands to the wrapper).
/// Returns the exit code.
int runDriver(const Config &cfg, const std::vector<std::string> &originalArgs);

} // namespace tempi::driver
