/// \file
/// The tempi-cc pipeline (see Driver.h for what it does and its failure policy).
#include "tool/driver/Driver.h"

#include "tool/driver/KernelCache.h"
#include "tool/driver/LinkFlags.h"
#include "tool/driver/Prescan.h"
#include "tool/driver/Process.h"
#include "tool/driver/RewriteCache.h"
#include "tool/driver/WrapperShow.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <dirent.h>
#include <iostream>
#include <optional>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace tempi::driver {
namespace {

/// MPI calls tempi-rewrite may rewrite. A source that spells none of them cannot change, so it
/// is compiled without running the tool (the tool only edits calls spelled in the main file).
constexpr const char *kRewritableCalls[] = {
    "MPI_Send", "MPI_Ssend", "MPI_Rsend", "MPI_Bsend", "MPI_Isend", "MPI_Issend", "MPI_Recv",
    "MPI_Irecv", "MPI_Pack", "MPI_Unpack", "MPI_Neighbor_alltoall", "MPI_Alltoall"};

struct SourceState {
  Input input;
  std::string original;       ///< as the user spelled it
  bool rewritten = false;     ///< false: compile `original` unchanged
  std::string rewrittenPath;  ///< in the temporary directory
  std::string kernelSource;   ///< generated .cu (may not exist)
  int kernelCount = 0;
  std::string kernelObject;   ///< compiled kernels, when kernelCount > 0
  /// nvcc running in the background (with -c, alongside the compile of the rewritten source).
  Started nvccRun;
  bool nvccPending = false;
  std::string nvccKey, nvccObject;
  /// With -c, the original source is compiled while the tool runs (into specObject, next to the
  /// object asked for); used when the tool changes nothing, abandoned when it rewrites.
  Started spec;
  std::string specObject;
  /// The object came from the object cache: nothing is left to do for this source.
  bool objectCached = false;
  /// What the compile of the rewritten source printed (the user's warnings): stored with the
  /// object, so a build from the cache prints it too, as ccache does.
  std::string compilerOutput;
  /// The headers the source includes (the wrapper's -M), computed once for the caches' entries.
  std::optional<std::vector<std::string>> headers;
};

class Pipeline {
public:
  Pipeline(const Config &cfg, const std::vector<std::string> &originalArgs)
      : cfg_(cfg), originalArgs_(originalArgs) {}
  ~Pipeline() {
    for (auto &s : sources_) {
      abandonSpeculation(s);
      if (s.nvccPending)
        abandonProgram(s.nvccRun);
    }
    removeTemps();
  }
  int run();

private:
  // Steps.
  bool makeTempDir();
  void analyze(SourceState &s, size_t ordinal);
  void runLintOn(const SourceState &s);
  std::string objectOf(const SourceState &s) const {
    return cl_.output ? *cl_.output : defaultObjectName(s.original);
  }
  /// The command's arguments for `s` alone: other sources left out, `s` spelled as `path`, and
  /// the arguments at the indices in `leaveOut`.
  std::vector<std::string> argsForOne(const SourceState &s, const std::string &path,
                                      const std::vector<size_t> &leaveOut = {}) const;
  void startSpeculation(SourceState &s, size_t ordinal);
  std::vector<std::string> rewriteArgv(const SourceState &s, bool withOutputs);
  /// The command's preprocessor and language flags for `s` (what the tool, the prescan and -M
  /// parse it with), with -x c++ added where mpicxx compiles a .c file as C++.
  std::vector<std::string> languageFlags(const SourceState &s) const;
  bool needsTool(const SourceState &s);
  bool fromRewriteCache(SourceState &s, size_t ordinal);
  void storeInRewriteCache(SourceState &s);
  const std::vector<std::string> *headersOf(SourceState &s);
  std::string objectKey(const SourceState &s);
  bool fromObjectCache(SourceState &s);
  void storeInObjectCache(SourceState &s);
  std::string depFileOf(const SourceState &s) const;
  void abandonSpeculation(SourceState &s);
  void compileKernels(SourceState &s) {
    startKernels(s);
    finishKernels(s);
  }
  /// Starts nvcc on the generated kernels (a cache hit or -show finishes at once).
  void startKernels(SourceState &s);
  /// Waits for that nvcc; on failure, falls back (fail()).
  void finishKernels(SourceState &s);
  int compileOnly();
  int compileAndLink();
  int passThrough();
  int linkOnly();

  // Helpers.
  bool fail(SourceState &s, const std::string &what, const std::string &details);
  void dropRewrite(SourceState &s);
  /// The rewritten `s` did not compile: the source as written decides whose failure it is (see
  /// the definition). Returns that compile's result; a non-zero exit code is the user's failure.
  RunResult compileAsWritten(SourceState &s, const std::vector<std::string> &plainArgs,
                             int rewrittenExitCode, const std::string &rewrittenOutput);
  /// Whether the user's compiler accepts `s` as written (-fsyntax-only, the user's flags).
  bool originalCompiles(const SourceState &s);
  int runStep(const std::vector<std::string> &argv, bool capture, std::string *output);
  int runWrapper(const std::vector<std::string> &args, bool capture, std::string *output,
                 const std::string &stdinPath = "");
  /// The compile of the rewritten `s` (see the definition); `stdinPath` is set when the
  /// rewritten text is to be read from standard input.
  std::vector<std::string> rewrittenCompileArgs(const SourceState &s,
                                                std::vector<std::string> userArgs,
                                                std::string &stdinPath) const;
  std::vector<std::string> mpiFrontEndFlags();
  std::vector<std::string> compilerHeaderFlags();
  struct CompilerMacros {
    std::string path;    ///< the listing in the temporary folder ("": no check)
    std::string listing; ///< its text, for the rewrite cache's key
  };
  const CompilerMacros &compilerMacros(const SourceState &s);
  bool compiledAsCxx(const SourceState &s) const;
  /// What the link's object and archive inputs hold (read once: archives can be large).
  const LinkInputs &linkInputs() const;
  void fixDependencies(const SourceState &s) const;
  void warn(const std::string &msg) const { std::cerr << cfg_.self << ": warning: " << msg << "\n"; }
  void error(const std::string &msg) const { std::cerr << cfg_.self << ": error: " << msg << "\n"; }
  void removeTemps();

  const Config &cfg_;
  const std::vector<std::string> &originalArgs_;
  CommandLine cl_;
  std::vector<SourceState> sources_;
  std::string temp_;
  std::optional<std::vector<std::string>> mpiFlags_;
  std::optional<std::vector<std::string>> compilerHeaderFlags_;
  mutable std::optional<LinkInputs> linkInputs_;
  std::map<bool, CompilerMacros> compilerMacros_; ///< per language (C++: true)
  std::string wrappedCompiler_; ///< the first word of the wrapper's -show (gcc, ...)
  bool fatal_ = false;
  bool lintWarned_ = false;
};

bool containsRewritableCall(const std::string &text) {
  for (const char *name : kRewritableCalls)
    if (text.find(name) != std::string::npos)
      return true;
  return false;
}

/// The source's own text holds "MPI_Type_" (a constructor, most likely).
bool spellsTypeConstructor(const std::string &path) {
  std::string text;
  return readFile(path, text) && text.find("MPI_Type_") != std::string::npos;
}

/// The rewritten text equals the original, up to one leading #line directive.
bool sameAsOriginal(const std::string &original, const std::string &rewritten) {
  if (rewritten == original)
    return true;
  if (rewritten.rfind("#line ", 0) == 0) {
    size_t nl = rewritten.find('\n');
    return nl != std::string::npos && rewritten.compare(nl + 1, std::string::npos, original) == 0;
  }
  return false;
}

/// N from the "// tempi-kernels: N" line of a generated file; -1 when the line is missing.
int kernelCountOf(const std::string &text) {
  const std::string tag = "// tempi-kernels: ";
  size_t at = text.find(tag);
  if (at == std::string::npos || at > 1024)
    return -1;
  return std::atoi(text.c_str() + at + tag.size());
}

std::string firstLine(const std::string &text) {
  size_t b = text.find_first_not_of(" \t\r\n");
  if (b == std::string::npos)
    return "";
  return text.substr(b, text.find('\n', b) - b);
}

/// The first line of a compiler's output that reports an error (`file:1:2: error: ...`,
/// `fatal error: ...`), else the first line: a warning printed before the error is not why the
/// step failed.
std::string firstErrorLine(const std::string &text) {
  for (size_t b = 0; b < text.size();) {
    size_t e = text.find('\n', b);
    std::string line = text.substr(b, e == std::string::npos ? std::string::npos : e - b);
    if (line.find(": error:") != std::string::npos ||
        line.find(": fatal error:") != std::string::npos || line.rfind("error:", 0) == 0 ||
        line.rfind("fatal error:", 0) == 0)
      return line.substr(line.find_first_not_of(" \t\r"));
    if (e == std::string::npos)
      break;
    b = e + 1;
  }
  return firstLine(text);
}

void removeTree(const std::string &path) {
  if (DIR *d = opendir(path.c_str())) {
    while (dirent *e = readdir(d)) {
      std::string name = e->d_name;
      if (name == "." || name == "..")
        continue;
      std::string child = path + "/" + name;
      struct stat st;
      if (lstat(child.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        removeTree(child);
      else
        unlink(child.c_str());
    }
    closedir(d);
  }
  rmdir(path.c_str());
}

/// A program or file as the caches see it: path, size and modification time.
std::string identity(const std::string &path) {
  struct stat st {};
  if (path.empty() || stat(path.c_str(), &st) != 0)
    return path + " missing\n";
  return path + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec) + "\n";
}

/// Environment variables that change what the MPI wrapper or the compiler produces.
constexpr const char *kCompileEnvironment[] = {
    "MPICH_CC", "MPICH_CXX", "OMPI_CC", "OMPI_CXX", "OMPI_CFLAGS", "OMPI_CXXFLAGS",
    "OMPI_CPPFLAGS", "I_MPI_CC", "I_MPI_CXX", "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH",
    "GCC_EXEC_PREFIX", "COMPILER_PATH", "SOURCE_DATE_EPOCH", "TEMPI_LD"};

} // namespace

int Pipeline::run() {
  std::string err;
  cl_ = classify(expandResponseFiles(originalArgs_, err));
  if (!err.empty()) {
    error(err);
    return 1;
  }
  if (cl_.action == Action::Preprocess || cl_.action == Action::Assemble)
    return passThrough();
  // tempi-fort rewrites nothing: every source is an input the wrapper compiles.
  if (cfg_.lang == Language::Fortran) {
    for (const Input &in : cl_.sources)
      cl_.otherInputs.push_back(in.index);
    cl_.sources.clear();
  }
  if (cl_.sources.empty())
    return cl_.action == Action::Link ? linkOnly() : passThrough();
  if (cl_.action == Action::Compile && cl_.output && cl_.sources.size() > 1)
    return passThrough(); // the compiler reports "-o with -c and several files"

  // Only sources that spell a rewritable call need the tool (and a temporary directory).
  for (size_t i = 0; i < cl_.sources.size(); ++i) {
    SourceState s;
    s.input = cl_.sources[i];
    s.original = cl_.args[s.input.index];
    sources_.push_back(s);
  }
  std::vector<bool> candidate(sources_.size(), false);
  bool any = false;
  for (size_t i = 0; i < sources_.size(); ++i) {
    std::string text;
    candidate[i] = readFile(sources_[i].original, text) && containsRewritableCall(text);
    any = any || candidate[i] || cfg_.runLint;
  }
  if (any && !makeTempDir())
    return 1;
  for (size_t i = 0; i < sources_.size(); ++i) {
    if (cfg_.runLint)
      runLintOn(sources_[i]);
    if (candidate[i] && cl_.action == Action::Compile && fromObjectCache(sources_[i]))
      continue;
    if (candidate[i] && fromRewriteCache(sources_[i], i))
      continue;
    // The speculative compile pays off for sources the tool will leave alone; one whose own text
    // spells a type constructor is nearly always rewritten, and there the compile would only take
    // a core from the tool (and then from nvcc).
    if (candidate[i] && cl_.action == Action::Compile && !cfg_.show &&
        !spellsTypeConstructor(sources_[i].original))
      startSpeculation(sources_[i], i);
    if (candidate[i] && needsTool(sources_[i]))
      analyze(sources_[i], i);
    if (sources_[i].rewritten)
      abandonSpeculation(sources_[i]); // free the core for nvcc and the rewritten compile
    if (fatal_)
      return 1;
  }
  // With -c, compileOnly runs each source's nvcc alongside the compile of its rewritten code.
  for (auto &s : sources_) {
    if (cl_.action != Action::Compile && s.rewritten && s.kernelCount != 0)
      compileKernels(s);
    if (fatal_)
      return 1;
  }

  bool anyRewritten = std::any_of(sources_.begin(), sources_.end(),
                                  [](const SourceState &s) { return s.rewritten; });
  if (!anyRewritten) {
    bool speculated = std::any_of(sources_.begin(), sources_.end(),
                                  [](const SourceState &s) { return !s.specObject.empty(); });
    if (speculated)
      return compileOnly();
    if (cl_.action == Action::Link && (linksRuntimeAnyway(cfg_, cl_) || linkInputs().useTempi))
      return compileAndLink();
    return passThrough();
  }
  return cl_.action == Action::Compile ? compileOnly() : compileAndLink();
}

bool Pipeline::makeTempDir() {
  std::string pattern = cfg_.tempRoot + "/tempi-cc.XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) {
    error("cannot create a temporary directory under " + cfg_.tempRoot + ": " +
          std::strerror(errno));
    return false;
  }
  temp_ = buf.data();
  return true;
}

void Pipeline::removeTemps() {
  if (temp_.empty())
    return;
  if (cfg_.keepTemps)
    std::cerr << cfg_.self << ": note: kept temporary files in " << temp_ << "\n";
  else
    removeTree(temp_);
}

/// Forget the tool's result for `s`: it is compiled as the user wrote it.
void Pipeline::dropRewrite(SourceState &s) {
  s.rewritten = false;
  s.kernelObject.clear();
  if (s.nvccPending) {
    abandonProgram(s.nvccRun);
    s.nvccPending = false;
  }
}

bool Pipeline::fail(SourceState &s, const std::string &what, const std::string &details) {
  dropRewrite(s);
  if (cfg_.noFallback) {
    if (!details.empty())
      std::cerr << details << (details.back() == '\n' ? "" : "\n");
    error(what + " (--no-fallback)");
    fatal_ = true;
  } else {
    warn(what + "; compiling " + s.original + " unchanged");
  }
  return false;
}

/// Whose failure is it? The source as written, compiled by `plainArgs` as the user asked (its
/// object is the fallback's), decides. When that fails too (an error, -Werror), the user's
/// compiler has spoken, so its diagnostics and exit code are the answer, with no word of
/// TEMPI's: the rewrite is dropped and the result returned for the caller to report. When it
/// compiles, the failure is TEMPI's: fail() warns and the compile's output follows, or, with
/// --no-fallback, fatal_ is set.
RunResult Pipeline::compileAsWritten(SourceState &s, const std::vector<std::string> &plainArgs,
                                     int rewrittenExitCode, const std::string &rewrittenOutput) {
  RunResult plain;
  plain.exitCode = runWrapper(plainArgs, true, &plain.output);
  if (plain.exitCode != 0) {
    dropRewrite(s);
    return plain;
  }
  fail(s, "the rewritten " + s.original + " did not compile (exit code " +
              std::to_string(rewrittenExitCode) + ")", rewrittenOutput);
  if (!fatal_)
    std::cerr << plain.output;
  return plain;
}

bool Pipeline::originalCompiles(const SourceState &s) {
  if (cfg_.show)
    return true; // -show prints the commands of the build, not of this check
  // Dependency output is the real compile's to write.
  std::vector<std::string> args = argsForOne(s, s.original, cl_.depOutput);
  args.push_back("-fsyntax-only");
  std::string out;
  return runWrapper(args, true, &out) == 0;
}

int Pipeline::runStep(const std::vector<std::string> &argv, bool capture, std::string *output) {
  if (cfg_.verbose)
    std::cerr << "+ " << shellJoin(argv) << "\n";
  if (cfg_.show) {
    std::cout << shellJoin(argv) << "\n";
    return 0;
  }
  RunResult r = runProgram(argv, capture, temp_.empty() ? cfg_.tempRoot : temp_);
  if (!r.error.empty())
    r.output += r.error + "\n";
  if (output)
    *output = r.output;
  if (!r.error.empty() && !capture)
    error(r.error);
  return r.exitCode;
}

int Pipeline::runWrapper(const std::vector<std::string> &args, bool capture,
                         std::string *output, const std::string &stdinPath) {
  std::vector<std::string> argv = {cfg_.wrapper};
  for (const auto &a : args)
    if (a != "-show")
      argv.push_back(a);
  const std::string redirect = stdinPath.empty() ? "" : " < " + shellJoin({stdinPath});
  if (cfg_.verbose)
    std::cerr << "+ " << shellJoin(argv) << redirect << "\n";
  if (cfg_.show) {
    argv.insert(argv.begin() + 1, "-show");
    RunResult r = runProgram(argv, true, temp_.empty() ? cfg_.tempRoot : temp_);
    if (!redirect.empty() && !r.output.empty() && r.output.back() == '\n')
      r.output.insert(r.output.size() - 1, redirect);
    std::cout << r.output;
    return r.exitCode;
  }
  RunResult r = runProgram(argv, capture, temp_.empty() ? cfg_.tempRoot : temp_, stdinPath);
  if (!r.error.empty()) {
    error(r.error);
    return r.exitCode ? r.exitCode : 1;
  }
  if (output)
    *output = r.output;
  return r.exitCode;
}

std::vector<std::string> Pipeline::mpiFrontEndFlags() {
  if (!mpiFlags_) {
    WrapperShow show = askWrapper(cfg_, temp_.empty() ? cfg_.tempRoot : temp_);
    if (!show.compiler.empty())
      wrappedCompiler_ = show.compiler;
    mpiFlags_ = std::move(show.frontEndFlags);
  }
  return *mpiFlags_;
}

/// A source may include <omp.h> (with or without -fopenmp: gcc finds it either way), which the
/// wrapped compiler (gcc) keeps in its private include folder and Clang's resource folder lacks
/// unless libomp-dev is installed: the tool would fail to parse a file that compiles. That folder
/// is added last (-idirafter), so it only serves headers no other folder has; Clang's own
/// builtin headers still come first.
std::vector<std::string> Pipeline::compilerHeaderFlags() {
  if (compilerHeaderFlags_)
    return *compilerHeaderFlags_;
  compilerHeaderFlags_.emplace();
  mpiFrontEndFlags(); // sets wrappedCompiler_
  if (wrappedCompiler_.empty())
    return *compilerHeaderFlags_;
  const std::string compiler = findProgram(wrappedCompiler_);
  if (compiler.empty())
    return *compilerHeaderFlags_;
  RunResult r = runProgram({compiler, "-print-file-name=include"}, true,
                           temp_.empty() ? cfg_.tempRoot : temp_);
  const std::string dir = firstLine(r.output);
  struct stat st {};
  if (r.exitCode == 0 && !dir.empty() && dir[0] == '/' && stat((dir + "/omp.h").c_str(), &st) == 0)
    *compilerHeaderFlags_ = {"-idirafter", dir};
  return *compilerHeaderFlags_;
}

void Pipeline::runLintOn(const SourceState &s) {
  if (cfg_.lint.empty()) {
    if (!lintWarned_)
      warn("--lint: tempi-lint was not found next to " + cfg_.self +
           " (set TEMPI_LINT); not linting");
    lintWarned_ = true;
    return;
  }
  std::vector<std::string> argv = {cfg_.lint, s.original, "--"};
  for (const auto &f : cl_.frontEndFlags)
    argv.push_back(f);
  for (const auto &f : mpiFrontEndFlags())
    argv.push_back(f);
  for (const auto &f : compilerHeaderFlags())
    argv.push_back(f);
  // The lint only reports; its findings never stop the build.
  runStep(argv, false, nullptr);
}

std::vector<std::string> Pipeline::languageFlags(const SourceState &s) const {
  std::vector<std::string> flags;
  bool forcedLang = false;
  for (const auto &f : cl_.frontEndFlags) {
    flags.push_back(f);
    forcedLang = forcedLang || f.rfind("-x", 0) == 0;
  }
  // mpicxx compiles a .c file as C++; the tool (and the prescan, and -M) must see it the same way.
  if (cfg_.lang == Language::Cxx && !forcedLang && s.original.size() > 2 &&
      s.original.compare(s.original.size() - 2, 2, ".c") == 0)
    flags.insert(flags.end(), {"-x", "c++"});
  return flags;
}

/// The wrapped compiler's predefined macros under the command's flags (`gcc <flags> -dM -E -x c
/// /dev/null`), for tempi-rewrite's --compiler-macros: a source that tests one the tool's Clang
/// defines otherwise (`#if __GNUC__ >= 5`) may lay out its data otherwise in the two, and is then
/// left unchanged (tool/clang/MacroDivergence.h). Written once per language into the temporary
/// folder; an empty path (no check) when the compiler cannot be found or run.
const Pipeline::CompilerMacros &Pipeline::compilerMacros(const SourceState &s) {
  const bool cxx = compiledAsCxx(s);
  if (auto it = compilerMacros_.find(cxx); it != compilerMacros_.end())
    return it->second;
  CompilerMacros &m = compilerMacros_[cxx];
  mpiFrontEndFlags(); // sets wrappedCompiler_
  const std::string compiler = wrappedCompiler_.empty() ? "" : findProgram(wrappedCompiler_);
  if (compiler.empty() || temp_.empty())
    return m;
  std::vector<std::string> argv = {compiler};
  for (const auto &f : languageFlags(s))
    argv.push_back(f);
  for (const auto &f : mpiFrontEndFlags())
    argv.push_back(f);
  argv.insert(argv.end(), {"-dM", "-E", "-x", cxx ? "c++" : "c", "/dev/null"});
  RunResult r = runProgram(argv, true, temp_);
  if (r.exitCode != 0)
    return m;
  const std::string out = temp_ + (cxx ? "/compiler-macros-cxx.h" : "/compiler-macros-c.h");
  if (FILE *f = std::fopen(out.c_str(), "w")) {
    const bool ok = std::fwrite(r.output.data(), 1, r.output.size(), f) == r.output.size();
    if (std::fclose(f) == 0 && ok)
      m = {out, std::move(r.output)};
  }
  return m;
}

/// Whether the compiler compiles `s` as C++: as an -x option says, else as tempi-cxx (mpicxx
/// compiles a .c file as C++) or the file's suffix does.
bool Pipeline::compiledAsCxx(const SourceState &s) const {
  const bool forcedLang = std::any_of(cl_.frontEndFlags.begin(), cl_.frontEndFlags.end(),
                                      [](const std::string &f) { return f.rfind("-x", 0) == 0; });
  return forcedLang ? s.input.lang == SourceLang::Cxx
                    : cfg_.lang == Language::Cxx || s.input.lang == SourceLang::Cxx;
}

std::vector<std::string> Pipeline::rewriteArgv(const SourceState &s, bool withOutputs) {
  std::vector<std::string> argv = {cfg_.rewrite, s.original};
  if (withOutputs)
    argv.insert(argv.end(), {"-o", s.rewrittenPath, "--kernels-out=" + s.kernelSource});
  // The cache key (withOutputs false) holds the listing's content, not its temporary path.
  if (const CompilerMacros &m = compilerMacros(s); !m.path.empty())
    argv.push_back(withOutputs ? "--compiler-macros=" + m.path
                               : "--compiler-macros-listing=" + m.listing);
  if (isWholeProgram(cl_))
    argv.push_back("--whole-program");
  if (cfg_.explain && withOutputs) // remarks only: the output, and so the cache key, is the same
    argv.push_back("--explain");
  argv.push_back("--");
  for (const auto &f : languageFlags(s))
    argv.push_back(f);
  for (const auto &f : mpiFrontEndFlags())
    argv.push_back(f);
  for (const auto &f : compilerHeaderFlags())
    argv.push_back(f);
  return argv;
}

bool Pipeline::fromRewriteCache(SourceState &s, size_t ordinal) {
  std::string text;
  if (cfg_.show || cfg_.explain || cfg_.rewrite.empty() || cfg_.cacheDir.empty() ||
      !readFile(s.original, text))
    return false;
  CachedRewrite hit;
  if (!lookupRewrite(KernelCache(cfg_.cacheDir), rewriteKey(cfg_.rewrite, rewriteArgv(s, false), text),
                     hit))
    return false;
  std::string dir = temp_ + "/" + std::to_string(ordinal);
  if (mkdir(dir.c_str(), 0700) != 0)
    return false;
  s.rewrittenPath = dir + "/" + baseName(s.original);
  s.kernelSource = dir + "/" + stem(s.original) + ".tempi.cu";
  if (!writeFile(s.rewrittenPath, hit.rewritten) || !writeFile(s.kernelSource, hit.kernels))
    return false;
  if (cfg_.verbose)
    std::cerr << "+ # tempi-rewrite output for " << s.original << " from the cache in "
              << cfg_.cacheDir << "\n";
  s.rewritten = true;
  s.kernelCount = hit.kernels.empty() ? 0 : kernelCountOf(hit.kernels);
  return true;
}

const std::vector<std::string> *Pipeline::headersOf(SourceState &s) {
  if (!s.headers) {
    // The headers the source includes, as the compiler finds them with the same flags.
    std::vector<std::string> argv = {cfg_.wrapper, "-M"};
    for (const auto &f : languageFlags(s))
      argv.push_back(f);
    argv.push_back(s.original);
    RunResult deps = runProgram(argv, true, temp_);
    if (deps.exitCode != 0)
      return nullptr;
    s.headers = parseMakeDependencies(deps.output);
  }
  return &*s.headers;
}

void Pipeline::storeInRewriteCache(SourceState &s) {
  std::string text;
  CachedRewrite result;
  if (cfg_.show || cfg_.cacheDir.empty() || !readFile(s.original, text) ||
      !readFile(s.rewrittenPath, result.rewritten))
    return;
  readFile(s.kernelSource, result.kernels);
  if (const auto *headers = headersOf(s))
    storeRewrite(KernelCache(cfg_.cacheDir), rewriteKey(cfg_.rewrite, rewriteArgv(s, false), text),
                 *headers, result);
}

bool Pipeline::needsTool(const SourceState &s) {
  std::string text;
  if (cfg_.rewrite.empty() || !readFile(s.original, text) ||
      text.find("MPI_Type_") != std::string::npos)
    return true; // the tool runs (and reports what it finds)
  // Preprocess the source as the tool parses it (Prescan.h says why this decides): the user's
  // preprocessor flags, then the wrapper's include flags, as the tool gets them. The compiler the
  // wrapper's -show names runs directly (the wrapper script would cost more than the -E itself);
  // the wrapper runs it when -show named none.
  const auto mpi = mpiFrontEndFlags(); // also sets wrappedCompiler_
  std::string compiler = wrappedCompiler_.empty() ? "" : findProgram(wrappedCompiler_);
  std::string out = temp_ + "/prescan." + std::to_string(s.input.index) + ".i";
  std::vector<std::string> argv = {compiler.empty() ? cfg_.wrapper : compiler, "-E"};
  for (const auto &f : languageFlags(s))
    argv.push_back(f);
  if (!compiler.empty())
    argv.insert(argv.end(), mpi.begin(), mpi.end());
  argv.insert(argv.end(), {s.original, "-o", out});
  if (cfg_.verbose)
    std::cerr << "+ " << shellJoin(argv) << "\n";
  RunResult r = runProgram(argv, true, temp_);
  std::string preprocessed;
  bool read = r.exitCode == 0 && r.error.empty() && readFile(out, preprocessed);
  unlink(out.c_str());
  if (!read)
    return true; // let the tool (and then the compiler) report the problem
  std::vector<std::string> dirs;
  for (size_t i = 0; i < mpi.size(); ++i) {
    if ((mpi[i] == "-I" || mpi[i] == "-isystem") && i + 1 < mpi.size())
      dirs.push_back(mpi[++i]);
    else if (mpi[i].rfind("-isystem", 0) == 0)
      dirs.push_back(mpi[i].substr(8));
    else if (mpi[i].rfind("-I", 0) == 0)
      dirs.push_back(mpi[i].substr(2));
  }
  if (mentionsTypeConstructor(preprocessed, dirs))
    return true;
  if (cfg_.verbose)
    std::cerr << "+ # no MPI_Type_ in the preprocessed " << s.original
              << " outside the MPI's headers: nothing for tempi-rewrite to do\n";
  return false;
}

std::string Pipeline::depFileOf(const SourceState &s) const {
  if (cl_.depFile)
    return *cl_.depFile;
  if (cl_.output)
    return dirName(*cl_.output) + "/" + stem(*cl_.output) + ".d";
  return stem(s.original) + ".d";
}

std::string Pipeline::objectKey(const SourceState &s) {
  std::string text;
  if (!readFile(s.original, text))
    return "";
  // Everything that decides the object of a rewritten -c compile: this program, the tool run
  // (tool, its arguments, the working directory, the source text; the headers are checked
  // separately), the compile command, the wrapper and the compiler it runs, nvcc, ld and the
  // environment variables they read.
  std::string key = "tempi-object-v1\n" + identity("/proc/self/exe");
  std::vector<std::string> compile = argsForOne(s, "<rewritten>");
  std::string stdinPath;
  compile = rewrittenCompileArgs(s, compile, stdinPath);
  mpiFrontEndFlags(); // sets wrappedCompiler_
  key += "compile " + shellJoin(compile) + "\n" + identity(cfg_.wrapper) +
         identity(findProgram(wrappedCompiler_)) + identity(cfg_.nvcc) + "arch " + cfg_.cudaArch +
         "\nnvcc-flags " + shellJoin(cfg_.nvccFlags) + "\n";
  const char *ld = std::getenv("TEMPI_LD");
  key += identity(findProgram(ld && *ld ? ld : "ld"));
  for (const char *var : kCompileEnvironment)
    if (const char *v = std::getenv(var))
      key += std::string(var) + "=" + v + "\n";
  return key + rewriteKey(cfg_.rewrite, rewriteArgv(s, false), text);
}

bool Pipeline::fromObjectCache(SourceState &s) {
  if (cfg_.show || cfg_.explain || cfg_.rewrite.empty() || cfg_.cacheDir.empty())
    return false;
  std::string key = objectKey(s);
  std::vector<std::string> parts;
  if (key.empty() || !lookupWithHeaders(KernelCache(cfg_.cacheDir), key, parts, 3))
    return false;
  // Written under a temporary name and renamed, so a reader never sees half an object.
  const std::string object = objectOf(s);
  const std::string tmp = object + ".tempi-cached." + std::to_string(getpid());
  if (!writeFile(tmp, parts[0]) || std::rename(tmp.c_str(), object.c_str()) != 0) {
    unlink(tmp.c_str());
    return false;
  }
  if (cl_.deps && !writeFile(depFileOf(s), parts[1]))
    return false;
  if (cfg_.verbose)
    std::cerr << "+ # " << object << " for " << s.original << " from the object cache in "
              << cfg_.cacheDir << "\n";
  std::cerr << parts[2];
  s.objectCached = true;
  s.rewritten = true;
  s.kernelCount = 0;
  return true;
}

void Pipeline::storeInObjectCache(SourceState &s) {
  if (cfg_.show || cfg_.cacheDir.empty())
    return;
  const auto *headers = headersOf(s);
  std::string object, deps;
  if (!headers || !readFile(objectOf(s), object) || (cl_.deps && !readFile(depFileOf(s), deps)))
    return;
  std::string key = objectKey(s);
  if (key.empty())
    return;
  // The rewritten source also includes TEMPI's headers: they are checked like the user's.
  std::vector<std::string> checked = *headers;
  checked.push_back(cfg_.includeDir + "/tempi/tempi.h");
  checked.push_back(cfg_.includeDir + "/tempi/kernels.cuh");
  storeWithHeaders(KernelCache(cfg_.cacheDir), key, checked, {object, deps, s.compilerOutput});
}

void Pipeline::analyze(SourceState &s, size_t ordinal) {
  if (cfg_.rewrite.empty()) {
    fail(s, "tempi-rewrite was not found next to " + cfg_.self + " (set TEMPI_REWRITE)", "");
    return;
  }
  std::string dir = temp_ + "/" + std::to_string(ordinal);
  if (mkdir(dir.c_str(), 0700) != 0) {
    fail(s, "cannot create " + dir + ": " + std::strerror(errno), "");
    return;
  }
  s.rewrittenPath = dir + "/" + baseName(s.original);
  s.kernelSource = dir + "/" + stem(s.original) + ".tempi.cu";
  std::vector<std::string> argv = rewriteArgv(s, true);

  if (cfg_.verbose || cfg_.show)
    (cfg_.show ? std::cout : std::cerr) << (cfg_.show ? "" : "+ ") << shellJoin(argv) << "\n";
  RunResult r = runProgram(argv, true, temp_);
  std::string rewritten, original;
  if (r.exitCode != 0 || !r.error.empty() || !readFile(s.rewrittenPath, rewritten)) {
    std::string why = !r.error.empty() ? r.error
                      : r.exitCode != 0 ? "exit code " + std::to_string(r.exitCode)
                                        : "no output file";
    // A source the user's compiler rejects too is the user's to fix: it is compiled as written,
    // and the compiler's diagnostics and exit code are the answer, with no word of TEMPI's.
    if (r.exitCode != 0 && r.error.empty() && !originalCompiles(s)) {
      dropRewrite(s);
      return;
    }
    std::string line = firstErrorLine(r.output);
    fail(s, "tempi-rewrite failed on " + s.original + " (" + why + (line.empty() ? "" : ": " + line) + ")",
         r.output);
    return;
  }
  if (!r.output.empty())
    std::cerr << r.output;
  if (!readFile(s.original, original) || sameAsOriginal(original, rewritten))
    return; // nothing to rewrite: compiled exactly as the wrapper would
  s.rewritten = true;
  storeInRewriteCache(s);
  std::string kernels;
  if (!readFile(s.kernelSource, kernels) || kernels.empty())
    s.kernelCount = 0;
  else
    s.kernelCount = kernelCountOf(kernels); // -1 (unknown) is compiled too
}

void Pipeline::startKernels(SourceState &s) {
  if (cfg_.nvcc.empty()) {
    fail(s, "nvcc was not found (set TEMPI_NVCC) to compile the kernels generated for " + s.original, "");
    return;
  }
  std::vector<std::string> nvcc = {cfg_.nvcc, "-arch=" + cfg_.cudaArch, "-O3", "-Xcompiler",
                                   "-fPIC", "-I" + cfg_.includeDir};
  const auto mpi = mpiFrontEndFlags();
  for (size_t i = 0; i < mpi.size(); ++i) {
    if (mpi[i] == "-I" || mpi[i] == "-isystem") {
      nvcc.push_back(mpi[i]);
      nvcc.push_back(mpi[++i]);
    } else if (mpi[i].rfind("-I", 0) == 0 || mpi[i].rfind("-isystem", 0) == 0) {
      nvcc.push_back(mpi[i]);
    }
  }
  for (const auto &f : cfg_.nvccFlags)
    nvcc.push_back(f);

  std::string source, key, header;
  readFile(s.kernelSource, source);
  key = "tempi-kernels-v1\n" + shellJoin(nvcc) + "\n";
  for (const char *h : {"/tempi/kernels.cuh", "/tempi/tempi.h"}) {
    header.clear();
    readFile(cfg_.includeDir + h, header);
    key += std::string(h) + " " + std::to_string(header.size()) + "\n" + header;
  }
  key += "source\n" + source;

  std::string object = dirName(s.kernelSource) + "/" + stem(s.original) + ".tempi.o";
  KernelCache cache(cfg_.cacheDir);
  if (!cfg_.show && cache.lookup(key, object)) {
    if (cfg_.verbose)
      std::cerr << "+ # kernels for " << s.original << " from the cache in " << cfg_.cacheDir << "\n";
    s.kernelObject = object;
    return;
  }
  nvcc.insert(nvcc.end(), {"-c", s.kernelSource, "-o", object});
  if (cfg_.show) {
    runStep(nvcc, true, nullptr);
    s.kernelObject = object;
    return;
  }
  if (cfg_.verbose)
    std::cerr << "+ " << shellJoin(nvcc) << " &\n";
  s.nvccRun = startProgram(nvcc, temp_ + "/nvcc." + std::to_string(s.input.index) + ".out");
  s.nvccPending = true;
  s.nvccKey = key;
  s.nvccObject = object;
}

void Pipeline::finishKernels(SourceState &s) {
  if (!s.nvccPending)
    return;
  s.nvccPending = false;
  RunResult r = finishProgram(s.nvccRun);
  std::string out = r.output + (r.error.empty() ? "" : r.error + "\n");
  if (r.exitCode != 0 || !r.error.empty() || !fileExists(s.nvccObject)) {
    std::string line = firstErrorLine(out);
    fail(s, "nvcc failed on the kernels generated for " + s.original + " (exit code " +
                std::to_string(r.exitCode) + (line.empty() ? "" : ": " + line) + ")",
         out);
    return;
  }
  if (!out.empty())
    std::cerr << out;
  s.kernelObject = s.nvccObject;
  KernelCache(cfg_.cacheDir).store(s.nvccKey, s.nvccObject);
}

void Pipeline::fixDependencies(const SourceState &s) const {
  if (!cl_.deps || cfg_.show)
    return;
  const std::string path = depFileOf(s);
  std::string text, escaped;
  if (!readFile(path, text))
    return;
  for (char c : s.original) {
    if (c == ' ' || c == '#')
      escaped += '\\';
    else if (c == '$')
      escaped += '$';
    escaped += c;
  }
  bool named = false;
  for (size_t at; (at = text.find(s.rewrittenPath)) != std::string::npos; named = true)
    text.replace(at, s.rewrittenPath.size(), escaped);
  if (!named) {
    // Compiled from standard input (rewrittenCompileArgs): the compiler named no main file, the
    // original goes first after the target's colon, where it would have named it.
    size_t colon = text.find(": ");
    if (colon == std::string::npos)
      colon = text.find(":\n");
    if (colon != std::string::npos)
      text.insert(colon + 1, " " + escaped);
  }
  writeFile(path, text);
}

const LinkInputs &Pipeline::linkInputs() const {
  if (!linkInputs_)
    linkInputs_ = scanLinkInputs(cl_);
  return *linkInputs_;
}

int Pipeline::passThrough() {
  std::vector<std::string> argv = {cfg_.wrapper};
  argv.insert(argv.end(), originalArgs_.begin(), originalArgs_.end());
  if (cfg_.verbose)
    std::cerr << "+ " << shellJoin(argv) << "\n";
  removeTemps();
  temp_.clear();
  std::string why = execProgram(argv);
  error(why);
  return 1;
}

int Pipeline::linkOnly() {
  const LinkInputs &inputs = linkInputs();
  if (!inputs.useTempi && !linksRuntimeAnyway(cfg_, cl_))
    return passThrough();
  std::vector<std::string> args = cl_.args;
  addTempiLinkFlags(cfg_, args, inputs.withCuda);
  return runWrapper(args, false, nullptr);
}

std::vector<std::string> Pipeline::argsForOne(const SourceState &s, const std::string &path,
                                              const std::vector<size_t> &leaveOut) const {
  std::vector<std::string> args;
  for (size_t i = 0; i < cl_.args.size(); ++i) {
    bool otherSource = std::any_of(cl_.sources.begin(), cl_.sources.end(), [&](const Input &in) {
      return in.index == i && in.index != s.input.index;
    });
    if (!otherSource && std::find(leaveOut.begin(), leaveOut.end(), i) == leaveOut.end())
      args.push_back(i == s.input.index ? path : cl_.args[i]);
  }
  return args;
}

/// Quoted includes are searched first in the including file's folder, and a header found there
/// is named, in __FILE__ and diagnostics, by that folder as the source was spelled plus the
/// header's name: "src/where.h" for src/logf.c, "where.h" for logf.c (gcc; clang says
/// "./where.h"). The rewritten copy lives in the temporary folder, so:
///  - a source spelled with a folder gets `-iquote <folder>`, first, since the compiler searches
///    the source's folder before the user's own -iquote folders;
///  - a source spelled without one is compiled from standard input (`-x LANG -`), whose folder is
///    the working directory, named as the source's own would be by gcc and clang alike
///    (`-iquote .` would make it "./where.h" under gcc). The `#line` directives of the tool name
///    the source as spelled, so __FILE__ in the source itself is right either way.
/// Then -I<tempi include> for tempi/tempi.h.
std::vector<std::string> Pipeline::rewrittenCompileArgs(const SourceState &s,
                                                        std::vector<std::string> userArgs,
                                                        std::string &stdinPath) const {
  std::vector<std::string> args;
  stdinPath.clear();
  if (s.original.find('/') != std::string::npos) {
    args = {"-iquote", dirName(s.original)};
    args.insert(args.end(), userArgs.begin(), userArgs.end());
  } else {
    const bool cxx = compiledAsCxx(s);
    bool hasOutput = false;
    for (size_t i = 0; i < userArgs.size(); ++i) {
      if (userArgs[i] == s.rewrittenPath) {
        args.insert(args.end(), {"-x", cxx ? "c++" : "c", "-"});
        stdinPath = s.rewrittenPath;
        continue;
      }
      hasOutput = hasOutput || userArgs[i] == "-o" || (cl_.output && userArgs[i] == "-o" + *cl_.output);
      args.push_back(userArgs[i]);
    }
    if (!hasOutput) // the compiler would name the object after "-"
      args.insert(args.end(), {"-o", objectOf(s)});
  }
  args.push_back("-I" + cfg_.includeDir);
  return args;
}

void Pipeline::startSpeculation(SourceState &s, size_t ordinal) {
  const std::string object = objectOf(s);
  s.specObject = object + ".tempi-spec." + std::to_string(getpid());
  std::vector<std::string> argv = {cfg_.wrapper};
  for (size_t i = 0; i < cl_.args.size(); ++i) {
    bool otherSource = std::any_of(cl_.sources.begin(), cl_.sources.end(), [&](const Input &in) {
      return in.index == i && in.index != s.input.index;
    });
    bool output = (cl_.outputValue && (i == *cl_.outputValue || i + 1 == *cl_.outputValue)) ||
                  (cl_.output && cl_.args[i] == "-o" + *cl_.output);
    if (!otherSource && !output && cl_.args[i] != "-show")
      argv.push_back(cl_.args[i]);
  }
  argv.insert(argv.end(), {"-o", s.specObject});
  // The dependency file and its target as the compiler would name them for the real object.
  if (cl_.deps && !cl_.depFile)
    argv.insert(argv.end(), {"-MF", dirName(object) + "/" + stem(object) + ".d"});
  if (cl_.deps && !cl_.depTargetGiven)
    argv.insert(argv.end(), {"-MQ", object});
  if (cfg_.verbose)
    std::cerr << "+ " << shellJoin(argv) << " &\n";
  s.spec = startProgram(argv, temp_ + "/speculative." + std::to_string(ordinal) + ".out");
}

void Pipeline::abandonSpeculation(SourceState &s) {
  if (s.specObject.empty())
    return;
  abandonProgram(s.spec);
  unlink(s.specObject.c_str());
  s.specObject.clear();
}

int Pipeline::compileOnly() {
  int status = 0;
  auto removeObject = [&](const SourceState &s, const std::string &object) {
    unlink(object.c_str());
    if (cl_.deps)
      unlink(depFileOf(s).c_str());
  };
  for (auto &s : sources_) {
    if (s.objectCached)
      continue; // written by fromObjectCache
    std::string object = objectOf(s);
    if (!s.specObject.empty() && !s.rewritten) {
      // The tool changed nothing: the compile that ran alongside it is the result.
      RunResult r = finishProgram(s.spec);
      std::cerr << r.output;
      if (!r.error.empty())
        error(r.error);
      if (r.exitCode == 0 && std::rename(s.specObject.c_str(), object.c_str()) != 0) {
        error("cannot rename " + s.specObject + " to " + object + ": " + std::strerror(errno));
        r.exitCode = 1;
      }
      unlink(s.specObject.c_str());
      s.specObject.clear();
      if (r.exitCode != 0 && status == 0)
        status = r.exitCode ? r.exitCode : 1;
      continue;
    }
    abandonSpeculation(s);
    if (s.rewritten && s.kernelCount != 0)
      startKernels(s); // runs while the rewritten code compiles
    if (fatal_)
      return 1;
    std::vector<std::string> args = argsForOne(s, s.rewritten ? s.rewrittenPath : s.original);
    if (s.rewritten) {
      std::string stdinPath;
      args = rewrittenCompileArgs(s, args, stdinPath);
      std::string out;
      int rc = runWrapper(args, !cfg_.show, &out, stdinPath);
      if (rc != 0) {
        const RunResult plain = compileAsWritten(s, argsForOne(s, s.original), rc, out);
        if (plain.exitCode != 0) {
          std::cerr << plain.output;
          if (status == 0)
            status = plain.exitCode;
        } else if (fatal_) {
          removeObject(s, object); // --no-fallback writes no object
          return 1;
        }
        continue;
      } else {
        std::cerr << out;
        s.compilerOutput = out;
        fixDependencies(s);
        finishKernels(s);
        if (fatal_) { // nvcc failed: no object at all, as when it ran before the compile
          removeObject(s, object);
          return 1;
        }
        if (s.rewritten && !s.kernelObject.empty()) {
          // One object per source, as the user asked: the rewritten code plus its kernels.
          const char *ld = std::getenv("TEMPI_LD");
          std::string partial = object + ".tempi-partial";
          std::string linkOut;
          int lrc = runStep({ld && *ld ? ld : "ld", "-r", "-o", partial, object, s.kernelObject},
                            true, &linkOut);
          if (lrc != 0 || (!cfg_.show && std::rename(partial.c_str(), object.c_str()) != 0)) {
            unlink(partial.c_str());
            fail(s, "the partial link of " + object + " with its kernels failed (exit code " +
                        std::to_string(lrc) + ": " + firstLine(linkOut) + ")",
                 linkOut);
            if (fatal_)
              return 1;
          }
        }
      }
      if (s.rewritten) {
        storeInObjectCache(s);
        continue;
      }
      // Fallback: the same command on the original source.
      args = argsForOne(s, s.original);
    }
    int rc = runWrapper(args, false, nullptr);
    if (rc != 0 && status == 0)
      status = rc;
  }
  return status;
}

int Pipeline::compileAndLink() {
  // Compile flags: everything but inputs, -o and link-only options.
  std::set<size_t> drop(cl_.linkOnly.begin(), cl_.linkOnly.end());
  for (const auto &in : cl_.sources)
    drop.insert(in.index);
  for (size_t i : cl_.otherInputs)
    drop.insert(i);
  if (cl_.outputValue) {
    drop.insert(*cl_.outputValue);
    drop.insert(*cl_.outputValue - 1);
  }
  std::vector<std::string> base;
  for (size_t i = 0; i < cl_.args.size(); ++i)
    if (!drop.count(i) && !(cl_.output && cl_.args[i] == "-o" + *cl_.output))
      base.push_back(cl_.args[i]);

  std::vector<std::vector<std::string>> replacement(cl_.args.size());
  std::vector<bool> replaced(cl_.args.size(), false);
  bool cuda = false;
  for (size_t n = 0; n < sources_.size(); ++n) {
    SourceState &s = sources_[n];
    if (!s.rewritten)
      continue;
    std::string object = dirName(s.rewrittenPath) + "/" + stem(s.original) + ".o";
    std::vector<std::string> args = base;
    args.insert(args.end(), {"-c", s.rewrittenPath, "-o", object});
    std::string stdinPath;
    args = rewrittenCompileArgs(s, args, stdinPath);
    std::string out;
    int rc = runWrapper(args, !cfg_.show, &out, stdinPath);
    if (rc != 0) {
      // The source as written decides whose failure it is. When it compiles, its object
      // replaces the source.
      std::vector<std::string> plain = base;
      const std::string plainObject = dirName(s.rewrittenPath) + "/" + stem(s.original) + ".plain.o";
      plain.insert(plain.end(), {"-c", s.original, "-o", plainObject});
      if (compileAsWritten(s, plain, rc, out).exitCode != 0) {
        // The user's command fails as written: run it as written, so every source's
        // diagnostics are printed, as the MPI wrapper prints them.
        return passThrough();
      }
      if (fatal_)
        return 1;
      replaced[s.input.index] = true;
      replacement[s.input.index] = {plainObject};
      continue;
    }
    std::cerr << out;
    replaced[s.input.index] = true;
    replacement[s.input.index] = {object};
    if (!s.kernelObject.empty()) {
      replacement[s.input.index].push_back(s.kernelObject);
      cuda = true;
    }
  }
  std::vector<std::string> link;
  for (size_t i = 0; i < cl_.args.size(); ++i) {
    if (replaced[i])
      link.insert(link.end(), replacement[i].begin(), replacement[i].end());
    else
      link.push_back(cl_.args[i]);
  }
  const LinkInputs &inputs = linkInputs();
  bool anyReplaced = std::any_of(replaced.begin(), replaced.end(), [](bool b) { return b; });
  if (!anyReplaced && !inputs.useTempi && !linksRuntimeAnyway(cfg_, cl_))
    return passThrough();
  addTempiLinkFlags(cfg_, link, cuda || inputs.withCuda);
  return runWrapper(link, false, nullptr);
}

int runDriver(const Config &cfg, const std::vector<std::string> &originalArgs) {
  Pipeline p(cfg, originalArgs);
  return p.run();
}

} // namespace tempi::driver
