/// \file
/// RewriteAction: analysis, remarks, Transformer edits and plan insertion for one translation
/// unit (see RewriteAction.h), and the driver's argument adjusters.
#include "tool/clang/RewriteAction.h"
#include "tool/clang/MacroDivergence.h"

#include "tool/clang/Analysis.h"
#include "tool/clang/RewriteRules.h"
#include "tool/codegen/KernelGen.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdio>
#include <map>

using namespace clang;

namespace tempi::frontend {

void emitRemarks(DiagnosticsEngine &diags, const Analysis &analysis,
                 const std::vector<SiteEdit> &edits, bool explainRewritten) {
  unsigned remark = diags.getCustomDiagID(DiagnosticsEngine::Remark, "%0 [-Rtempi]");
  unsigned note = diags.getCustomDiagID(DiagnosticsEngine::Note, "%0");
  struct Item {
    SourceLocation loc;
    std::string message;
    SourceLocation noteLoc;
  };
  std::vector<Item> items;
  for (const SiteRemark &r : analysis.remarks)
    items.push_back({r.loc, r.message, {}});
  for (const CallSite &s : analysis.sites) {
    if (!s.siteWhy.reason.empty())
      items.push_back({s.call->getBeginLoc(),
                       std::string(s.spec->name) + " is left unchanged: " + s.siteWhy.reason,
                       {}});
    for (const DatatypeArg &a : s.args) {
      if (a.hasPlan() || a.predefined || a.ignored)
        continue;
      SourceLocation n = a.why.loc.isValid() && a.why.loc != a.loc ? a.why.loc : SourceLocation();
      items.push_back({a.loc,
                       "datatype '" + a.spelling + "' of " + s.spec->name +
                           " is left to the runtime: " + a.why.reason,
                       n});
    }
  }
  if (explainRewritten)
    for (const SiteEdit &e : edits)
      items.push_back({e.loc, "rewritten: " + e.explanation, {}});
  // Whether a rewritten send is deferred (SendDeferral), after its "rewritten:" remark.
  for (const CallSite &s : analysis.sites) {
    if (!s.rewritten() || !s.spec->deferredName || !s.deferral)
      continue;
    const DeferralProof &p = *s.deferral;
    SourceLocation at = s.call->getBeginLoc();
    if (p.deferred) {
      if (explainRewritten)
        items.push_back({at, "the send is deferred: " + p.detail, {}});
    } else {
      items.push_back({at, "the send is not deferred: " + p.detail,
                       p.loc.isValid() && p.loc != at ? p.loc : SourceLocation()});
    }
  }
  const SourceManager &sm = diags.getSourceManager();
  std::stable_sort(items.begin(), items.end(), [&](const Item &x, const Item &y) {
    return sm.isBeforeInTranslationUnit(x.loc, y.loc);
  });
  for (const Item &i : items) {
    diags.Report(i.loc, remark) << i.message;
    if (i.noteLoc.isValid())
      diags.Report(i.noteLoc, note) << "the reason is here";
  }
}

namespace {

std::string quoteForLine(StringRef name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

/// The offset of the newline that ends the #include directive whose header name starts at
/// `pos`: past the header name (`<a/*b.h>` holds no comment), a block comment that opens on the
/// directive's line and closes on a later one (`#include <mpi.h> /* the MPI` ... `*/`), and
/// backslash-newline splices. The plans go after it: inserted at the first newline, they would
/// land inside the comment. StringRef::npos when the file ends first.
size_t endOfIncludeLine(StringRef text, size_t pos) {
  auto splice = [&](size_t at) { // a backslash ending a line: 2 (with LF) or 3 (CR LF), else 0
    if (at >= text.size() || text[at] != '\\')
      return size_t(0);
    if (at + 1 < text.size() && text[at + 1] == '\n')
      return size_t(2);
    if (at + 2 < text.size() && text[at + 1] == '\r' && text[at + 2] == '\n')
      return size_t(3);
    return size_t(0);
  };
  if (pos < text.size() && (text[pos] == '<' || text[pos] == '"')) {
    char close = text[pos] == '<' ? '>' : '"';
    size_t end = text.find_first_of(close == '>' ? ">\n" : "\"\n", pos + 1);
    if (end != StringRef::npos && text[end] == close)
      pos = end + 1;
  }
  while (pos < text.size()) {
    if (size_t n = splice(pos)) {
      pos += n;
      continue;
    }
    char c = text[pos];
    if (c == '\n')
      return pos;
    if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '*') {
      size_t close = text.find("*/", pos + 2);
      if (close == StringRef::npos)
        return StringRef::npos;
      pos = close + 2;
      continue;
    }
    if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '/') {
      for (pos += 2; pos < text.size() && text[pos] != '\n';)
        pos += splice(pos) ? splice(pos) : 1;
      return pos < text.size() ? pos : StringRef::npos;
    }
    ++pos;
  }
  return StringRef::npos;
}

class RewriteConsumer : public ASTConsumer {
public:
  RewriteConsumer(RewriteOptions opts, RewriteResult &result, const Preprocessor &pp,
                  std::string spelledName, const UnexpandedMacroArgs *unexpanded,
                  const MacroDivergence *macros)
      : opts_(opts), result_(result), pp_(pp), spelledName_(std::move(spelledName)),
        unexpanded_(unexpanded), macros_(macros) {}

  /// `#line N "F"` such that the next line of the file keeps its presumed line and file name
  /// (what __LINE__ and __FILE__ give there under the user's compiler): N and F are those of
  /// `loc`'s line plus one. The main file's own name (no #line of the user's before it) becomes
  /// the name the file was given by, not the absolute path the tool parsed it under.
  std::string lineDirective(const SourceManager &sm, SourceLocation loc, unsigned plus) const {
    PresumedLoc p = sm.getPresumedLoc(loc);
    std::string file = p.isValid() ? p.getFilename() : "";
    unsigned line = p.isValid() ? p.getLine() + plus : plus;
    OptionalFileEntryRef main = sm.getFileEntryRefForID(sm.getMainFileID());
    if (!spelledName_.empty() && main && file == main->getName())
      file = spelledName_;
    return "#line " + std::to_string(line) + " " + quoteForLine(file);
  }

  /// Text inserted at the start of a line for shadowed calls: the #undef of a region that ends
  /// on the line before goes ahead of the #define of one that starts here.
  struct LineStartText {
    std::string undefs, defines;
  };

  /// Rewrites a shadowed call (SiteEdit::shadow, no replacements): `#define MPI_X(...)
  /// NEW(__VA_ARGS__ PLANS)` and `#line` at the start of the invocation's first line, and
  /// `#undef MPI_X` and `#line` after its last, added to `at` (by file offset).
  void shadowEdits(const SourceManager &sm, const LangOptions &lang, const SiteEdit &e,
                   std::map<unsigned, LineStartText> &at) const {
    const CallSite &s = *e.shadow;
    const std::string name = s.spec->name;
    StringRef buf = sm.getBufferData(sm.getFileID(s.shadow->lastLine));
    size_t after = buf.find('\n', sm.getFileOffset(s.shadow->lastLine));
    std::string undef = "#undef " + name + "\n" + lineDirective(sm, s.shadow->lastLine, 1) + "\n";
    if (after == StringRef::npos) {
      after = buf.size();
      undef = "\n" + undef;
    } else {
      ++after;
    }
    std::string define = "#define " + name + "(...) " + rewrittenName(s) + "(__VA_ARGS__" +
                         planArguments(s, lang) + ")\n" +
                         lineDirective(sm, s.shadow->firstLine, 0) + "\n";
    at[sm.getFileOffset(s.shadow->firstLine)].defines += define;
    at[static_cast<unsigned>(after)].undefs += undef;
  }

  void HandleTranslationUnit(ASTContext &ctx) override {
    DiagnosticsEngine &diags = ctx.getDiagnostics();
    if (diags.hasErrorOccurred())
      return;
    SourceManager &sm = ctx.getSourceManager();
    FileID main = sm.getMainFileID();
    StringRef original = sm.getBufferData(main);
    Analysis analysis = analyze(ctx, &pp_, unexpanded_, opts_.wholeProgram, macros_);
    llvm::Expected<std::vector<SiteEdit>> edits = collectEdits(ctx, analysis);
    unsigned errId = diags.getCustomDiagID(DiagnosticsEngine::Error, "%0");
    if (!edits) {
      diags.Report(sm.getLocForStartOfFile(main), errId)
          << ("tempi-rewrite: cannot apply an edit: " + llvm::toString(edits.takeError()));
      return;
    }
    if (opts_.explain)
      emitRemarks(diags, analysis, *edits, true);
    result_.ok = true;
    if (edits->empty()) {
      result_.text = original.str();
      return;
    }
    // Calls in stringified macro arguments, and calls whose name is passed to a macro, are
    // rewritten through a shadow macro (Analysis.h, CallSite::shadow): a #define before the
    // lines of the macro invocation and an #undef after.
    tooling::Replacements reps;
    std::map<unsigned, LineStartText> lineStarts;
    const std::string repPath =
        tooling::Replacement(sm, sm.getLocForStartOfFile(main), 0, "").getFilePath().str();
    for (SiteEdit &e : *edits) {
      if (e.shadow)
        shadowEdits(sm, ctx.getLangOpts(), e, lineStarts);
      for (const tooling::Replacement &r : e.replacements)
        if (llvm::Error err = reps.add(r)) {
          diags.Report(e.loc, errId) << ("tempi-rewrite: conflicting edits: " +
                                         llvm::toString(std::move(err)));
          result_.ok = false;
          return;
        }
    }
    for (const auto &[offset, text] : lineStarts)
      if (llvm::Error err = reps.add(tooling::Replacement(repPath, offset, 0,
                                                          text.undefs + text.defines))) {
        diags.Report(sm.getLocForStartOfFile(main), errId)
            << ("tempi-rewrite: conflicting edits: " + llvm::toString(std::move(err)));
        result_.ok = false;
        return;
      }
    // The include and the plans go after the line that includes mpi.h, then #line. The plans
    // compile with the user's flags (nullPointer): `null` fills runtime_slot (void *),
    // `nullPlan` a plan-array entry.
    const LangOptions &lang = ctx.getLangOpts();
    const std::string null = nullPointer(lang, "void *", "0");
    const std::string nullPlan = nullPointer(lang, "const tempi_static_plan *", "0");
    std::string block;
    unsigned offset = 0;
    if (analysis.includeAnchor.isValid()) {
      unsigned anchor = sm.getFileOffset(sm.getExpansionLoc(analysis.includeAnchor));
      size_t eol = endOfIncludeLine(original, anchor);
      offset = eol == StringRef::npos ? original.size() : eol;
      block = "\n#include <tempi/tempi.h>\n";
      for (const StridedBlock &s : analysis.shapes)
        block += codegen::planDefinition(s, null) + "\n";
      for (const Analysis::PlanArray &p : analysis.planArrays)
        block += codegen::planArrayDefinition(p.symbol, p.entries, nullPlan) + "\n";
      // The line after the directive's last (a comment or splice may end it on a later line).
      block += lineDirective(sm, sm.getComposedLoc(main, eol == StringRef::npos ? anchor : offset), 1);
      if (eol == StringRef::npos)
        block += "\n";
    } else {
      block = "#include <tempi/tempi.h>\n";
      for (const StridedBlock &s : analysis.shapes)
        block += codegen::planDefinition(s, null) + "\n";
      for (const Analysis::PlanArray &p : analysis.planArrays)
        block += codegen::planArrayDefinition(p.symbol, p.entries, nullPlan) + "\n";
      block += lineDirective(sm, sm.getLocForStartOfFile(main), 0) + "\n";
    }
    if (llvm::Error err = reps.add(tooling::Replacement(repPath, offset, 0, block))) {
      diags.Report(sm.getLocForStartOfFile(main), errId)
          << ("tempi-rewrite: cannot insert the plans: " + llvm::toString(std::move(err)));
      result_.ok = false;
      return;
    }
    // The lines above the include are the user's too: tempi-cc compiles the copy from standard
    // input or from its temporary folder, so without a #line at the top __FILE__ there, and
    // diagnostics of headers included there ("In file included from"), would name "<stdin>"
    // or the copy. After a UTF-8 byte order mark, which compilers skip only at the start.
    if (analysis.includeAnchor.isValid()) {
      const unsigned top = original.starts_with("\xEF\xBB\xBF") ? 3 : 0;
      if (llvm::Error err = reps.add(tooling::Replacement(
              repPath, top, 0, lineDirective(sm, sm.getLocForStartOfFile(main), 0) + "\n"))) {
        diags.Report(sm.getLocForStartOfFile(main), errId)
            << ("tempi-rewrite: cannot insert #line: " + llvm::toString(std::move(err)));
        result_.ok = false;
        return;
      }
    }
    llvm::Expected<std::string> text = tooling::applyAllReplacements(original, reps);
    if (!text) {
      diags.Report(sm.getLocForStartOfFile(main), errId)
          << ("tempi-rewrite: " + llvm::toString(text.takeError()));
      result_.ok = false;
      return;
    }
    result_.text = std::move(*text);
    result_.shapes = analysis.shapes;
    result_.rewrittenCalls = static_cast<unsigned>(edits->size());
  }

private:
  RewriteOptions opts_;
  RewriteResult &result_;
  const Preprocessor &pp_;
  std::string spelledName_;
  const UnexpandedMacroArgs *unexpanded_; ///< owned by the preprocessor
  const MacroDivergence *macros_;         ///< owned by the preprocessor; null without the option
};

class RewriteFrontendAction : public ASTFrontendAction {
public:
  RewriteFrontendAction(RewriteOptions opts, std::map<std::string, RewriteResult> &results)
      : opts_(opts), results_(results) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, StringRef file) override {
    llvm::SmallString<256> abs(file);
    ci.getFileManager().makeAbsolutePath(abs);
    RewriteResult &r = results_[abs.str().str()];
    r = RewriteResult{};
    std::string spelled;
    for (const std::string &s : opts_.spelledSources) {
      llvm::SmallString<256> a(s);
      llvm::sys::fs::make_absolute(a);
      if (a == abs || llvm::sys::fs::equivalent(a, abs)) {
        spelled = s;
        break;
      }
    }
    auto unexpanded = std::make_unique<UnexpandedMacroArgs>(ci.getSourceManager());
    const UnexpandedMacroArgs *uses = unexpanded.get();
    ci.getPreprocessor().addPPCallbacks(std::move(unexpanded));
    const MacroDivergence *macros = nullptr;
    if (opts_.compilerMacros) {
      auto m = std::make_unique<MacroDivergence>(ci.getPreprocessor(), *opts_.compilerMacros);
      macros = m.get();
      ci.getPreprocessor().addPPCallbacks(std::move(m));
    }
    return std::make_unique<RewriteConsumer>(opts_, r, ci.getPreprocessor(), spelled, uses,
                                             macros);
  }

private:
  RewriteOptions opts_;
  std::map<std::string, RewriteResult> &results_;
};

class Factory : public tooling::FrontendActionFactory {
public:
  Factory(RewriteOptions opts, std::map<std::string, RewriteResult> &results)
      : opts_(opts), results_(results) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<RewriteFrontendAction>(opts_, results_);
  }

private:
  RewriteOptions opts_;
  std::map<std::string, RewriteResult> &results_;
};

/// The -I/-D/-isystem flags an MPI compiler wrapper adds (MPICH: -show; Open MPI: --showme:compile).
std::vector<std::string> wrapperFlags(const std::string &wrapper) {
  static std::map<std::string, std::vector<std::string>> cache;
  if (auto it = cache.find(wrapper); it != cache.end())
    return it->second;
  std::vector<std::string> flags;
  llvm::ErrorOr<std::string> path = llvm::sys::findProgramByName(wrapper);
  if (path) {
    for (const char *query : {"-show", "--showme:compile"}) {
      llvm::SmallString<128> out;
      llvm::sys::fs::createTemporaryFile("tempi-wrapper", "txt", out);
      std::optional<StringRef> redirects[] = {std::nullopt, StringRef(out), StringRef("")};
      int rc = llvm::sys::ExecuteAndWait(*path, {*path, query}, std::nullopt, redirects, 20);
      auto buf = llvm::MemoryBuffer::getFile(out);
      llvm::sys::fs::remove(out);
      if (rc != 0 || !buf)
        continue;
      llvm::SmallVector<StringRef> words;
      (*buf)->getBuffer().split(words, ' ', -1, false);
      for (size_t i = 0; i < words.size(); ++i) {
        StringRef w = words[i].trim();
        if (w.starts_with("-I") || w.starts_with("-D") || w.starts_with("-isystem")) {
          flags.push_back(w.str());
          if ((w == "-I" || w == "-D" || w == "-isystem") && i + 1 < words.size())
            flags.push_back(words[++i].trim().str());
        }
      }
      break;
    }
  }
  cache[wrapper] = flags;
  return flags;
}

} // namespace

std::unique_ptr<tooling::FrontendActionFactory>
newRewriteActionFactory(RewriteOptions options, std::map<std::string, RewriteResult> &results) {
  return std::make_unique<Factory>(options, results);
}

tooling::ArgumentsAdjuster spelledSourceNames(std::vector<std::string> sources) {
  return [sources = std::move(sources)](const tooling::CommandLineArguments &args,
                                        StringRef file) {
    tooling::CommandLineArguments adjusted = args;
    for (const std::string &s : sources) {
      llvm::SmallString<256> abs(s);
      llvm::sys::fs::make_absolute(abs);
      if (s == file || abs != file)
        continue;
      for (std::string &a : adjusted)
        if (a == file)
          a = s;
      break;
    }
    return adjusted;
  };
}

bool hasFlagSeparator(int argc, const char **argv) {
  for (int i = 1; i < argc; ++i)
    if (StringRef(argv[i]) == "--")
      return true;
  return false;
}

tooling::ArgumentsAdjuster tempiArgumentsAdjuster() {
  return [](const tooling::CommandLineArguments &args, StringRef file) {
    tooling::CommandLineArguments out;
    if (args.empty())
      return out;
    out.push_back(args[0]);
    out.push_back("-resource-dir=" TEMPI_RESOURCE_DIR);
    std::string tool = llvm::sys::path::filename(args[0]).str();
    if (tool.rfind("mpic", 0) == 0 || tool.rfind("mpiCC", 0) == 0)
      for (const std::string &f : wrapperFlags(tool))
        out.push_back(f);
    if (file.ends_with(".cu")) {
      out.push_back("--cuda-host-only");
      out.push_back("--cuda-path=" TEMPI_CUDA_PATH);
      out.push_back("-Wno-unknown-cuda-version");
    }
    for (size_t i = 1; i < args.size(); ++i) {
      if (args[i] == "-Rtempi")
        continue; // consumed by the driver
      out.push_back(args[i]);
    }
    // The tool analyses; the user's compiler compiles. Code that compiler accepts must not stop
    // the analysis, so no warning is an error here (-Werror in the user's flags is for their
    // compiler), nor are the diagnostics that clang makes errors by default but gcc only warns
    // about (older C: implicit declarations, implicit int, int <-> pointer, mismatched function
    // pointers, `return;` in a non-void function). After the user's flags, so they win.
    for (const char *f : {"-Wno-error", "-Wno-error=implicit-function-declaration",
                          "-Wno-error=implicit-int", "-Wno-error=int-conversion",
                          "-Wno-error=incompatible-function-pointer-types",
                          "-Wno-error=incompatible-pointer-types", "-Wno-error=return-mismatch",
                          "-Wno-error=return-type"})
      out.push_back(f);
    // Nor does the tool repeat the compiler's warnings: the user's compiler prints its own, and a
    // second copy in Clang's wording (Clang warns where gcc does not) would read as tempi-cc
    // adding warnings to a clean build. Only Clang's own diagnostic groups are turned off: the
    // tool's remarks and tempi-lint's findings (custom diagnostics) still print.
    out.push_back("-Wno-everything");
    return out;
  };
}

} // namespace tempi::frontend
