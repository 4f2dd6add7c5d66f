/// \file
/// tempi-opt: the opt-like driver of passes/. Reads one datatype per line from a file or stdin,
/// in either text form (a line starting with dense, stream or seq is TypeIR, anything else is a
/// TypeExpr, which is translated), runs the chosen passes and prints one line per datatype.
///
/// Exit codes (a tested contract): 0 every line handled; 1 at least one line failed to parse or
/// translate, reported as "<file>:<line>:<col>: error: <reason>" on stderr while the other lines
/// are still processed; 2 a bad command line or an unreadable input file.
#include "Options.h"

#include "passes/KernelPlan.h"
#include "passes/StridedBlock.h"
#include "passes/TextForm.h"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>

using namespace tempi;
using namespace tempi::opt;

namespace {

bool isIRText(std::string_view s) {
  for (std::string_view kw : {"dense", "stream", "seq"})
    if (s.substr(0, kw.size()) == kw &&
        (s.size() == kw.size() || !(std::isalnum(static_cast<unsigned char>(s[kw.size()])) ||
                                    s[kw.size()] == '_')))
      return true;
  return false;
}

/// "3:14: reason" -> (3, 14, "reason"); anything else -> (1, 1, whole message).
void splitPosition(const std::string &msg, size_t &line, size_t &col, std::string &reason) {
  line = col = 1;
  reason = msg;
  size_t c1 = msg.find(':');
  size_t c2 = c1 == std::string::npos ? std::string::npos : msg.find(':', c1 + 1);
  if (c2 == std::string::npos || c1 == 0 || c2 == c1 + 1)
    return;
  for (size_t i = 0; i < c2; ++i)
    if (i != c1 && !std::isdigit(static_cast<unsigned char>(msg[i])))
      return;
  line = std::stoul(msg.substr(0, c1));
  col = std::stoul(msg.substr(c1 + 1, c2 - c1 - 1));
  reason = msg.substr(c2 + 1);
  if (!reason.empty() && reason[0] == ' ')
    reason.erase(0, 1);
}

class Driver {
public:
  Driver(const Options &o, std::string fileName) : o_(o), file_(std::move(fileName)) {}

  /// Handles one input line; false when it failed (already reported).
  bool line(const std::string &raw, size_t lineNo) {
    std::string text = raw.substr(0, raw.find('#'));
    size_t first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos)
      return true;
    size_t last = text.find_last_not_of(" \t\r");
    std::string_view body(text.data() + first, last - first + 1);

    IRPtr ir;
    if (isIRText(body)) {
      if (o_.print == PrintMode::Expr)
        return report(lineNo, first + 1, "--print=expr needs a TypeExpr, this line is TypeIR");
      Result<IRPtr> r = parseIR(body);
      if (!r)
        return reportAt(lineNo, first, r.error());
      ir = *r;
    } else {
      Result<TypeExprPtr> e = parseExpr(body);
      if (!e)
        return reportAt(lineNo, first, e.error());
      if (o_.print == PrintMode::Expr) {
        std::cout << printExpr(**e) << "\n";
        return true;
      }
      Result<IRPtr> t = translate(**e);
      if (!t)
        return report(lineNo, first + 1, t.error());
      ir = *t;
    }
    ir = runPasses(ir);
    print(*ir);
    return true;
  }

private:
  IRPtr runPasses(IRPtr ir) const {
    if (!o_.explicitPasses)
      return canonicalize(ir);
    for (const PassInfo *p : o_.passes)
      ir = p->run(ir);
    return ir;
  }

  void print(const IRNode &n) const {
    switch (o_.print) {
    case PrintMode::IR:
      std::cout << printIR(n, true) << "\n";
      return;
    case PrintMode::Canonical:
      std::cout << printIR(n, false) << "\n";
      return;
    case PrintMode::Strided:
    case PrintMode::Plan: {
      std::optional<StridedBlock> b = toStridedBlock(n);
      if (!b)
        std::cout << "irregular\n";
      else if (o_.print == PrintMode::Strided)
        std::cout << printStrided(*b) << "\n";
      else
        std::cout << printPlan(makePlan(*b)) << "\n";
      return;
    }
    case PrintMode::Blocks: {
      std::string out = "blocks(";
      bool first = true;
      forEachBlock(n, o_.count, [&](int64_t off, int64_t bytes) {
        out += (first ? "" : ", ") + std::to_string(off) + "+" + std::to_string(bytes);
        first = false;
      });
      std::cout << out << ")\n";
      return;
    }
    case PrintMode::Expr:
      return;
    }
  }

  /// A message "l:c: reason" relative to the line's text, which starts at column first+1.
  bool reportAt(size_t lineNo, size_t first, const std::string &msg) {
    size_t l = 1, c = 1;
    std::string reason;
    splitPosition(msg, l, c, reason);
    return report(lineNo + l - 1, l == 1 ? c + first : c, reason);
  }

  bool report(size_t lineNo, size_t col, const std::string &reason) {
    std::cout.flush();
    std::cerr << file_ << ":" << lineNo << ":" << col << ": error: " << reason << "\n";
    return false;
  }

  const Options &o_;
  std::string file_;
};

} // namespace

int main(int argc, char **argv) {
  Result<Options> opts = parseOptions(std::vector<std::string>(argv + 1, argv + argc));
  if (!opts) {
    std::cerr << "tempi-opt: error: " << opts.error() << "\n" << usage();
    return 2;
  }
  if (opts->help) {
    std::cout << usage();
    return 0;
  }
  if (opts->version) {
    std::cout << "tempi-opt (TEMPI) 0.1.0\n";
    return 0;
  }
  if (opts->listPasses) {
    for (const PassInfo &p : allPasses())
      std::cout << p.name << "  " << p.summary << "\n";
    return 0;
  }
  std::ifstream file;
  std::istream *in = &std::cin;
  std::string name = "<stdin>";
  if (opts->input != "-") {
    file.open(opts->input);
    if (!file) {
      std::cerr << "tempi-opt: error: cannot read '" << opts->input << "'\n";
      return 2;
    }
    in = &file;
    name = opts->input;
  }
  Driver d(*opts, name);
  bool ok = true;
  std::string text;
  for (size_t lineNo = 1; std::getline(*in, text); ++lineNo)
    ok &= d.line(text, lineNo);
  return ok ? 0 : 1;
}
