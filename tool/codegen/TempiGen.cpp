/// \file
/// tempi-gen: the test driver of the code generator (test/codegen pins its output).
///
///   tempi-gen --emit=plan|kernels [--source-name=NAME] [FILE]
///
/// Reads one datatype per line from FILE (or stdin): either a TypeExpr in its text form
/// (vector(4, 1, 8, MPI_DOUBLE)), which goes through translate + canonicalize + toStridedBlock like
/// the tool's front end, or a canonical shape spelled as printStrided prints it
/// (strided(start=0, bytes=8, dims=[(4, 64)], extent=8, lb=0)), which is taken as is. Blank lines
/// and lines starting with '#' are skipped. --emit=plan prints planDefinition of each shape (a
/// comment for a type that is irregular or has too many dimensions); --emit=kernels prints
/// generateKernelSource of all of them. Any line that does not parse or translate is an error
/// naming the line: exit code 1, nothing printed on stdout.
#include "passes/PassRegistry.h"
#include "passes/StridedBlock.h"
#include "passes/TextForm.h"
#include "passes/TypeIR.h"
#include "tool/codegen/KernelGen.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace tempi;

namespace {

/// A minimal parser for printStrided's output.
class StridedParser {
public:
  explicit StridedParser(std::string_view text) : t_(text) {}

  Result<StridedBlock> parse() {
    StridedBlock b;
    if (!lit("strided(") || !field("start", b.start) || !lit(",") || !field("bytes", b.bytes) ||
        !lit(",") || !lit("dims") || !lit("=") || !lit("["))
      return fail();
    if (!lit("]")) {
      do {
        StridedBlock::Dim d;
        if (!lit("(") || !num(d.count) || !lit(",") || !num(d.stride) || !lit(")"))
          return fail();
        b.dims.push_back(d);
      } while (lit(","));
      if (!lit("]"))
        return fail();
    }
    if (!lit(",") || !field("extent", b.extent) || !lit(",") || !field("lb", b.lb) || !lit(")"))
      return fail();
    skip();
    if (p_ != t_.size())
      return fail();
    return Result<StridedBlock>::ok(b);
  }

private:
  Result<StridedBlock> fail() const {
    return Result<StridedBlock>::fail("column " + std::to_string(p_ + 1) +
                                      ": expected strided(start=N, bytes=N, dims=[(N, N), ...], "
                                      "extent=N, lb=N)");
  }
  void skip() {
    while (p_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[p_])))
      ++p_;
  }
  bool lit(std::string_view s) {
    skip();
    if (t_.substr(p_, s.size()) != s)
      return false;
    p_ += s.size();
    return true;
  }
  bool num(int64_t &v) {
    skip();
    size_t q = p_;
    if (q < t_.size() && t_[q] == '-')
      ++q;
    if (q >= t_.size() || !std::isdigit(static_cast<unsigned char>(t_[q])))
      return false;
    std::string digits(t_.substr(p_, q - p_));
    while (q < t_.size() && std::isdigit(static_cast<unsigned char>(t_[q])))
      digits += t_[q++];
    errno = 0;
    char *end = nullptr;
    long long x = std::strtoll(digits.c_str(), &end, 10);
    if (errno == ERANGE)
      return false;
    v = x;
    p_ = q;
    return true;
  }
  bool field(std::string_view name, int64_t &v) { return lit(name) && lit("=") && num(v); }

  std::string_view t_;
  size_t p_ = 0;
};

/// The canonical shape of one input line; nullopt when the type is irregular.
Result<std::optional<StridedBlock>> shapeOf(const std::string &line) {
  using R = Result<std::optional<StridedBlock>>;
  if (line.rfind("strided(", 0) == 0) {
    auto b = StridedParser(line).parse();
    if (!b)
      return R::fail(b.error());
    return R::ok(*b);
  }
  auto e = parseExpr(line);
  if (!e)
    return R::fail(e.error());
  auto ir = translate(**e);
  if (!ir)
    return R::fail(ir.error());
  return R::ok(toStridedBlock(*canonicalize(*ir)));
}

int usage() {
  std::cerr << "usage: tempi-gen --emit=plan|kernels [--source-name=NAME] [FILE]\n";
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  std::string emit, sourceName = "<stdin>", file;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--emit=", 0) == 0)
      emit = a.substr(7);
    else if (a.rfind("--source-name=", 0) == 0)
      sourceName = a.substr(14);
    else if (a == "-h" || a == "--help")
      return usage(), 0;
    else if (a.size() > 1 && a[0] == '-')
      return std::cerr << "tempi-gen: error: unknown option '" << a << "'\n", usage();
    else if (file.empty())
      file = a;
    else
      return std::cerr << "tempi-gen: error: more than one input file\n", usage();
  }
  if (emit != "plan" && emit != "kernels")
    return std::cerr << "tempi-gen: error: --emit=plan or --emit=kernels is required\n", usage();

  std::ifstream in;
  if (!file.empty()) {
    in.open(file);
    if (!in)
      return std::cerr << "tempi-gen: error: cannot read '" << file << "'\n", 1;
    if (sourceName == "<stdin>")
      sourceName = file;
  }
  std::istream &input = file.empty() ? std::cin : in;

  std::ostringstream out;
  std::vector<StridedBlock> shapes;
  std::string line;
  for (int lineNo = 1; std::getline(input, line); ++lineNo) {
    size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos || line[b] == '#')
      continue;
    line = line.substr(b, line.find_last_not_of(" \t\r") + 1 - b);
    auto shape = shapeOf(line);
    if (!shape) {
      std::cerr << "tempi-gen: error: line " << lineNo << ": " << shape.error() << "\n";
      return 1;
    }
    if (!*shape) {
      if (emit == "plan")
        out << "/* line " << lineNo << ": irregular, no static plan */\n";
      continue;
    }
    shapes.push_back(**shape);
    if (emit == "plan") {
      std::string def = codegen::planDefinition(**shape);
      if (def.empty())
        out << "/* line " << lineNo << ": " << (*shape)->dims.size()
            << " dimensions, more than TEMPI_MAX_DIMS: no static plan */\n";
      else
        out << def << "\n";
    }
  }
  if (emit == "kernels")
    out << codegen::generateKernelSource(shapes, sourceName);
  std::cout << out.str();
  return 0;
}
