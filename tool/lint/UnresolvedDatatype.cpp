/// \file
/// unresolved-datatype: a datatype argument of a communication call that the front end cannot
/// resolve statically, with the front end's own reason (the same sentence tempi-rewrite's
/// remarks give: "'t' comes from a parameter of 'f'", "count depends on 'argc' ...").
/// Arguments that resolve to a chain without a static plan (irregular, too many dimensions) are
/// not reported here: the GPU-shape checks speak about those.
///
/// invalid-datatype: a constructor call whose proven chain MPI would reject (a negative count, a
/// subarray start outside its size, ...), with translate()'s message.
#include "tool/lint/CheckContext.h"

using namespace clang;

namespace tempi::lint {

void checkUnresolvedDatatype(const CheckContext &c, std::vector<Finding> &out) {
  const SourceManager &sm = c.ctx.getSourceManager();
  for (const frontend::CallSite &s : c.analysis.sites) {
    for (const frontend::DatatypeArg &a : s.args) {
      // A predefined type needs no plan: the front end says so, it is nothing to report. Nor is
      // a datatype array (MPI_Alltoallw) whose every element is proven.
      if (a.expr || frontend::findNamedType(a.spelling) || a.arrayProven())
        continue;
      const Expr *arg = s.call->getArg(a.index);
      Finding f = findingAt("unresolved-datatype", arg,
                            "datatype '" + a.spelling + "' of " + s.spec->name +
                                " cannot be resolved at compile time: " + a.why.reason,
                            c.ctx);
      if (a.why.loc.isValid() && sm.getFileLoc(a.why.loc) != f.loc &&
          sm.isInMainFile(sm.getFileLoc(a.why.loc)))
        f.notes.push_back({sm.getFileLoc(a.why.loc), "the reason is here"});
      out.push_back(std::move(f));
    }
  }
}

void checkInvalidDatatype(const CheckContext &c, std::vector<Finding> &out) {
  for (const ConstructorSite &s : c.constructors)
    if (!s.invalid.empty())
      out.push_back(findingAt("invalid-datatype", s.call,
                              "'" + s.variable + "' is not a valid datatype: " + s.invalid, c.ctx));
}

} // namespace tempi::lint
