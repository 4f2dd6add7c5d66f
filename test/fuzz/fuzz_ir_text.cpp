/// \file
/// libFuzzer target: the TypeIR text parser (parseIR) on arbitrary bytes.
/// Checks: no crash or sanitizer report; a parsed tree prints (with and without its layout
/// suffix) to text that parses back, the full print to an equal tree (equalIR, layouts included).
#include "FuzzCheck.h"
#include "passes/TextForm.h"
#include "passes/TypeIR.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace tempi;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  Result<IRPtr> parsed = parseIR(text);
  if (!parsed) {
    FUZZ_CHECK(!parsed.error().empty(), "a parse failure must say why");
    return 0;
  }
  const IRNode &n = **parsed;
  std::string printed = printIR(n, true);
  Result<IRPtr> again = parseIR(printed);
  FUZZ_CHECK(again, "printed text does not parse: " + printed + "\n  error: " + again.error());
  FUZZ_CHECK(equalIR(**again, n), "parse(print(x)) != x for " + printed);
  FUZZ_CHECK(printIR(**again, true) == printed, "print is not stable for " + printed);
  std::string bare = printIR(n, false);
  Result<IRPtr> bareAgain = parseIR(bare);
  FUZZ_CHECK(bareAgain, "printed text (no layout) does not parse: " + bare);
  return 0;
}
