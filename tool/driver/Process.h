/// \file
/// Running the programs tempi-cc drives: spawn and wait (output optionally captured into files),
/// replace the current process (pass-through), find a program on PATH, quote a command line for
/// printing. No shell is involved anywhere, so arguments reach the programs byte for byte.
#pragma once

#include <string>
#include <vector>

namespace tempi::driver {

struct RunResult {
  int exitCode = 0;      ///< the program's exit code; 128 + N when killed by signal N
  std::string output;    ///< stdout then stderr, when captured
  std::string error;     ///< why the program could not be started at all; empty otherwise
};

/// Runs argv[0] (searched on PATH when it has no '/') with argv and waits. When `capture`, stdout
/// and stderr go to a file under `scratchDir` and come back in output; otherwise they are
/// inherited. A non-empty `stdinPath` is opened as its standard input.
RunResult runProgram(const std::vector<std::string> &argv, bool capture,
                     const std::string &scratchDir = "", const std::string &stdinPath = "");

/// A program started by startProgram and not yet waited for.
struct Started {
  int pid = -1;              ///< -1 when it could not be started
  std::string capturePath;   ///< its stdout+stderr
  std::string error;
};
/// Starts argv in the background with stdout and stderr going to `capturePath`.
Started startProgram(const std::vector<std::string> &argv, const std::string &capturePath);
/// Waits for it; output holds what it printed (the capture file is removed).
RunResult finishProgram(Started &p);
/// Stops it (SIGTERM), waits, and removes its capture file.
void abandonProgram(Started &p);

/// Replaces this process by argv (execvp). Returns only on failure, with the reason.
std::string execProgram(const std::vector<std::string> &argv);

/// The full path of `name` on PATH (or `name` itself when it holds a '/' and is executable);
/// empty when not found.
std::string findProgram(const std::string &name);

/// argv as one line a POSIX shell would split back into argv.
std::string shellJoin(const std::vector<std::string> &argv);

/// The directory holding the running executable (from /proc/self/exe).
std::string selfDirectory();

/// Whole-file helpers; readFile returns false when the file cannot be read.
bool readFile(const std::string &path, std::string &contents);
bool writeFile(const std::string &path, const std::string &contents);
bool fileExists(const std::string &path);

} // namespace tempi::driver
