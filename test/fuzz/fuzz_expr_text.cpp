/// \file
/// libFuzzer target: the TypeExpr text parser (parseExpr) on arbitrary bytes.
/// Checks: no crash or sanitizer report on any input; a parsed expression prints to text that
/// parses back to an equal expression and prints identically (the round trip TextForm.h
/// promises); translate() of a parsed expression returns a value or an error, never crashes, and
/// a translated root has a layout that checkedNaturalLayout does not trip over.
#include "FuzzCheck.h"
#include "passes/TextForm.h"
#include "passes/TypeIR.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace tempi;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  Result<TypeExprPtr> parsed = parseExpr(text);
  if (!parsed) {
    FUZZ_CHECK(!parsed.error().empty(), "a parse failure must say why");
    return 0;
  }
  const TypeExpr &e = **parsed;
  std::string printed = printExpr(e);
  Result<TypeExprPtr> again = parseExpr(printed);
  FUZZ_CHECK(again, "printed text does not parse: " + printed + "\n  error: " + again.error());
  FUZZ_CHECK(**again == e, "parse(print(x)) != x for " + printed);
  FUZZ_CHECK(printExpr(**again) == printed, "print is not stable for " + printed);

  Result<IRPtr> ir = translate(e);
  if (!ir) {
    FUZZ_CHECK(!ir.error().empty(), "a translate failure must say why");
    return 0;
  }
  (void)checkedNaturalLayout(**ir);
  return 0;
}
