/// \file
/// tempi-rewrite: rewrites the MPI communication calls of C, C++ and CUDA sources whose datatypes
/// are proven at compile time into calls of the TEMPI runtime that carry a static pack plan.
///
///   tempi-rewrite FILE... -- <compiler flags>     (or -p BUILD_DIR: compile_commands.json)
///
/// Writes the rewritten source to stdout, or to -o FILE (one input), or back into each input with
/// -i. --explain / -Rtempi print a remark for every datatype argument at its location, saying why
/// it was or was not rewritten. --whole-program says the one input is the whole program (globals
/// of external linkage are then proven like static ones). --kernels-out=FILE.cu writes the specialized kernels of the
/// shapes the plans use. Exit codes (tested): 0 done (rewritten or not), 1 a source did not
/// compile or could not be rewritten (nothing is written), 2 bad command line or an output file
/// could not be written.
#include "tool/clang/OutputFile.h"
#include "tool/clang/RewriteAction.h"
#include "tool/clang/MacroDivergence.h"
#include "tool/codegen/KernelGen.h"

#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace clang::tooling;
using namespace llvm;

namespace {

enum ExitCode { kOk = 0, kCompileError = 1, kUsage = 2 };

cl::OptionCategory category("tempi-rewrite options");
cl::opt<std::string> outputFile("o", cl::desc("Write the rewritten source to <file> (one input)"),
                                cl::value_desc("file"), cl::cat(category));
cl::opt<bool> inPlace("i", cl::desc("Rewrite the input files in place"), cl::cat(category));
cl::opt<bool> explain("explain",
                      cl::desc("Remark on every datatype argument: rewritten, or why not"),
                      cl::cat(category));
cl::opt<bool> rtempi("Rtempi", cl::desc("Same as --explain (Clang's remark flag style)"),
                     cl::cat(category));
cl::opt<bool> wholeProgram(
    "whole-program",
    cl::desc("The input is the whole program (no other file of it is linked): a global "
             "MPI_Datatype it defines is proven like a static one"),
    cl::cat(category));
cl::opt<std::string> kernelsOut("kernels-out",
                                cl::desc("Write the specialized kernels of the plans to <file.cu>"),
                                cl::value_desc("file.cu"), cl::cat(category));

cl::opt<std::string> compilerMacros(
    "compiler-macros",
    cl::desc("The compiler's predefined macros (`cc <flags> -dM -E -x c /dev/null`): a file that "
             "depends on one the tool's Clang defines otherwise is left unchanged"),
    cl::value_desc("file"), cl::cat(category));

bool writeFile(const std::string &path, const std::string &text) {
  return tempi::frontend::writeOutputFile("tempi-rewrite", path,
                                          [&](raw_ostream &os) { os << text; });
}

} // namespace

int main(int argc, const char **argv) {
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "tempi-rewrite " TEMPI_VERSION " (Clang " << LLVM_VERSION_STRING << ")\n";
  });
  // -Rtempi after `--` is a compiler-style flag: take it as --explain.
  bool remarkFlag = false;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "-Rtempi") == 0)
      remarkFlag = true;
  // Before the parser: it takes `--` and the flags after it off argv.
  const bool fixedDatabase = tempi::frontend::hasFlagSeparator(argc, argv);
  auto parser = CommonOptionsParser::create(
      argc, argv, category, cl::OneOrMore,
      "Rewrites MPI calls whose datatypes are known at compile time into TEMPI runtime calls\n"
      "with static pack plans. Exit codes: 0 done, 1 a source does not compile, 2 bad usage.\n");
  if (!parser) {
    errs() << "tempi-rewrite: error: " << toString(parser.takeError()) << "\n";
    return kUsage;
  }
  const std::vector<std::string> &sources = parser->getSourcePathList();
  if (!outputFile.empty() && sources.size() != 1) {
    errs() << "tempi-rewrite: error: -o needs exactly one input file\n";
    return kUsage;
  }
  if (!outputFile.empty() && inPlace) {
    errs() << "tempi-rewrite: error: -o and -i exclude each other\n";
    return kUsage;
  }
  for (const std::string &s : sources)
    if (!sys::fs::exists(s)) {
      errs() << "tempi-rewrite: error: no such file: '" << s << "'\n";
      return kUsage;
    }

  ClangTool tool(parser->getCompilations(), sources);
  tool.appendArgumentsAdjuster(clang::tooling::getClangStripOutputAdjuster());
  if (fixedDatabase)
    tool.appendArgumentsAdjuster(tempi::frontend::spelledSourceNames(sources));
  tool.appendArgumentsAdjuster(tempi::frontend::tempiArgumentsAdjuster());
  std::map<std::string, tempi::frontend::RewriteResult> results;
  tempi::frontend::RewriteOptions opts;
  opts.explain = explain || rtempi || remarkFlag;
  opts.spelledSources = sources;
  opts.wholeProgram = wholeProgram;
  if (!compilerMacros.empty()) {
    auto text = MemoryBuffer::getFile(compilerMacros);
    if (!text) {
      errs() << "tempi-rewrite: error: cannot read --compiler-macros file '" << compilerMacros
             << "': " << text.getError().message() << "\n";
      return kUsage;
    }
    opts.compilerMacros = tempi::frontend::parseMacroDefinitions((*text)->getBuffer().str());
  }
  int rc = tool.run(tempi::frontend::newRewriteActionFactory(opts, results).get());

  // Results are keyed by absolute path.
  auto resultFor = [&](const std::string &s) -> const tempi::frontend::RewriteResult * {
    SmallString<256> abs(s);
    sys::fs::make_absolute(abs);
    for (auto &[k, v] : results)
      if (k == abs.str() || sys::fs::equivalent(k, abs))
        return &v;
    return nullptr;
  };
  bool allOk = rc == 0;
  for (const std::string &s : sources) {
    const tempi::frontend::RewriteResult *r = resultFor(s);
    if (!r || !r->ok)
      allOk = false;
  }
  if (!allOk) {
    errs() << "tempi-rewrite: error: not rewritten: a source did not compile\n";
    return kCompileError;
  }
  std::vector<tempi::StridedBlock> shapes;
  std::string out;
  for (const std::string &s : sources) {
    const tempi::frontend::RewriteResult *r = resultFor(s);
    if (!r)
      return kCompileError;
    shapes.insert(shapes.end(), r->shapes.begin(), r->shapes.end());
    if (inPlace) {
      if (r->rewrittenCalls && !writeFile(s, r->text))
        return kUsage;
    } else {
      out += r->text;
    }
  }
  if (!kernelsOut.empty() &&
      !writeFile(kernelsOut, tempi::codegen::generateKernelSource(shapes, sources.front())))
    return kUsage;
  if (inPlace)
    return kOk;
  if (!outputFile.empty())
    return writeFile(outputFile, out) ? kOk : kUsage;
  outs() << out;
  return kOk;
}
