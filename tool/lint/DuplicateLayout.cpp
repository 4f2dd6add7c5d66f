/// \file
/// duplicate-layout: the same layout built twice under different names in one file.
///
/// Two constructor calls of the main file whose proven chains canonicalize to the same TypeIR,
/// root layout included (same bytes in the same pack order, same lb, extent and size), and
/// whose output variables are spelled differently: the second is reported, with a note at the
/// first. Not reported: MPI_Type_dup (a copy is its purpose), calls in template instantiations
/// (a chain may differ per instantiation), chains that do not translate, and calls that define a
/// variable of the same name (the same type rebuilt in another function, or in a loop).
#include "tool/lint/CheckContext.h"

#include "passes/TextForm.h"

#include <map>

using namespace clang;

namespace tempi::lint {

void checkDuplicateLayout(const CheckContext &c, std::vector<Finding> &out) {
  std::map<std::string, const ConstructorSite *> first;
  for (const ConstructorSite &s : c.constructors) {
    if (!s.canonical || s.inInstantiation || s.variable.empty() ||
        s.spec->combiner == Combiner::Dup)
      continue;
    std::string key = printIR(*s.canonical, true);
    auto [it, inserted] = first.emplace(key, &s);
    if (inserted || it->second->variable == s.variable)
      continue;
    const ConstructorSite &a = *it->second;
    std::string form = s.shape ? printStrided(*s.shape) : printIR(*s.canonical, true);
    Finding f = findingAt("duplicate-layout", s.call,
                          "'" + s.variable + "' has the same layout as '" + a.variable + "' (" +
                              c.lineOf(a.call->getBeginLoc()) + "): " + form +
                              "; build it once and reuse '" + a.variable + "'",
                          c.ctx);
    f.notes.push_back({c.ctx.getSourceManager().getFileLoc(a.call->getCallee()->getExprLoc()),
                       "'" + a.variable + "' is built here"});
    out.push_back(std::move(f));
  }
}

} // namespace tempi::lint
