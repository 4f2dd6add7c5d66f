/// \file
/// tempi-lint: reports datatypes that are non-canonical, built twice, unresolvable at compile
/// time, invalid or slow on a GPU, and device buffers handed to an MPI that cannot read them.
///
///   tempi-lint FILE... -- <compiler flags>
///   tempi-lint -p BUILD_DIR [FILE...]       (compile_commands.json; no FILE: every entry)
///
/// Text output is Clang's diagnostics on stderr (ranges, fix-its, notes; -Xclang -verify=tempi
/// works). --format=sarif writes a SARIF 2.1.0 log to stdout (or -o FILE) instead;
/// --export-fixes=FILE writes the fix-its as clang-apply-replacements YAML. Exit codes (a tested
/// contract): 0 it ran, findings or not; 1 with --error and at least one finding; 2 it could not
/// run (bad flags, a missing file, a file that does not compile, an output it cannot write).
#include "tool/clang/OutputFile.h"
#include "tool/lint/LintAction.h"

#include "tool/clang/RewriteAction.h"

#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang::tooling;
using namespace llvm;

namespace {

enum ExitCode { kRan = 0, kFound = 1, kCannotRun = 2 };

cl::OptionCategory category("tempi-lint options");
cl::opt<std::string> outputFormat("format", cl::desc("Output format: text (Clang diagnostics) or sarif"),
                            cl::value_desc("text|sarif"), cl::init("text"), cl::cat(category));
cl::opt<std::string> outputFile("o", cl::desc("Write the SARIF log to <file> instead of stdout"),
                                cl::value_desc("file"), cl::cat(category));
cl::opt<std::string> exportFixes("export-fixes",
                                 cl::desc("Write the fix-its to <file> as YAML replacements "
                                          "(clang-apply-replacements)"),
                                 cl::value_desc("file"), cl::cat(category));
cl::opt<bool> errorOnFinding("error", cl::desc("Exit 1 when anything was found"),
                             cl::cat(category));
cl::opt<bool> builtWithTempi("tempi",
                             cl::desc("The program is built with TEMPI (tempi-cc): device buffers "
                                      "reach TEMPI, not the MPI"),
                             cl::cat(category));
cl::opt<bool> mpiCudaAware("mpi-cuda-aware", cl::desc("The MPI accepts device buffers"),
                           cl::cat(category));
cl::opt<bool> wholeProgram(
    "whole-program",
    cl::desc("The input is the whole program (as tempi-cc assumes when one command compiles and "
             "links one source): a global MPI_Datatype it defines is proven like a static one"),
    cl::cat(category));
cl::list<std::string> disabledChecks(
    "disable", cl::CommaSeparated, cl::value_desc("check,..."),
    cl::desc("Do not report these checks (names as --list-checks prints them, with or without "
             "the tempi- prefix)"),
    cl::cat(category));
cl::opt<bool> listChecks("list-checks", cl::desc("Print every check's name and title, then exit"),
                         cl::cat(category));

bool writeFile(const std::string &path, const std::function<void(raw_ostream &)> &write) {
  return tempi::frontend::writeOutputFile("tempi-lint", path, write);
}

} // namespace

int main(int argc, const char **argv) {
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "tempi-lint " TEMPI_VERSION " (Clang " << LLVM_VERSION_STRING << ")\n";
  });
  for (int i = 1; i < argc; ++i)
    if (StringRef(argv[i]) == "--list-checks") {
      for (const tempi::lint::CheckInfo &c : tempi::lint::allChecks())
        outs() << "tempi-" << c.name << "  " << c.title << "\n";
      return kRan;
    }
  // Before the parser: it takes `--` and the flags after it off argv.
  const bool fixedDatabase = tempi::frontend::hasFlagSeparator(argc, argv);
  auto parser = CommonOptionsParser::create(
      argc, argv, category, cl::ZeroOrMore,
      "Reports MPI datatypes that are non-canonical, built twice, unresolvable at compile time,\n"
      "invalid or slow on a GPU, and device buffers passed to an MPI that is not CUDA-aware.\n"
      "Exit codes: 0 ran, 1 --error and something was found, 2 could not run.\n");
  if (!parser) {
    errs() << "tempi-lint: error: " << toString(parser.takeError()) << "\n";
    return kCannotRun;
  }
  if (outputFormat != "text" && outputFormat != "sarif") {
    errs() << "tempi-lint: error: unknown --format '" << outputFormat << "' (text or sarif)\n";
    return kCannotRun;
  }
  if (!outputFile.empty() && outputFormat != "sarif") {
    errs() << "tempi-lint: error: -o is for --format=sarif (text goes to stderr)\n";
    return kCannotRun;
  }
  // With -p and no FILE, CommonOptionsParser loads no database: load it here and lint every entry.
  std::unique_ptr<CompilationDatabase> ownDb;
  std::vector<std::string> sources = parser->getSourcePathList();
  if (sources.empty()) {
    std::string buildPath;
    for (int i = 1; i < argc; ++i) {
      StringRef a(argv[i]);
      if (a == "--")
        break;
      if ((a == "-p" || a == "--p") && i + 1 < argc)
        buildPath = argv[i + 1];
      else if (a.consume_front("-p=") || a.consume_front("--p="))
        buildPath = a.str();
    }
    std::string err;
    if (!buildPath.empty())
      ownDb = CompilationDatabase::autoDetectFromDirectory(buildPath, err);
    if (!buildPath.empty() && !ownDb) {
      errs() << "tempi-lint: error: " << err << "\n";
      return kCannotRun;
    }
    if (ownDb)
      sources = ownDb->getAllFiles();
  }
  if (sources.empty()) {
    errs() << "tempi-lint: error: no input files (give FILE... -- <flags>, or -p BUILD_DIR)\n";
    return kCannotRun;
  }
  for (const std::string &s : sources)
    if (!sys::fs::exists(s)) {
      errs() << "tempi-lint: error: no such file: '" << s << "'\n";
      return kCannotRun;
    }

  ClangTool tool(ownDb ? *ownDb : parser->getCompilations(), sources);
  tool.appendArgumentsAdjuster(tempi::frontend::tempiArgumentsAdjuster());
  if (!ownDb && fixedDatabase)
    tool.appendArgumentsAdjuster(tempi::frontend::spelledSourceNames(sources));
  std::map<std::string, tempi::lint::LintResult> results;
  tempi::lint::LintRunOptions opts;
  opts.checks.builtWithTempi = builtWithTempi;
  opts.checks.mpiCudaAware = mpiCudaAware;
  opts.checks.wholeProgram = wholeProgram;
  for (std::string name : disabledChecks) {
    if (StringRef(name).starts_with("tempi-")) name = name.substr(6);
    if (!tempi::lint::findCheck(name)) {
      errs() << "tempi-lint: error: unknown check '" << name << "' in --disable (see --list-checks)\n";
      return kCannotRun;
    }
    opts.checks.disabled.push_back(name);
  }
  opts.emitDiagnostics = outputFormat == "text";
  int rc = tool.run(tempi::lint::newLintActionFactory(opts, results).get());

  bool allRan = rc == 0;
  std::vector<tempi::lint::ReportedFinding> findings;
  for (const std::string &s : sources) {
    const tempi::lint::LintResult *r = nullptr;
    for (auto &[k, v] : results)
      if (k == s || sys::fs::equivalent(k, s))
        r = &v;
    if (!r || !r->ran) {
      allRan = false;
      continue;
    }
    findings.insert(findings.end(), r->findings.begin(), r->findings.end());
  }
  if (outputFormat == "sarif") {
    auto write = [&](raw_ostream &os) { tempi::lint::writeSarif(os, findings, allRan); };
    if (outputFile.empty())
      write(outs());
    else if (!writeFile(outputFile, write))
      return kCannotRun;
  }
  if (!exportFixes.empty() &&
      !writeFile(exportFixes, [&](raw_ostream &os) {
        tempi::lint::writeFixesYaml(os, sources.front(), findings);
      }))
    return kCannotRun;
  if (!allRan) {
    errs() << "tempi-lint: error: not linted: a source did not compile\n";
    return kCannotRun;
  }
  return errorOnFinding && !findings.empty() ? kFound : kRan;
}
