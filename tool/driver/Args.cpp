/// \file
/// Response-file expansion and argument classification for tempi-cc (see Args.h).
#include "tool/driver/Args.h"

#include "tool/driver/Process.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace tempi::driver {
namespace {

/// GCC's options that take their value as the next argument.
bool takesSeparateValue(std::string_view a) {
  static const std::array<std::string_view, 30> kOpts = {
      "-o", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
      "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-MF", "-MT", "-MQ", "-x",
      "-L", "-l", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-T", "-u", "-e", "-z",
      "--param", "-aux-info", "-dumpbase", "-dumpdir"};
  return std::find(kOpts.begin(), kOpts.end(), a) != kOpts.end();
}

/// Options (with a separate value) that change how a source is preprocessed.
bool isFrontEndWithValue(std::string_view a) {
  return a == "-I" || a == "-D" || a == "-U" || a == "-include" || a == "-imacros" ||
         a == "-isystem" || a == "-iquote" || a == "-idirafter" || a == "-iprefix" ||
         a == "-iwithprefix" || a == "-iwithprefixbefore" || a == "-isysroot" || a == "-x";
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

/// Options that change the size or layout of types, so the tool's sizeof, offsetof and
/// MPI_Get_address differences must see them (`-fpack-struct` packs every struct).
bool changesLayout(std::string_view a) {
  return startsWith(a, "-fpack-struct") || startsWith(a, "-fno-pack-struct") ||
         a == "-fshort-enums" || a == "-fno-short-enums" || a == "-fshort-wchar" ||
         a == "-fno-short-wchar" || a == "-malign-double" || a == "-mno-align-double" ||
         a == "-mms-bitfields" || a == "-mno-ms-bitfields" || a == "-m32" || a == "-m64" ||
         a == "-mx32";
}

/// Options that change the compiler's predefined macros (`__AVX512F__`, `__FAST_MATH__`) or the
/// size of `long double`: a source may size its arrays or pad its rows by them, so the tool must
/// see what the compiler sees. (A macro the tool's Clang still defines otherwise than the
/// compiler, `__GNUC__`, is caught by tempi-rewrite's --compiler-macros check.)
bool changesTargetMacros(std::string_view a) {
  if (startsWith(a, "-march=") || startsWith(a, "-mlong-double-"))
    return true;
  static constexpr std::string_view kIsa[] = {
      "avx", "sse", "fma", "f16c", "bmi", "popcnt", "lzcnt", "aes", "pclmul", "sha", "amx",
      "vaes", "vpclmulqdq", "gfni", "adx", "movbe", "rdrnd", "rdseed", "xsave", "mmx"};
  if (startsWith(a, "-m")) {
    std::string_view m = a.substr(2);
    if (startsWith(m, "no-"))
      m = m.substr(3);
    for (std::string_view isa : kIsa)
      if (startsWith(m, isa))
        return true;
  }
  return a == "-ffast-math" || a == "-fno-fast-math" || a == "-ffinite-math-only" ||
         a == "-fno-finite-math-only";
}

/// Single-argument options that change how a source is preprocessed or which language it is.
bool isFrontEndJoined(std::string_view a) {
  if (a.size() > 2 && (startsWith(a, "-I") || startsWith(a, "-D") || startsWith(a, "-U")))
    return true;
  return startsWith(a, "-std=") || a == "-ansi" || startsWith(a, "-fopenmp") ||
         a == "-pthread" || startsWith(a, "-O") || a == "-nostdinc" || a == "-nostdinc++" ||
         startsWith(a, "--sysroot=") || startsWith(a, "-isystem") || startsWith(a, "-iquote") ||
         startsWith(a, "-idirafter") || startsWith(a, "-funsigned-char") ||
         startsWith(a, "-fsigned-char") || startsWith(a, "-fno-signed-char") ||
         startsWith(a, "-fno-unsigned-char") || changesLayout(a) || changesTargetMacros(a);
}

bool isLinkOnlyJoined(std::string_view a) {
  return (a.size() > 2 && (startsWith(a, "-l") || startsWith(a, "-L"))) || startsWith(a, "-Wl,") ||
         a == "-shared" || a == "-static" || a == "-rdynamic" || a == "-pie" || a == "-no-pie" ||
         a == "-static-libgcc" || a == "-static-libstdc++" || a == "-nostdlib" ||
         a == "-nostartfiles" || a == "-nodefaultlibs" || a == "-s";
}

std::optional<SourceLang> langOfSuffix(const std::string &path) {
  auto dot = path.rfind('.');
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos)
    return std::nullopt;
  std::string ext = path.substr(dot + 1);
  if (ext == "c")
    return SourceLang::C;
  if (ext == "cc" || ext == "cp" || ext == "cxx" || ext == "cpp" || ext == "CPP" ||
      ext == "c++" || ext == "C")
    return SourceLang::Cxx;
  return std::nullopt;
}

/// Splits a response file's text into arguments, GCC style.
std::vector<std::string> splitResponse(const std::string &text) {
  std::vector<std::string> out;
  std::string cur;
  bool inArg = false;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      cur += text[++i];
      inArg = true;
    } else if (quote) {
      if (c == quote)
        quote = 0;
      else
        cur += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      inArg = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      if (inArg)
        out.push_back(cur);
      cur.clear();
      inArg = false;
    } else {
      cur += c;
      inArg = true;
    }
  }
  if (inArg)
    out.push_back(cur);
  return out;
}

void expandInto(const std::vector<std::string> &args, std::vector<std::string> &out, int depth,
                std::string &error) {
  for (const auto &a : args) {
    std::string text;
    if (a.size() > 1 && a[0] == '@' && readFile(a.substr(1), text)) {
      if (depth >= 64) {
        error = "response files nested more than 64 deep (a loop?) at '" + a + "'";
        return;
      }
      expandInto(splitResponse(text), out, depth + 1, error);
      if (!error.empty())
        return;
    } else {
      out.push_back(a);
    }
  }
}

} // namespace

std::vector<std::string> expandResponseFiles(const std::vector<std::string> &args,
                                             std::string &error) {
  std::vector<std::string> out;
  expandInto(args, out, 0, error);
  return out;
}

CommandLine classify(std::vector<std::string> args) {
  CommandLine cl;
  cl.args = std::move(args);
  bool sawPreprocess = false, sawCompile = false, sawAssemble = false;
  std::optional<std::optional<SourceLang>> forcedLang; // from -x; nullopt inner: not C/C++
  // `-x LANG` or `-xLANG`: the language of the inputs after it ("none": by suffix again).
  auto forceLanguage = [&forcedLang](const std::string &value) {
    if (value == "none")
      forcedLang.reset();
    else if (value == "c")
      forcedLang = std::optional<SourceLang>(SourceLang::C);
    else if (value == "c++")
      forcedLang = std::optional<SourceLang>(SourceLang::Cxx);
    else
      forcedLang = std::optional<SourceLang>();
  };
  const auto &a = cl.args;
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string &arg = a[i];
    if (arg.size() > 1 && arg[0] == '-') {
      if (arg == "-c")
        sawCompile = true;
      else if (arg == "-S")
        sawAssemble = true;
      else if (arg == "-E" || arg == "-M" || arg == "-MM" || arg == "-fsyntax-only")
        sawPreprocess = true;
      else if (arg == "-MD" || arg == "-MMD")
        cl.deps = true;
      if (arg == "-MD" || arg == "-MMD" || arg == "-MP")
        cl.depOutput.push_back(i);

      if (takesSeparateValue(arg) && i + 1 < a.size()) {
        const std::string &value = a[i + 1];
        if (arg == "-o") {
          cl.outputValue = i + 1;
          cl.output = value;
        } else if (arg == "-MF") {
          cl.depFile = value;
        } else if (arg == "-MT" || arg == "-MQ") {
          cl.depTargetGiven = true;
        }
        if (arg == "-MF" || arg == "-MT" || arg == "-MQ") {
          cl.depOutput.push_back(i);
          cl.depOutput.push_back(i + 1);
        } else if (arg == "-x") {
          forceLanguage(value);
        }
        if (isFrontEndWithValue(arg)) {
          cl.frontEndFlags.push_back(arg);
          cl.frontEndFlags.push_back(value);
        }
        if (arg == "-l" || arg == "-L" || arg == "-Xlinker" || arg == "-T" || arg == "-u" ||
            arg == "-e" || arg == "-z") {
          cl.linkOnly.push_back(i);
          cl.linkOnly.push_back(i + 1);
        }
        ++i;
        continue;
      }
      if (startsWith(arg, "-o") && arg.size() > 2) {
        cl.output = arg.substr(2);
      } else if (startsWith(arg, "-MF") && arg.size() > 3) {
        cl.depFile = arg.substr(3);
        cl.depOutput.push_back(i);
      } else if ((startsWith(arg, "-MT") || startsWith(arg, "-MQ")) && arg.size() > 3) {
        cl.depTargetGiven = true;
        cl.depOutput.push_back(i);
      } else if (startsWith(arg, "-x") && arg.size() > 2) {
        forceLanguage(arg.substr(2));
      }
      if (isFrontEndJoined(arg) || startsWith(arg, "-x"))
        cl.frontEndFlags.push_back(arg);
      if (isLinkOnlyJoined(arg))
        cl.linkOnly.push_back(i);
      continue;
    }
    // A positional argument (or "-": stdin, never rewritten).
    std::optional<SourceLang> lang = forcedLang ? *forcedLang : langOfSuffix(arg);
    if (lang && arg != "-")
      cl.sources.push_back({i, *lang});
    else
      cl.otherInputs.push_back(i);
  }
  if (sawPreprocess)
    cl.action = Action::Preprocess;
  else if (sawAssemble)
    cl.action = Action::Assemble;
  else if (sawCompile)
    cl.action = Action::Compile;
  else if (cl.sources.empty() && cl.otherInputs.empty() &&
           std::none_of(cl.linkOnly.begin(), cl.linkOnly.end(), [&](size_t i) {
             return startsWith(a[i], "-l"); // libraries are inputs: `-o p -L. -lmain` links
           }))
    cl.action = Action::Preprocess; // an information query (-v, -show, -dumpversion, ...)
  else
    cl.action = Action::Link;
  return cl;
}

namespace {
/// Libraries that define nothing which refers to a program's own globals.
bool isSystemLibrary(std::string_view name) {
  static constexpr std::string_view kLibraries[] = {
      "c",      "m",      "dl",    "rt",      "pthread", "stdc++", "gcc",      "gcc_s",
      "atomic", "gomp",   "omp",   "z",       "mpi",     "mpich",  "mpicxx",   "mpi_cxx",
      "cudart", "cuda",   "cudart_static",    "cublas",  "cufft",  "curand",   "nvToolsExt",
      "tempi"};
  for (std::string_view l : kLibraries)
    if (name == l)
      return true;
  return false;
}

/// -Wl,a,b,c: only -rpath (and its value), --as-needed and the like, which add no code and
/// export nothing.
bool isHarmlessLinkerFlag(std::string_view arg) {
  static constexpr std::string_view kHarmless[] = {
      "--as-needed", "--no-as-needed", "-O1", "-O2", "--enable-new-dtags", "--disable-new-dtags",
      "--gc-sections", "-z", "relro", "now", "noexecstack", "--build-id"};
  const std::vector<std::string_view> parts = linkerWords(arg);
  for (size_t k = 0; k < parts.size(); ++k) {
    std::string_view p = parts[k];
    if (p == "-rpath" || p == "-rpath-link") {
      ++k; // its directory
      continue;
    }
    if (startsWith(p, "-rpath=") || startsWith(p, "-rpath-link=") || startsWith(p, "--rpath="))
      continue;
    bool ok = false;
    for (std::string_view h : kHarmless)
      ok = ok || p == h;
    if (!ok)
      return false;
  }
  return true;
}
} // namespace

std::vector<std::string_view> linkerWords(std::string_view arg) {
  std::vector<std::string_view> words;
  for (size_t start = 4; start <= arg.size();) {
    size_t comma = arg.find(',', start);
    if (comma == std::string_view::npos)
      comma = arg.size();
    words.push_back(arg.substr(start, comma - start));
    start = comma + 1;
  }
  return words;
}

bool isWholeProgram(const CommandLine &cl) {
  if (cl.action != Action::Link || cl.sources.size() != 1 || !cl.otherInputs.empty())
    return false;
  const auto &a = cl.args;
  for (size_t k = 0; k < cl.linkOnly.size(); ++k) {
    const std::string &arg = a[cl.linkOnly[k]];
    if (arg == "-l" && k + 1 < cl.linkOnly.size()) {
      if (!isSystemLibrary(a[cl.linkOnly[++k]]))
        return false;
    } else if (arg == "-L" && k + 1 < cl.linkOnly.size()) {
      ++k;
    } else if (startsWith(arg, "-l")) {
      if (!isSystemLibrary(std::string_view(arg).substr(2)))
        return false;
    } else if (startsWith(arg, "-Wl,")) {
      if (!isHarmlessLinkerFlag(arg))
        return false;
    } else if (!startsWith(arg, "-L") && arg != "-pie" && arg != "-no-pie" && arg != "-s" &&
               arg != "-static" && arg != "-static-libgcc" && arg != "-static-libstdc++") {
      return false; // -shared, -rdynamic, -nostdlib, -Xlinker, -T, -u, -e, -z, ...
    }
  }
  return true;
}

std::string stem(const std::string &path) {
  std::string base = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  auto dot = base.rfind('.');
  return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}

std::string defaultObjectName(const std::string &source) { return stem(source) + ".o"; }

std::string dirName(const std::string &path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string baseName(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace tempi::driver
