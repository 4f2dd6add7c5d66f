/// \file
/// non-canonical-type: a constructor chain that one simpler constructor call builds exactly.
///
/// For every constructor call whose chain the front end proves and whose canonical form is a
/// StridedBlock over one predefined leaf type (all leaves the same single-field type), it builds
/// the one-call candidates (MPI_Type_contiguous, _vector, _create_hvector, _create_subarray in C
/// order), canonicalizes each with passes/ and keeps those whose canonical IR equals the chain's,
/// layout included (lb, extent, true bounds, size): same bytes, same pack order, same extent, so
/// the replacement changes nothing an MPI call can observe. It reports when the cheapest such
/// candidate is cheaper than the chain (weights below), with the candidate as a fix-it replacing
/// the call when the call is spelled in the main file outside a macro body, is not in a template
/// instantiation, and the candidate can be written as one C expression (a subarray needs compound
/// literals: C only). Nothing is reported for a chain it cannot prove, or over pair types.
#include "tool/lint/CheckContext.h"

#include "passes/PassRegistry.h"
#include "passes/TextForm.h"

#include <climits>

using namespace clang;

namespace tempi::lint {

namespace {

/// How heavy a constructor is to read and to decode: a chain costs the sum over its constructor
/// nodes of 1 + weight (named leaves cost nothing).
int weight(Combiner c) {
  switch (c) {
  case Combiner::Named: return 0;
  case Combiner::Dup: case Combiner::Contiguous: return 0;
  case Combiner::Vector: case Combiner::Hvector: case Combiner::Resized: return 1;
  case Combiner::Subarray: return 2;
  case Combiner::IndexedBlock: case Combiner::HindexedBlock: return 3;
  case Combiner::Indexed: case Combiner::Hindexed: return 4;
  case Combiner::Struct: return 5;
  case Combiner::Darray: return 6;
  }
  return 6;
}

int cost(const TypeExpr &e) {
  if (e.combiner == Combiner::Named)
    return 0;
  int c = 1 + weight(e.combiner);
  for (const TypeExprPtr &t : e.types)
    c += cost(*t);
  return c;
}

/// The single leaf type of a chain, or "" when the leaves differ.
void leaves(const TypeExpr &e, std::vector<std::string> &out) {
  if (e.combiner == Combiner::Named) {
    out.push_back(e.name);
    return;
  }
  for (const TypeExprPtr &t : e.types)
    leaves(*t, out);
}

/// "vector of contiguous", "struct", "resized of hvector of hvector".
std::string describe(const TypeExpr &e) {
  if (e.combiner == Combiner::Named)
    return e.name;
  std::string s = combinerName(e.combiner);
  if (e.types.size() == 1 && e.types[0]->combiner != Combiner::Named)
    s += " of " + describe(*e.types[0]);
  if (e.combiner == Combiner::Struct && e.types.size() == 1)
    s = "1-field " + s;
  return s;
}

struct Candidate {
  TypeExprPtr expr;
  std::string cCall; ///< the C call with "%OUT%" for the output argument ("" when not writable)
};

std::string list(const std::vector<int64_t> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

bool fitsInt(std::initializer_list<int64_t> vs) {
  for (int64_t v : vs)
    if (v < INT_MIN || v > INT_MAX)
      return false;
  return true;
}

std::vector<Candidate> candidates(const StridedBlock &sb, const Layout &layout,
                                  const std::string &leaf, int64_t size, bool cLanguage) {
  std::vector<Candidate> out;
  if (size <= 0 || sb.bytes <= 0 || sb.bytes % size != 0)
    return out;
  TypeExprPtr t = expr::named(leaf);
  int64_t bl = sb.bytes / size;
  auto n = [](int64_t v) { return std::to_string(v); };
  if (sb.dims.empty()) {
    out.push_back({expr::contiguous(bl, t),
                   fitsInt({bl}) ? "MPI_Type_contiguous(" + n(bl) + ", " + leaf + ", %OUT%)" : ""});
    return out;
  }
  if (sb.dims.size() == 1) {
    const StridedBlock::Dim &d = sb.dims[0];
    if (d.stride % size == 0)
      out.push_back({expr::vector(d.count, bl, d.stride / size, t),
                     fitsInt({d.count, bl, d.stride / size})
                         ? "MPI_Type_vector(" + n(d.count) + ", " + n(bl) + ", " +
                               n(d.stride / size) + ", " + leaf + ", %OUT%)"
                         : ""});
    out.push_back({expr::hvector(d.count, bl, d.stride, t),
                   fitsInt({d.count, bl}) ? "MPI_Type_create_hvector(" + n(d.count) + ", " + n(bl) +
                                                ", " + n(d.stride) + ", " + leaf + ", %OUT%)"
                                          : ""});
  }
  // A C-order subarray: the run is the fastest dimension, each stride a whole multiple of the
  // previous one, the outermost size fixed by the extent.
  size_t nd = sb.dims.size() + 1;
  std::vector<int64_t> sizes(nd), subsizes(nd), starts(nd);
  if (sb.dims[0].stride <= 0 || sb.dims[0].stride % size != 0 || sb.start % size != 0 ||
      layout.lb != 0 || layout.extent <= 0)
    return out;
  sizes[nd - 1] = sb.dims[0].stride / size;
  subsizes[nd - 1] = bl;
  for (size_t j = 1; j < sb.dims.size(); ++j) {
    const auto &inner = sb.dims[j - 1], &outer = sb.dims[j];
    if (outer.stride <= 0 || outer.stride % inner.stride != 0)
      return out;
    sizes[nd - 1 - j] = outer.stride / inner.stride;
    subsizes[nd - 1 - j] = inner.count;
  }
  const auto &last = sb.dims.back();
  if (layout.extent % last.stride != 0)
    return out;
  sizes[0] = layout.extent / last.stride;
  subsizes[0] = last.count;
  int64_t off = sb.start / size;
  for (size_t k = nd; k-- > 1;) {
    starts[k] = off % sizes[k];
    off /= sizes[k];
  }
  starts[0] = off;
  for (size_t k = 0; k < nd; ++k)
    if (sizes[k] <= 0 || subsizes[k] <= 0 || starts[k] < 0 || starts[k] + subsizes[k] > sizes[k] ||
        !fitsInt({sizes[k]}))
      return out;
  std::string call;
  if (cLanguage)
    call = "MPI_Type_create_subarray(" + n(static_cast<int64_t>(nd)) + ", (int[]){" + list(sizes) +
           "}, (int[]){" + list(subsizes) + "}, (int[]){" + list(starts) + "}, MPI_ORDER_C, " +
           leaf + ", %OUT%)";
  out.push_back({expr::subarray(sizes, subsizes, starts, Order::C, t), call});
  return out;
}

} // namespace

void checkNonCanonicalType(const CheckContext &c, std::vector<Finding> &out) {
  bool cLanguage = !c.ctx.getLangOpts().CPlusPlus;
  for (const ConstructorSite &s : c.constructors) {
    // MPI_Type_dup copies on purpose (a library's private handle): not a chain to simplify.
    if (!s.expr || !s.canonical || !s.shape || s.inInstantiation ||
        s.expr->combiner == Combiner::Dup)
      continue;
    std::vector<std::string> names;
    leaves(*s.expr, names);
    if (names.empty())
      continue;
    bool same = true;
    for (const std::string &n : names)
      same = same && n == names[0];
    const NamedTypeInfo *info = frontend::findNamedType(names[0]);
    if (!same || !info || info->nfields != 1 || info->size != info->extent)
      continue;
    int chainCost = cost(*s.expr);
    const Candidate *best = nullptr;
    int bestCost = chainCost;
    std::vector<Candidate> cands =
        candidates(*s.shape, s.canonical->layout, names[0], info->size, cLanguage);
    for (const Candidate &cand : cands) {
      int k = cost(*cand.expr);
      if (k >= bestCost)
        continue;
      Result<IRPtr> ir = translate(*cand.expr);
      if (!ir || !equalIR(*canonicalize(*ir), *s.canonical))
        continue;
      best = &cand;
      bestCost = k;
    }
    if (!best)
      continue;
    std::string text = printExpr(*best->expr);
    std::string call = best->cCall;
    if (!call.empty())
      call.replace(call.find("%OUT%"), 5, s.output);
    Finding f = findingAt("non-canonical-type", s.call,
                          "'" + s.variable + "' is a " + describe(*s.expr) +
                              " that one simpler constructor builds exactly: " +
                              (call.empty() ? text : call),
                          c.ctx);
    if (s.editable && !call.empty())
      f.fixes.push_back({s.callRange, call});
    out.push_back(std::move(f));
  }
}

} // namespace tempi::lint
