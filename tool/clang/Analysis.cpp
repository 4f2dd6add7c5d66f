/// \file
/// analyze(): walks every function body (template instantiations and lambdas included), resolves
/// the datatype arguments of communication calls, canonicalizes them with passes/ and merges the
/// instances of one call site. See Analysis.h.
#include "tool/clang/Analysis.h"
#include "tool/clang/MacroDivergence.h"

#include "tool/clang/CallSiteValues.h"
#include "tool/clang/DatatypeResolver.h"
#include "tool/clang/Evaluator.h"

#include "passes/PassRegistry.h"
#include "passes/TextForm.h"
#include "passes/TypeIR.h"
#include "tool/codegen/KernelGen.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Transformer/SourceCode.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <memory>
#include <set>

using namespace clang;

namespace tempi::frontend {

namespace {

/// TEMPI_MAX_DIMS of runtime/include/tempi/tempi.h (the tool does not include that C header).
constexpr size_t kMaxDims = 8;

class Collector : public RecursiveASTVisitor<Collector> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *d) {
    auto *fd = dyn_cast_or_null<FunctionDecl>(d);
    bool isFn = fd && fd->doesThisDeclarationHaveABody();
    if (isFn)
      stack_.push_back(fd->isDependentContext() ? nullptr : fd);
    bool r = RecursiveASTVisitor::TraverseDecl(d);
    if (isFn)
      stack_.pop_back();
    return r;
  }
  bool TraverseLambdaExpr(LambdaExpr *l) {
    const CXXMethodDecl *op = l->getCallOperator();
    stack_.push_back(op && !op->isDependentContext() ? op : nullptr);
    bool r = RecursiveASTVisitor::TraverseLambdaExpr(l);
    stack_.pop_back();
    return r;
  }
  bool VisitCallExpr(CallExpr *c) {
    if (!stack_.empty() && stack_.back())
      calls.push_back({c, stack_.back()});
    return true;
  }

  std::vector<std::pair<const CallExpr *, const Decl *>> calls;

private:
  std::vector<const Decl *> stack_;
};

bool sameOutcome(const DatatypeArg &a, const DatatypeArg &b) {
  if (a.ignored || b.ignored)
    return a.ignored == b.ignored;
  if (a.isArray || b.isArray || a.indexed() || b.indexed()) {
    if (a.isArray != b.isArray || a.indexText != b.indexText ||
        a.elements.size() != b.elements.size())
      return false;
    for (size_t k = 0; k < a.elements.size(); ++k)
      if (!sameOutcome(a.elements[k], b.elements[k]))
        return false;
    return true;
  }
  if (a.hasPlan() != b.hasPlan())
    return false;
  return !a.hasPlan() || *a.shape == *b.shape;
}

/// MPI_Alltoallv and MPI_Alltoallw (and their _c forms) with MPI_IN_PLACE written as the send
/// buffer: the MPI ignores the send counts, displacements and datatypes. Only the macro as
/// written counts; a variable that may hold MPI_IN_PLACE proves nothing.
bool sendIgnoredInPlace(const CommCallSpec &spec, const CallExpr *call, const ASTContext &ctx) {
  llvm::StringRef name(spec.name);
  name.consume_back("_c");
  if (name != "MPI_Alltoallv" && name != "MPI_Alltoallw")
    return false;
  if (call->getNumArgs() == 0)
    return false;
  SourceLocation loc = call->getArg(0)->IgnoreParenImpCasts()->getBeginLoc();
  const SourceManager &sm = ctx.getSourceManager();
  return loc.isMacroID() &&
         Lexer::getImmediateMacroName(loc, sm, ctx.getLangOpts()) == "MPI_IN_PLACE" &&
         spelledText(call->getArg(0), ctx) == "MPI_IN_PLACE";
}

/// From a proven chain to a plan: a predefined type needs none (expr cleared); otherwise its
/// canonical shape and plan symbol, or why it has no plan.
void planArg(DatatypeArg &da) {
  if (da.expr->combiner == Combiner::Named) {
    da.predefined = true;
    da.why = {"'" + da.spelling + "' is a predefined datatype: nothing to specialize", da.loc};
    da.expr = nullptr;
    return;
  }
  std::string whyNot;
  da.shape = shapeOf(*da.expr, whyNot);
  if (da.shape)
    da.planSymbol = codegen::planSymbol(*da.shape);
  else
    da.why = {whyNot, da.loc};
}

/// One entry per element of a proven datatype array (`array`[k], at the argument `of`), each
/// planned like a scalar argument.
std::vector<DatatypeArg> elementArgs(const DatatypeArg &of, const std::string &array,
                                     const std::vector<TypeExprPtr> &exprs) {
  std::vector<DatatypeArg> elements;
  for (size_t k = 0; k < exprs.size(); ++k) {
    DatatypeArg el;
    el.index = of.index;
    el.loc = of.loc;
    el.spelling = array + "[" + std::to_string(k) + "]";
    el.expr = exprs[k];
    planArg(el);
    if (el.predefined)
      el.expr = exprs[k]; // kept: the explanation prints it
    elements.push_back(std::move(el));
  }
  return elements;
}

/// A call that reads a standard container and changes nothing a program variable holds:
/// `v.data()`, `v.size()`, `a[i]` on a std::vector or std::array, ... (C++ sources pass buffers
/// and requests that way).
bool isStdAccessor(const CallExpr *c) {
  const auto *m = dyn_cast_or_null<CXXMethodDecl>(c->getCalleeDecl());
  if (!m || !m->getParent() || !m->getParent()->isInStdNamespace())
    return false;
  // containers whose accessors never insert (std::map's operator[] does)
  static const std::set<std::string> kContainers = {"vector", "array", "span", "basic_string",
                                                    "deque", "valarray", "unique_ptr", "shared_ptr"};
  const IdentifierInfo *record = m->getParent()->getIdentifier();
  if (!record || !kContainers.count(record->getName().str()))
    return false;
  static const std::set<std::string> kAccessors = {
      "data", "size", "empty", "front", "back", "begin", "end", "cbegin", "cend", "get"};
  if (m->getOverloadedOperator() == OO_Subscript)
    return true;
  const IdentifierInfo *id = m->getIdentifier();
  return id && kAccessors.count(id->getName().str());
}

/// No side effect anywhere in `e`: nothing Clang knows to write (assignments, increments, ...)
/// and no call but to std accessors (isStdAccessor). Clang's own HasSideEffects counts every
/// call to a function not marked pure.
bool sideEffectFree(const Expr *e, ASTContext &ctx) {
  if (e->HasSideEffects(ctx, /*IncludePossibleEffects=*/false))
    return false;
  std::function<bool(const Stmt *)> walk = [&](const Stmt *st) {
    if (!st)
      return true;
    if (isa<LambdaExpr>(st) || isa<BlockExpr>(st))
      return false;
    if (const auto *c = dyn_cast<CallExpr>(st)) {
      const Decl *callee = c->getCalleeDecl();
      const bool pure = callee && (callee->hasAttr<ConstAttr>() || callee->hasAttr<PureAttr>());
      if (!pure && !isStdAccessor(c))
        return false;
    }
    for (const Stmt *child : st->children())
      if (!walk(child))
        return false;
    return true;
  };
  return walk(e);
}

/// Whether `arg` is `&a[v++]` or `a + v++` (++v, v--, --v too, casts and parentheses around):
/// the request-slot idiom `MPI_Isend(..., &reqs[nreq++])`, with `a` free of side effects and `v`
/// a plain local variable (not a reference, not volatile), which is added to `counters`.
bool isCountedSlot(const Expr *arg, ASTContext &ctx, std::set<const VarDecl *> &counters) {
  const Expr *x = arg->IgnoreParenCasts();
  const Expr *base = nullptr, *index = nullptr;
  if (const auto *addr = dyn_cast<UnaryOperator>(x); addr && addr->getOpcode() == UO_AddrOf) {
    if (const auto *ase = dyn_cast<ArraySubscriptExpr>(addr->getSubExpr()->IgnoreParens())) {
      base = ase->getBase();
      index = ase->getIdx();
    }
  } else if (const auto *add = dyn_cast<BinaryOperator>(x); add && add->getOpcode() == BO_Add) {
    base = add->getLHS();
    index = add->getRHS();
    if (!base->getType()->isPointerType())
      std::swap(base, index);
  }
  if (!base || !index || !base->getType()->isPointerType() || !sideEffectFree(base, ctx))
    return false;
  const auto *step = dyn_cast<UnaryOperator>(index->IgnoreParens());
  if (!step || !step->isIncrementDecrementOp())
    return false;
  const auto *ref = dyn_cast<DeclRefExpr>(step->getSubExpr()->IgnoreParens());
  const auto *v = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  if (!v || !v->hasLocalStorage() || v->getType()->isReferenceType() ||
      v->getType().isVolatileQualified())
    return false;
  counters.insert(v);
  return true;
}

/// A scalar `a[i]` that resolve() refused only because it cannot evaluate `i` (a loop
/// variable): when every element of the local array `a` is proven at the call, the call can
/// pass the plan chosen by the same index (DatatypeArg::indexText). Otherwise `da` keeps its
/// reason, extended by why the plan cannot be chosen by the index.
void indexedArg(DatatypeArg &da, const Expr *arg, const CallExpr *call, Point at,
                DatatypeResolver &resolver, ASTContext &ctx) {
  const auto *ase = dyn_cast<ArraySubscriptExpr>(arg->IgnoreParenImpCasts());
  if (!ase || da.why.reason.rfind("the index into '", 0) != 0)
    return; // another refusal (a global array, a pointer, ...): the whole array has it too
  const SourceManager &sm = ctx.getSourceManager();
  const LangOptions &lo = ctx.getLangOpts();
  const Expr *idx = ase->getIdx();
  auto refuse = [&](const std::string &because) {
    da.why.reason += "; its plan cannot be chosen by the index either: " + because;
  };
  // The index is spelled twice (in the datatype and in the plan argument), so both must read the
  // same value: no argument may have a side effect but a request slot's counter (&reqs[n++]),
  // and the index may not read that counter.
  std::set<const VarDecl *> counters;
  for (const Expr *a : call->arguments())
    if (!sideEffectFree(a, ctx) && !isCountedSlot(a, ctx, counters)) {
      refuse("an argument of the call has side effects");
      return;
    }
  if (const VarDecl *v = firstReadOf(idx, counters)) {
    refuse("the index reads '" + v->getNameAsString() +
           "', which another argument of the call increments");
    return;
  }
  CharSourceRange range =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(idx->getSourceRange()), sm, lo);
  if (idx->getBeginLoc().isMacroID() || idx->getEndLoc().isMacroID() || range.isInvalid()) {
    refuse("the index is spelled through a macro");
    return;
  }
  std::string text = Lexer::getSourceText(range, sm, lo).str();
  Unresolved why;
  std::vector<TypeExprPtr> exprs = resolver.resolveArray(ase->getBase(), at, why);
  if (exprs.empty() || text.empty()) {
    refuse(why.reason);
    return;
  }
  std::string base = da.spelling.substr(0, da.spelling.find('['));
  DatatypeArg candidate = da;
  candidate.elements = elementArgs(da, base, exprs);
  candidate.indexText = text;
  candidate.why = {};
  if (!candidate.hasPlan()) {
    refuse("no element of '" + base + "' has a static plan");
    return;
  }
  da = std::move(candidate);
}

/// The first datatype argument of a call tempi-rewrite never rewrites that is not spelled as a
/// predefined datatype (nor MPI_DATATYPE_NULL), as the source spells it; empty when none is.
/// Only those calls are worth a remark: with predefined types there is nothing to pack.
std::string firstDerivedDatatype(const CallExpr *call, const UnrewrittenCallSpec &u,
                                 ASTContext &ctx) {
  for (int idx : u.datatypeArgs) {
    if (static_cast<unsigned>(idx) >= call->getNumArgs())
      continue;
    const Expr *arg = call->getArg(static_cast<unsigned>(idx));
    std::vector<std::string> names = Evaluator::spellingsOf(arg, ctx);
    if (std::any_of(names.begin(), names.end(), [](const std::string &n) {
          return n == "MPI_DATATYPE_NULL" || findNamedType(n);
        }))
      continue;
    std::string text = spelledText(arg, ctx);
    return text.empty() ? "argument " + std::to_string(idx + 1) : text;
  }
  return "";
}

} // namespace

bool CallSite::rewritten() const {
  if ((!editable && !namePassed) || !siteWhy.reason.empty())
    return false;
  if (spec->datatypeArrays)
    for (const DatatypeArg &a : args)
      if (!a.arrayProven())
        return false; // both arrays proven element by element, or nothing
  for (const DatatypeArg &a : args)
    if (a.hasPlan())
      return true;
  return false;
}

bool CallSite::deferred() const {
  return rewritten() && spec->deferredName && deferral && deferral->deferred;
}

const CallSite *Analysis::siteFor(const CallExpr *c) const {
  auto it = siteOf.find(c);
  return it == siteOf.end() ? nullptr : &sites[it->second];
}

std::optional<StridedBlock> shapeOf(const TypeExpr &e, std::string &whyNot) {
  Result<IRPtr> ir = translate(e);
  if (!ir) {
    whyNot = "the datatype is invalid: " + ir.error();
    return std::nullopt;
  }
  IRPtr canon = canonicalize(*ir);
  std::optional<StridedBlock> sb = toStridedBlock(*canon);
  if (!sb) {
    whyNot = "the canonical form is irregular (" + printIR(*canon, false) +
             "); the runtime serves it with its block-list kernel";
    return std::nullopt;
  }
  if (sb->dims.size() > kMaxDims) {
    whyNot = "the canonical form has " + std::to_string(sb->dims.size()) +
             " dimensions, more than TEMPI_MAX_DIMS (" + std::to_string(kMaxDims) + ")";
    return std::nullopt;
  }
  if (codegen::planDefinition(*sb).empty()) {
    whyNot = "code generation cannot express " + printStrided(*sb);
    return std::nullopt;
  }
  return sb;
}

long mpiVersionOf(const Preprocessor &pp) {
  const MacroInfo *mi = pp.getMacroInfo(pp.getIdentifierInfo("MPI_VERSION"));
  if (!mi)
    return kMpiVersionUndefined;
  if (mi->getNumTokens() != 1 || !mi->getReplacementToken(0).is(tok::numeric_constant))
    return kMpiVersionUnknown;
  long v = 0;
  if (StringRef(pp.getSpelling(mi->getReplacementToken(0))).getAsInteger(10, v))
    return kMpiVersionUnknown;
  return v;
}

void UnexpandedMacroArgs::MacroExpands(const Token &nameTok, const MacroDefinition &md, SourceRange,
                                       const MacroArgs *args) {
  const MacroInfo *mi = md.getMacroInfo();
  if (!mi || !args || !mi->isFunctionLike() || mi->getNumParams() == 0)
    return;
  auto [it, fresh] = params_.try_emplace(mi);
  if (fresh) {
    ArrayRef<Token> body = mi->tokens();
    auto paramAt = [&](size_t i, bool pasted) {
      if (i >= body.size() || !body[i].getIdentifierInfo())
        return;
      int k = mi->getParameterNum(body[i].getIdentifierInfo());
      if (k >= 0)
        it->second.emplace_back(static_cast<unsigned>(k), pasted);
    };
    for (size_t i = 0; i < body.size(); ++i) {
      if (body[i].isOneOf(tok::hash, tok::hashat))
        paramAt(i + 1, false);
      else if (body[i].is(tok::hashhash)) {
        if (i > 0)
          paramAt(i - 1, true);
        paramAt(i + 1, true);
      }
    }
  }
  for (auto [k, pasted] : it->second) {
    if (k >= args->getNumMacroArguments())
      continue;
    SourceLocation first, last;
    for (const Token *t = args->getUnexpArgument(k); t && t->isNot(tok::eof); ++t) {
      SourceLocation at = sm_.getSpellingLoc(t->getLocation());
      if (!first.isValid())
        first = at;
      last = at;
    }
    if (!first.isValid() || sm_.getFileID(first) != sm_.getFileID(last))
      continue;
    const IdentifierInfo *name = mi->params()[k];
    const IdentifierInfo *macro = nameTok.getIdentifierInfo();
    uses_.push_back({first, last, macro ? macro->getName().str() : "",
                     name ? name->getName().str() : "", pasted, nameTok.getLocation().isFileID()});
  }
}

std::vector<const UnexpandedMacroArgs::Use *>
UnexpandedMacroArgs::covering(SourceLocation spelling) const {
  std::vector<const Use *> out;
  if (!spelling.isValid())
    return out;
  FileID f = sm_.getFileID(spelling);
  unsigned off = sm_.getFileOffset(spelling);
  for (const Use &u : uses_)
    if (sm_.getFileID(u.begin) == f && sm_.getFileOffset(u.begin) <= off &&
        off <= sm_.getFileOffset(u.end))
      out.push_back(&u);
  return out;
}

bool UnexpandedMacroArgs::allDirect(SourceLocation spelling) const {
  for (const Use *u : covering(spelling))
    if (!u->direct)
      return false;
  return true;
}

const UnexpandedMacroArgs::Use *UnexpandedMacroArgs::find(SourceLocation spelling) const {
  std::vector<const Use *> all = covering(spelling);
  return all.empty() ? nullptr : all.front();
}

namespace {
/// Whether the callee of `call` is the name `name` written as a macro argument (through any
/// number of macros, each time as an argument, never produced by a macro body), directly the
/// callee (no parentheses around it), and spelled in the main file.
bool nameIsMacroArgument(const CallExpr *call, const std::string &name, const SourceManager &sm,
                         const LangOptions &lo) {
  const auto *ref = dyn_cast<DeclRefExpr>(call->getCallee()->IgnoreImpCasts());
  if (!ref || !ref->getLocation().isMacroID())
    return false;
  SourceLocation at = ref->getLocation();
  for (int guard = 0; at.isMacroID(); ++guard) {
    if (guard > 64 || !sm.isMacroArgExpansion(at))
      return false;
    at = sm.getImmediateSpellingLoc(at);
  }
  if (!sm.isInMainFile(at))
    return false;
  Token t;
  if (Lexer::getRawToken(at, t, sm, lo, true) || !t.is(tok::raw_identifier))
    return false;
  return t.getRawIdentifier() == name;
}

/// Why the call of `s` (in a stringified macro argument, or whose name is passed to a macro)
/// cannot be rewritten by defining its MPI name as a macro over the lines of its outermost macro
/// invocation; "" when it can, with `out` set and the lines added to `taken`.
std::string shadowRefusal(const CallSite &s, const std::vector<CallSite> &sites,
                          const SourceManager &sm, const LangOptions &lo, const Preprocessor *pp,
                          std::vector<std::pair<unsigned, unsigned>> &taken,
                          CallSite::Shadow &out) {
  if (!lo.C99 && !lo.CPlusPlus11)
    return "that needs variadic macros, C99 or C++11";
  const std::string name = s.spec->name;
  if (!pp)
    return "no preprocessor to ask whether '" + name + "' is a macro";
  const IdentifierInfo *ii = pp->getIdentifierInfo(name);
  if (ii && ii->hasMacroDefinition())
    return "'" + name + "' is itself a macro";
  CharSourceRange r = sm.getExpansionRange(s.call->getBeginLoc());
  SourceLocation b = r.getBegin(), e = r.getEnd();
  FileID f = sm.getFileID(b);
  if (!b.isFileID() || !sm.isInMainFile(b) || f != sm.getFileID(e))
    return "its macro invocation is not in the main file";
  const unsigned first = sm.getExpansionLineNumber(b), last = sm.getExpansionLineNumber(e);
  for (const CallSite &o : sites) {
    if (&o == &s || name != o.spec->name)
      continue;
    unsigned l = sm.getExpansionLineNumber(o.call->getCallee()->getExprLoc());
    if (sm.getFileID(sm.getExpansionLoc(o.call->getCallee()->getExprLoc())) == f && l >= first &&
        l <= last)
      return "another call of " + name + " is on its lines";
  }
  for (auto [a, z] : taken)
    if (a <= last && first <= z)
      return "another shadowed call shares its lines";
  // The lines as text: no directive among them, no line continuation into or out of them, and
  // nothing that could open a literal or comment before the invocation or after it on its lines.
  bool invalid = false;
  StringRef buf = sm.getBufferData(f, &invalid);
  if (invalid)
    return "its source text cannot be read";
  const unsigned from = sm.getFileOffset(sm.translateLineCol(f, first, 1));
  unsigned to = sm.getFileOffset(sm.translateLineCol(f, last, 1));
  to = static_cast<unsigned>(std::min<size_t>(buf.find('\n', to), buf.size()));
  StringRef lines = buf.slice(from, to);
  if (from >= 2 && buf[from - 1] == '\n' && buf[from - 2] == '\\')
    return "the line before it continues into it";
  if (lines.ends_with("\\"))
    return "its last line continues into the next";
  for (StringRef rest = lines; !rest.empty();) {
    auto [line, tail] = rest.split('\n');
    if (line.ltrim().starts_with("#"))
      return "a preprocessor directive is among its lines";
    rest = tail;
  }
  const unsigned bo = sm.getFileOffset(b), eo = sm.getFileOffset(e);
  StringRef before = buf.slice(from, bo), after = buf.slice(std::min<size_t>(eo + 1, to), to);
  for (StringRef t : {before, after})
    if (t.find_first_of("\"'") != StringRef::npos || t.contains("/*") || t.contains("R\""))
      return "a literal or comment shares its first or last line";
  taken.push_back({first, last});
  out.firstLine = sm.translateLineCol(f, first, 1);
  out.lastLine = sm.translateLineCol(f, last, 1);
  return "";
}
/// The name of the first MPI function this translation unit defines (a profiling wrapper of
/// the program's own), or "": an `MPI_X` whose `PMPI_X` the MPI header declares (a function of
/// the program's that merely starts with MPI_, `MPI_Send_row`, has none).
std::string firstDefinedMpiFunction(ASTContext &ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    ASTContext &ctx;
    std::string found;
    explicit Finder(ASTContext &c) : ctx(c) {}
    bool VisitFunctionDecl(FunctionDecl *fd) {
      if (found.empty() && fd->doesThisDeclarationHaveABody() && fd->getIdentifier() &&
          fd->getName().starts_with("MPI_") && fd->isExternC() &&
          !ctx.getTranslationUnitDecl()
               ->lookup(&ctx.Idents.get(("P" + fd->getName()).str()))
               .empty())
        found = fd->getNameAsString();
      return found.empty();
    }
  } f(ctx);
  f.TraverseDecl(ctx.getTranslationUnitDecl());
  return f.found;
}
} // namespace

/// The folder of the header that declares `call`'s callee (for an MPI function, the MPI's own
/// headers), or "".
static StringRef declaringHeaderDir(const CallExpr *call, const SourceManager &sm) {
  const FunctionDecl *decl = call->getDirectCallee();
  return decl ? llvm::sys::path::parent_path(sm.getFilename(sm.getFileLoc(decl->getLocation())))
              : StringRef();
}

/// The first dependence on a predefined macro the compiler and the tool disagree on, outside
/// the MPI's own headers (the folder `mpiDir`; they test the compiler, not the program's
/// layout), as a remark's reason; none if there is none.
static std::optional<std::string> divergentMacroUse(const MacroDivergence &macros,
                                                    StringRef mpiDir, const SourceManager &sm) {
  for (const MacroDivergence::Use &u : macros.uses()) {
    const StringRef file = sm.getFilename(u.loc);
    if (!mpiDir.empty() && llvm::sys::path::parent_path(file) == mpiDir)
      continue;
    PresumedLoc p = sm.getPresumedLoc(u.loc);
    return std::string(llvm::sys::path::filename(file)) + ":" +
           std::to_string(p.isValid() ? p.getLine() : 0) + " " + u.what +
           ", so this file may lay out its data otherwise in the compiler than in the tool";
  }
  return std::nullopt;
}

Analysis analyze(ASTContext &ctx, const Preprocessor *pp, const UnexpandedMacroArgs *unexpanded,
                 bool wholeProgram, const MacroDivergence *macros) {
  Analysis out;
  // The MPI header's MPI_VERSION. Unknown without a preprocessor, or when it is not one number:
  // then the large-count calls are rewritten (a header that declares them is an MPI-4 one).
  long mpiVersion = pp ? mpiVersionOf(*pp) : kMpiVersionUnknown;
  SourceManager &sm = ctx.getSourceManager();
  const LangOptions &lo = ctx.getLangOpts();
  Collector col;
  col.TraverseDecl(ctx.getTranslationUnitDecl());

  const std::string ownMpi = firstDefinedMpiFunction(ctx);
  FileScopeTypes files(ctx, wholeProgram); // also every function's flow, built once
  CallSiteValues calls(ctx, files);
  SendDeferral deferral(ctx);
  std::map<SourceLocation, size_t> siteAt;
  std::set<SourceLocation> headerCalls; // remarked once, however many instantiations
  std::set<size_t> calledTwice;          // sites of a passed name the macro body calls twice
  std::optional<std::optional<std::string>> divergence; // divergentMacroUse, once computed
  for (auto [call, fn] : col.calls) {
    std::string name = directCalleeName(call);
    if (name.rfind("MPI_", 0) != 0)
      continue;
    SourceLocation calleeLoc = sm.getFileLoc(call->getCallee()->getExprLoc());
    const CommCallSpec *spec = findCommCall(name);
    // The program's own MPI_X (a profiling wrapper that counts or times calls, then calls
    // PMPI_X): a tempi_X call would go around it, and a request tempi_Isend returns would be
    // completed by the program's MPI_Wait, which calls PMPI_Wait past libtempi's.
    if (!ownMpi.empty()) {
      if (spec && sm.isInMainFile(calleeLoc))
        out.remarks.push_back({call->getBeginLoc(),
                               name + " is left unchanged: this file defines '" + ownMpi +
                                   "' itself (a wrapper that TEMPI's calls would bypass)"});
      continue;
    }
    if (spec && macros && sm.isInMainFile(calleeLoc)) {
      // One answer for the file, taken at its first communication call (the MPI's header
      // folder is every MPI function's).
      if (!divergence)
        divergence = divergentMacroUse(*macros, declaringHeaderDir(call, sm), sm);
      if (*divergence) {
        out.remarks.push_back({call->getBeginLoc(), name + " is left unchanged: " + **divergence});
        continue;
      }
    }
    if (!spec) {
      if (const UnrewrittenCallSpec *u = findUnrewrittenCall(name); u && sm.isInMainFile(calleeLoc))
        if (std::string t = firstDerivedDatatype(call, *u, ctx); !t.empty())
          out.remarks.push_back(
              {call->getBeginLoc(), name + " is left unchanged: tempi-rewrite does not rewrite it "
                                    "(datatype '" + t + "'); " + u->runtime});
      continue;
    }
    if (!sm.isInMainFile(calleeLoc)) {
      // A user's header (an inline helper, a template): the tool edits only the file it
      // compiles, so the runtime serves the call; said, since nothing else shows it.
      // (Not the MPI's own headers, e.g. MPICH's C++ bindings in mpicxx.h: those lie in the
      // folder of the header that declares the MPI function.)
      const StringRef declDir = declaringHeaderDir(call, sm);
      const StringRef callDir = llvm::sys::path::parent_path(sm.getFilename(calleeLoc));
      if (!sm.isInSystemHeader(calleeLoc) && callDir != declDir &&
          headerCalls.insert(calleeLoc).second)
        out.remarks.push_back(
            {calleeLoc, name + " is left unchanged: it is in the header '" +
                            std::string(llvm::sys::path::filename(sm.getFilename(calleeLoc))) +
                            "', and tempi-rewrite edits only the file it compiles (the runtime "
                            "serves the call)"});
      continue;
    }
    if (spec->largeCount && mpiVersion != kMpiVersionUnknown && mpiVersion < 4) {
      out.remarks.push_back(
          {call->getBeginLoc(),
           name + " is left unchanged: tempi.h declares the large-count entry points only for "
                  "an MPI header with MPI_VERSION >= 4 (" +
               (mpiVersion == kMpiVersionUndefined
                    ? std::string("this one does not define MPI_VERSION")
                    : "this one has " + std::to_string(mpiVersion)) +
               ")"});
      continue;
    }
    if (!out.includeAnchor.isValid())
      if (const FunctionDecl *fd = call->getDirectCallee()) {
        FileID fid = sm.getFileID(sm.getFileLoc(fd->getLocation()));
        for (int guard = 0; fid.isValid() && fid != sm.getMainFileID() && guard < 64; ++guard) {
          SourceLocation inc = sm.getIncludeLoc(fid);
          if (!inc.isValid())
            break;
          if (sm.isInMainFile(inc)) {
            out.includeAnchor = inc;
            break;
          }
          fid = sm.getFileID(inc);
        }
      }

    Evaluator ev(ctx, files.flowOf(fn), nullptr, &calls);
    DatatypeResolver resolver(ev, nullptr, &files);
    std::optional<Point> at = ev.pointOf(call);

    CallSite site;
    site.call = call;
    site.spec = spec;
    // Editable exactly when the Transformer can edit the callee name and the closing
    // parenthesis where they are spelled (a macro argument is fine, a macro body is not).
    SourceLocation rp = call->getRParenLoc();
    auto nameRange = tooling::getFileRangeForEdit(
        CharSourceRange::getTokenRange(call->getCallee()->getExprLoc()), ctx, false);
    auto parenRange =
        tooling::getFileRangeForEdit(CharSourceRange::getTokenRange(rp, rp), ctx, false);
    if (!nameRange || !parenRange || !sm.isInMainFile(nameRange->getBegin()) ||
        sm.getFileID(nameRange->getBegin()) != sm.getFileID(parenRange->getBegin())) {
      site.editable = false;
      StringRef macro = Lexer::getImmediateMacroName(call->getBeginLoc(), sm, lo);
      std::string why = "the call is spelled inside the definition of macro '" + macro.str() + "'";
      // `MPI_CALL(MPI_Send, ...)` with `fn(__VA_ARGS__)` in the body: may be shadowed.
      if (nameIsMacroArgument(call, name, sm, lo)) {
        site.namePassed = true;
        site.shadowWhy = why;
      } else {
        site.siteWhy = {why, call->getBeginLoc()};
      }
    }
    // A call whose edited tokens (its name, its closing parenthesis) are spelled in a macro
    // argument that the macro also stringifies or pastes: the program would see the rewritten
    // text (`TRACE(MPI_Send(...))` printing "tempi_Send(..., &tempi_gen_plan_...)").
    // (Not for a name passed to a macro: the shadow leaves `#fn` and `fn ## x` as written.)
    if (unexpanded && site.siteWhy.reason.empty() && !site.namePassed) {
      const UnexpandedMacroArgs::Use *u =
          unexpanded->find(sm.getSpellingLoc(call->getCallee()->getExprLoc()));
      if (!u)
        u = unexpanded->find(sm.getSpellingLoc(rp));
      if (u) {
        std::string why = "the call is in the argument '" + u->param + "' of macro '" + u->macro +
                          "', which " + (u->pasted ? "pastes it (" : "stringifies it (#") +
                          u->param + (u->pasted ? " with ##)" : ")") +
                          "; rewriting the call would change that text";
        // A stringified call may still be rewritten through a shadow macro (decided once every
        // site is known); a pasted one never: its tokens are not expanded at all.
        SourceLocation nameAt = sm.getSpellingLoc(call->getCallee()->getExprLoc());
        if (u->pasted)
          site.siteWhy = {why, call->getBeginLoc()};
        else if (!unexpanded->allDirect(nameAt))
          site.siteWhy = {why + " (and it cannot be shadowed by a macro: the text reaches the "
                                "stringifying macro through another macro, which would expand "
                                "the shadow first)",
                          call->getBeginLoc()};
        else
          site.shadowWhy = why;
      }
    }
    for (int idx : spec->datatypeArgs) {
      if (static_cast<unsigned>(idx) >= call->getNumArgs())
        continue;
      const Expr *arg = call->getArg(static_cast<unsigned>(idx));
      DatatypeArg da;
      da.index = static_cast<unsigned>(idx);
      da.loc = arg->getBeginLoc();
      da.spelling = spelledText(arg, ctx);
      da.isArray = spec->datatypeArrays;
      if (idx == spec->datatypeArgs.front() && sendIgnoredInPlace(*spec, call, ctx)) {
        da.ignored = true;
      } else if (!at) {
        da.why = {"the call is in code the analysis cannot place (unreachable?)", da.loc};
      } else if (da.isArray) {
        // Every element proven, or the whole array is left to the runtime.
        Unresolved why;
        std::vector<TypeExprPtr> exprs = resolver.resolveArray(arg, *at, why);
        if (exprs.empty())
          da.why = why;
        da.elements = elementArgs(da, da.spelling, exprs);
        if (da.arrayProven() && !da.hasPlan()) {
          // Proven, but no element has a plan: say why, unless every element is predefined.
          da.predefined = true;
          for (const DatatypeArg &el : da.elements)
            if (!el.predefined) {
              da.predefined = false;
              da.why = {"'" + el.spelling + "' has no static plan: " + el.why.reason, da.loc};
              break;
            }
          if (da.predefined)
            da.why = {"every element of '" + da.spelling +
                          "' is a predefined datatype: nothing to specialize",
                      da.loc};
        }
      } else {
        Unresolved why;
        da.expr = resolver.resolve(arg, *at, why);
        if (!da.expr) {
          da.why = why;
          indexedArg(da, arg, call, *at, resolver, ctx);
        } else {
          planArg(da);
        }
      }
      site.args.push_back(std::move(da));
    }

    if (spec->deferredName && at &&
        std::any_of(site.args.begin(), site.args.end(),
                    [](const DatatypeArg &a) { return a.hasPlan(); }))
      site.deferral = deferral.prove(call, fn);

    SourceLocation key = calleeLoc;
    auto [it, inserted] = siteAt.emplace(key, out.sites.size());
    if (inserted) {
      out.sites.push_back(std::move(site));
    } else {
      CallSite &prev = out.sites[it->second];
      // One name passed to a macro whose body calls it twice: two calls, one site (template
      // instantiations of one call share its locations).
      if (prev.namePassed && call->getRParenLoc() != prev.call->getRParenLoc())
        calledTwice.insert(it->second);
      for (size_t i = 0; i < prev.args.size() && i < site.args.size(); ++i)
        if (!sameOutcome(prev.args[i], site.args[i]) && prev.siteWhy.reason.empty())
          prev.siteWhy = {"the call's datatypes differ between template instantiations",
                          prev.call->getBeginLoc()};
      // Deferred only when every instance is.
      if (prev.deferral && prev.deferral->deferred && (!site.deferral || !site.deferral->deferred))
        prev.deferral = site.deferral;
    }
    out.siteOf[call] = it->second;
  }
  // Stringified calls and names passed to a macro: shadowed where safe (CallSite::shadow), else
  // left alone with the reason.
  std::vector<std::pair<unsigned, unsigned>> shadowedLines;
  for (size_t i = 0; i < out.sites.size(); ++i) {
    CallSite &s = out.sites[i];
    if (s.shadowWhy.empty() || !s.rewritten())
      continue;
    CallSite::Shadow sh;
    std::string refusal =
        calledTwice.count(i)
            ? "another call of " + std::string(s.spec->name) + " is on its lines"
            : shadowRefusal(s, out.sites, sm, lo, pp, shadowedLines, sh);
    if (refusal.empty())
      s.shadow = sh;
    else
      s.siteWhy = {s.shadowWhy + " (and it cannot be shadowed by a macro: " + refusal + ")",
                   s.call->getBeginLoc()};
  }
  auto addShape = [&out](const StridedBlock &shape) {
    for (const StridedBlock &b : out.shapes)
      if (shapeKey(b) == shapeKey(shape))
        return;
    out.shapes.push_back(shape);
  };
  for (CallSite &s : out.sites) {
    if (!s.rewritten())
      continue;
    for (DatatypeArg &a : s.args) {
      if (a.ignored)
        continue;
      if (!a.isArray && !a.indexed()) {
        if (a.hasPlan())
          addShape(*a.shape);
        continue;
      }
      // One plan array per distinct content; sendtypes and recvtypes may share one.
      std::vector<std::string> entries;
      for (const DatatypeArg &el : a.elements) {
        entries.push_back(el.hasPlan() ? el.planSymbol : "");
        if (el.hasPlan())
          addShape(*el.shape);
      }
      auto same = std::find_if(out.planArrays.begin(), out.planArrays.end(),
                               [&](const Analysis::PlanArray &p) { return p.entries == entries; });
      if (same == out.planArrays.end()) {
        out.planArrays.push_back(
            {"tempi_gen_plans_" + std::to_string(out.planArrays.size()), std::move(entries)});
        same = std::prev(out.planArrays.end());
      }
      a.plansSymbol = same->symbol;
    }
  }
  return out;
}

} // namespace tempi::frontend
