/// \file
/// The command line of tempi-cc as a C compiler driver sees it: response files expanded, the
/// driver's own flags taken out, every other argument classified without being changed.
///
/// Classification follows GCC's driver: options that take a separate value (-o FILE, -I DIR,
/// -MF FILE, -x LANG, ...) keep their value attached; a positional argument is a source when its
/// suffix (or the last -x) says C or C++, and any other input (objects, archives, assembly, ...)
/// otherwise. Nothing here decides what to run; see Driver.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tempi::driver {

/// Expands @FILE arguments with GCC's quoting rules (whitespace separates, '...' and "..." quote,
/// backslash escapes), recursively (at most 64 levels). An @FILE that cannot be read stays as is,
/// as GCC does. Sets `error` on a response-file loop.
std::vector<std::string> expandResponseFiles(const std::vector<std::string> &args,
                                             std::string &error);

enum class Action {
  Link,       ///< compile sources (if any) and link
  Compile,    ///< -c
  Assemble,   ///< -S: passed through unchanged
  Preprocess, ///< -E, -M, -MM, -fsyntax-only, or no input at all: passed through unchanged
};

enum class SourceLang { C, Cxx };

struct Input {
  size_t index;     ///< position in CommandLine::args
  SourceLang lang;
};

struct CommandLine {
  std::vector<std::string> args;       ///< expanded, driver flags removed
  std::vector<Input> sources;          ///< C/C++ sources among args
  std::vector<size_t> otherInputs;     ///< objects, archives, shared libraries, assembly, ...
  Action action = Action::Link;
  std::optional<size_t> outputValue;   ///< index of the argument holding -o's value
  std::optional<std::string> output;   ///< -o's value
  std::optional<std::string> depFile;  ///< -MF's value
  bool depTargetGiven = false;         ///< -MT or -MQ present
  bool deps = false;                   ///< -MD or -MMD present
  /// Indices of the arguments that ask for dependency output (-MD, -MMD, -MP, -MF/-MT/-MQ and
  /// their values): left out of a compile that must write nothing but its diagnostics.
  std::vector<size_t> depOutput;
  /// Arguments that take part in preprocessing and language selection (-I, -D, -std, -include,
  /// ...), in order: what tempi-rewrite needs to parse a source as the compiler would.
  std::vector<std::string> frontEndFlags;
  /// Indices of arguments that only matter when linking (-l, -L, -Wl,..., -Xlinker X, -shared,
  /// ...); they are left out when tempi-cc compiles a single source on its own.
  std::vector<size_t> linkOnly;
};

/// Classifies `args` (already expanded, driver flags removed).
CommandLine classify(std::vector<std::string> args);

/// Whether the command builds a whole program from its one source: it links an executable from
/// that source alone (no objects, archives or other sources), against libraries that cannot
/// refer to the program's globals (the C, C++, math, thread, OpenMP, MPI and CUDA ones), and
/// exports nothing to libraries it may load (no -rdynamic, no linker flags but -rpath and a few
/// harmless ones). tempi-rewrite may then prove globals of external linkage (--whole-program).
bool isWholeProgram(const CommandLine &cl);

/// The linker's own words of "-Wl,a,b,c": a, b, c.
std::vector<std::string_view> linkerWords(std::string_view wlArg);

/// "dir/name.c" -> "name.o" (what GCC writes for -c without -o).
std::string defaultObjectName(const std::string &source);
/// The suffix-less part of a path's last component.
std::string stem(const std::string &path);
std::string dirName(const std::string &path);
/// A path's last component.
std::string baseName(const std::string &path);

} // namespace tempi::driver
