/// \file
/// fuzz_frontend: a coverage-guided libFuzzer target for the Clang front end (tool/clang).
///
/// The input bytes are a C source file (at most 16 KiB; longer inputs are rejected, not run). It
/// is rewritten in-process through the code path of tempi-rewrite (ClangTool with the driver's
/// argument adjusters and newRewriteActionFactory, --explain on), as mutate-rewrite.py runs
/// `tempi-rewrite --explain IN -o OUT -- -I<mock mpi.h>`, plus -fno-caret-diagnostics (quieter
/// logs) and one more include directory, the rewrite lit tests' Inputs/ (mpi-more.h,
/// mpi-large-count.h, halo-helper.h), so that mutants of the tests that use them parse. Every file but the system's and the resource directory's
/// headers is in memory: the input under /tempi-fuzz/input.c, the mock mpi.h, the Inputs/
/// headers and tempi/tempi.h, read once at start-up from the source tree (TEMPI_SOURCE_DIR).
/// C only: C++ is not fuzzed here.
///
/// Checks (a failure aborts: libFuzzer saves the input as a finding):
///   - no crash, sanitizer report or assertion (ASan + UBSan, -fno-sanitize-recover=all);
///   - unproven: every `tempi_X(` call of the output is accounted for by a "rewritten: MPI_Y ->
///     tempi_X" remark or was in the input already. The rule is mutate-rewrite.py's: calls are
///     counted outside comments, string literals and preprocessor lines, tempi_gen_* and
///     tempi_static* are not calls of the runtime, and the multiset output - input - remarks
///     must be empty. The remarks are read from the diagnostics themselves (their message), not
///     scraped from printed text, so a source line echoed under a diagnostic cannot fake one;
///   - no-compile: when the rewrite changed the text, and the input type-checks
///     (-fsyntax-only -x c -w -I<mock mpi.h> -I<Inputs> -I<runtime/include>, in-process, as
///     mutate-rewrite.py runs clang-22), the output type-checks too;
///   - internal-error: the rewrite is not refused by the tool's own errors ("tempi-rewrite:
///     cannot apply an edit", "conflicting edits", "internal error"...) on a source the tool
///     parsed without a compiler error (mutate-rewrite.py cannot see this: it is exit 1 there).
#include "tool/clang/RewriteAction.h"

#include "FuzzCheck.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#ifndef TEMPI_SOURCE_DIR
#error "build with -DTEMPI_SOURCE_DIR=\"<repository root>\" (test/fuzz/build.sh does)"
#endif

namespace {

constexpr size_t kMaxInput = 16 * 1024;
const char *const kInput = "/tempi-fuzz/input.c";
const char *const kOutput = "/tempi-fuzz/output.c";
const char *const kMockDir = "/tempi-fuzz/mock-mpi";
const char *const kInputsDir = "/tempi-fuzz/Inputs";
const char *const kTempiDir = "/tempi-fuzz/include";
/// Added to both commands: no source snippets under diagnostics and no "N errors generated."
/// line on stderr per run (rendering only: what is an error or a remark does not change).
const char *const kQuiet = "-fno-caret-diagnostics";

/// The headers mapped into every run: virtual path -> contents.
std::vector<std::pair<std::string, std::string>> headers;

std::string readSourceFile(const std::string &rel) {
  std::string path = std::string(TEMPI_SOURCE_DIR) + "/" + rel;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fuzz_frontend: cannot read %s (TEMPI_SOURCE_DIR moved?)\n", path.c_str());
    std::exit(2);
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Prints diagnostics into a string (what tempi-rewrite prints on stderr) and keeps the
/// messages of errors and of the "rewritten:" remarks.
class Capture : public clang::TextDiagnosticPrinter {
public:
  Capture(llvm::raw_ostream &os, clang::DiagnosticOptions &opts)
      : clang::TextDiagnosticPrinter(os, opts) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override {
    clang::TextDiagnosticPrinter::HandleDiagnostic(level, info);
    llvm::SmallString<256> msg;
    info.FormatDiagnostic(msg);
    if (level >= clang::DiagnosticsEngine::Error)
      errors.push_back(msg.str().str());
    else if (level == clang::DiagnosticsEngine::Remark)
      remarks.push_back(msg.str().str());
  }
  std::vector<std::string> errors, remarks;
};

bool isSpace(unsigned char c) { // Python's str.isspace() on ASCII
  return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}
bool isWord(unsigned char c) { // Python's \w; bytes of UTF-8 sequences count as letters
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c >= 0x80;
}
bool isAlpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/// mutate-rewrite.py's tokenizer as far as it matters here: comments (`//` to the end of the
/// line, `/* ... */` when closed) and string or character literals (closed on their line; a
/// backslash escapes any character, a newline included) become spaces. Every other token of its
/// regular expression is made of characters that cannot start a comment or a literal, so
/// stepping one character at a time finds the same comments and literals.
std::string blankCommentsAndStrings(const std::string &s) {
  std::string out = s;
  size_t i = 0, n = s.size();
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < to; ++k)
      out[k] = ' ';
  };
  while (i < n) {
    if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
      size_t e = s.find('\n', i);
      e = e == std::string::npos ? n : e;
      blank(i, e);
      i = e;
      continue;
    }
    if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
      size_t e = s.find("*/", i + 2);
      if (e != std::string::npos) {
        blank(i, e + 2);
        i = e + 2;
        continue;
      }
    }
    if (s[i] == '"' || s[i] == '\'') {
      char q = s[i];
      size_t k = i + 1;
      bool closed = false;
      while (k < n) {
        if (s[k] == '\\') {
          if (k + 1 >= n)
            break;
          k += 2;
        } else if (s[k] == q) {
          closed = true;
          break;
        } else if (s[k] == '\n') {
          break;
        } else {
          ++k;
        }
      }
      if (closed) {
        blank(i, k + 1);
        i = k + 1;
        continue;
      }
    }
    ++i;
  }
  return out;
}

/// Python's universal newlines (mutate-rewrite.py reads the output in text mode): "\r\n" and a
/// lone "\r" become "\n".
std::string universalNewlines(const std::string &s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\r') {
      out += '\n';
      if (i + 1 < s.size() && s[i + 1] == '\n')
        ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

/// mutate-rewrite.py's rewritten_calls(): the lines that start (after blanks) with '#' are
/// dropped from the text with comments and literals blanked, then every match of
/// `\b(tempi_[A-Za-z]\w*)\s*\(` in what is left (\s* may cross lines) is a call, less
/// tempi_gen_* and tempi_static*. Exact on ASCII text; bytes of 0x80 and above count as word
/// characters (Python's \w on the UTF-8 letters they usually encode).
std::map<std::string, int> tempiCalls(const std::string &source) {
  std::string b = blankCommentsAndStrings(universalNewlines(source));
  std::string t; // "\n".join(lines not starting with '#')
  bool firstLine = true;
  for (size_t start = 0; start <= b.size();) {
    size_t end = b.find('\n', start);
    if (end == std::string::npos)
      end = b.size();
    size_t first = start;
    while (first < end && isSpace(static_cast<unsigned char>(b[first])))
      ++first;
    if (!(first < end && b[first] == '#')) {
      if (!firstLine)
        t += '\n';
      t.append(b, start, end - start);
      firstLine = false;
    }
    start = end + 1;
  }
  std::map<std::string, int> calls;
  for (size_t i = 0; i + 7 <= t.size(); ++i) {
    if (t.compare(i, 6, "tempi_") != 0 || !isAlpha(static_cast<unsigned char>(t[i + 6])))
      continue;
    if (i > 0 && isWord(static_cast<unsigned char>(t[i - 1]))) // \b
      continue;
    size_t e = i + 7;
    while (e < t.size() && isWord(static_cast<unsigned char>(t[e])))
      ++e;
    size_t k = e;
    while (k < t.size() && isSpace(static_cast<unsigned char>(t[k])))
      ++k;
    std::string name = t.substr(i, e - i);
    if (k < t.size() && t[k] == '(' && name.rfind("tempi_gen_", 0) != 0 &&
        name.rfind("tempi_static", 0) != 0)
      ++calls[name];
    i = e - 1; // no match starts inside the name or in the blanks after it
  }
  return calls;
}

struct Outcome {
  bool ok = false;                   ///< tempi-rewrite would exit 0
  std::string text;                  ///< the rewritten source (when ok)
  std::string printed;               ///< diagnostics as tempi-rewrite prints them
  std::vector<std::string> errors;   ///< error messages
  std::vector<std::string> remarks;  ///< remark messages
};

clang::tooling::FixedCompilationDatabase database(std::vector<std::string> flags) {
  return clang::tooling::FixedCompilationDatabase(".", flags);
}

void mapHeaders(clang::tooling::ClangTool &tool) {
  for (const auto &[path, text] : headers)
    tool.mapVirtualFile(path, text);
}

/// What `tempi-rewrite --explain /tempi-fuzz/input.c -- -I<mock> -I<Inputs>` does (TempiRewrite.cpp).
Outcome rewrite(const std::string &source) {
  Outcome o;
  auto db = database({std::string("-I") + kMockDir, std::string("-I") + kInputsDir, kQuiet});
  std::vector<std::string> sources = {kInput};
  clang::tooling::ClangTool tool(db, sources);
  mapHeaders(tool);
  tool.mapVirtualFile(kInput, source);
  clang::DiagnosticOptions diagOpts;
  llvm::raw_string_ostream os(o.printed);
  Capture capture(os, diagOpts);
  tool.setDiagnosticConsumer(&capture);
  tool.setPrintErrorMessage(false);
  tool.appendArgumentsAdjuster(clang::tooling::getClangStripOutputAdjuster());
  tool.appendArgumentsAdjuster(tempi::frontend::tempiArgumentsAdjuster());
  std::map<std::string, tempi::frontend::RewriteResult> results;
  tempi::frontend::RewriteOptions opts;
  opts.explain = true;
  opts.spelledSources = sources;
  int rc = tool.run(tempi::frontend::newRewriteActionFactory(opts, results).get());
  auto it = results.find(kInput);
  o.ok = rc == 0 && it != results.end() && it->second.ok;
  if (o.ok)
    o.text = it->second.text;
  o.errors = capture.errors;
  o.remarks = capture.remarks;
  return o;
}

/// mutate-rewrite.py's compiles(): clang-22 -fsyntax-only -x c -w -I<mock> -I<tempi include>,
/// plus the Inputs/ directory the rewrite had.
bool typeChecks(const std::string &path, const std::string &source, std::string *printed) {
  auto db = database({"-resource-dir=" TEMPI_RESOURCE_DIR, "-x", "c", "-w",
                      std::string("-I") + kMockDir, std::string("-I") + kInputsDir,
                      std::string("-I") + kTempiDir, kQuiet});
  clang::tooling::ClangTool tool(db, {path});
  mapHeaders(tool);
  tool.mapVirtualFile(path, source);
  clang::DiagnosticOptions diagOpts;
  std::string text;
  llvm::raw_string_ostream os(text);
  clang::TextDiagnosticPrinter printer(os, diagOpts);
  tool.setDiagnosticConsumer(&printer);
  tool.setPrintErrorMessage(false);
  bool ok = tool.run(clang::tooling::newFrontendActionFactory<clang::SyntaxOnlyAction>().get()) == 0;
  if (printed)
    *printed = text;
  return ok;
}

std::string describe(const std::map<std::string, int> &m) {
  std::string s;
  for (const auto &[k, v] : m)
    s += (s.empty() ? "" : ", ") + k + " x" + std::to_string(v);
  return s.empty() ? "none" : s;
}

void report(const std::string &source, const Outcome &o) {
  auto put = [](const char *title, const std::string &text) { // the text may hold NUL bytes
    std::fprintf(stderr, "---- %s ----\n", title);
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fputc('\n', stderr);
  };
  put("input", source);
  put("tempi-rewrite diagnostics", o.printed);
  if (o.ok)
    put("rewritten", o.text);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  headers = {
      {std::string(kMockDir) + "/mpi.h", readSourceFile("test/Inputs/mock-mpi/mpi.h")},
      {std::string(kInputsDir) + "/mpi-more.h", readSourceFile("test/rewrite/Inputs/mpi-more.h")},
      {std::string(kInputsDir) + "/mpi-large-count.h",
       readSourceFile("test/rewrite/Inputs/mpi-large-count.h")},
      {std::string(kInputsDir) + "/halo-helper.h", readSourceFile("test/rewrite/Inputs/halo-helper.h")},
      {std::string(kTempiDir) + "/tempi/tempi.h", readSourceFile("runtime/include/tempi/tempi.h")},
  };
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInput)
    return -1; // not run, not kept
  const std::string source(reinterpret_cast<const char *>(data), size);
  Outcome o = rewrite(source);

  if (!o.ok) {
    // The tool's own errors say "tempi-rewrite: ..."; it reports them only when the compiler
    // reported none (RewriteAction.cpp), so one here is a refusal of a source that parsed.
    for (const std::string &e : o.errors)
      if (e.rfind("tempi-rewrite:", 0) == 0) {
        report(source, o);
        FUZZ_CHECK(false, "internal-error: the rewrite of a source that parsed failed: " + e);
      }
    return 0;
  }

  // unproven: output - input - remarks must be empty (multisets).
  std::map<std::string, int> got = tempiCalls(o.text), before = tempiCalls(source), proven;
  for (const std::string &r : o.remarks) {
    // mutate-rewrite.py: "remark: rewritten: (MPI_\w+) -> (tempi_\w+)"
    const std::string head = "rewritten: MPI_";
    if (r.rfind(head, 0) != 0)
      continue;
    size_t i = head.size();
    size_t j = i;
    while (j < r.size() && isWord(static_cast<unsigned char>(r[j])))
      ++j;
    if (j == i || r.compare(j, 10, " -> tempi_") != 0)
      continue;
    size_t k = j + 10, e = k;
    while (e < r.size() && isWord(static_cast<unsigned char>(r[e])))
      ++e;
    if (e == k)
      continue;
    ++proven[r.substr(j + 4, e - (j + 4))];
  }
  std::map<std::string, int> extra;
  for (const auto &[name, n] : got) {
    int left = n;
    if (auto b = before.find(name); b != before.end())
      left -= b->second;
    if (auto p = proven.find(name); p != proven.end())
      left -= p->second;
    if (left > 0)
      extra[name] = left;
  }
  if (!extra.empty()) {
    report(source, o);
    FUZZ_CHECK(false, "unproven: tempi_ calls without a 'rewritten' remark: " + describe(extra) +
                          " (remarks: " + describe(proven) + ")");
  }

  // no-compile: the output type-checks whenever the input does. Unchanged text cannot differ.
  if (o.text != source) {
    std::string outErrors;
    if (!typeChecks(kOutput, o.text, &outErrors) && typeChecks(kInput, source, nullptr)) {
      report(source, o);
      FUZZ_CHECK(false, "no-compile: the input type-checks, its rewrite does not:\n" + outErrors);
    }
  }
  return 0;
}
