/// \file
/// Parses tempi-opt's command line (see Options.h and usage()).
#include "Options.h"

#include <cerrno>
#include <cstdlib>

namespace tempi::opt {

std::string usage() {
  return "usage: tempi-opt [options] [file | -]\n"
         "Reads one datatype per line (TypeExpr text, or TypeIR text starting with dense, stream\n"
         "or seq; '#' starts a comment), runs canonicalization passes and prints one line each.\n"
         "\n"
         "options:\n"
         "  -passes=a,b,...   run exactly these passes, in this order, once each\n"
         "                    (default: every pass, repeated to a fixpoint = canonicalize)\n"
         "                    -passes= (empty) runs none: prints the translated IR\n"
         "  --print=MODE      ir        the resulting TypeIR with the root layout (default)\n"
         "                    canonical the resulting TypeIR without the layout (the shape)\n"
         "                    strided   its StridedBlock, or 'irregular' when a seq remains\n"
         "                    plan      the kernel plan of that StridedBlock\n"
         "                    expr      the parsed TypeExpr printed back (TypeExpr lines only)\n"
         "                    blocks    the byte ranges in pack order, offset+bytes, adjacent ones\n"
         "                              merged, for --count elements (the packed bytes' sources)\n"
         "  --count=N         elements for --print=blocks (default 1; element i at i * extent)\n"
         "  --list-passes     print every pass name and summary, in canonicalization order\n"
         "  --help            this text\n"
         "  --version         the version\n"
         "\n"
         "exit status: 0 ok; 1 some input line failed to parse or translate (each reported as\n"
         "<file>:<line>:<col>: error: <reason>, the other lines still printed); 2 bad command line.\n";
}

Result<Options> parseOptions(const std::vector<std::string> &args) {
  Options o;
  bool haveInput = false;
  for (const std::string &a : args) {
    if (a == "--help" || a == "-help" || a == "-h") {
      o.help = true;
    } else if (a == "--version") {
      o.version = true;
    } else if (a == "--list-passes") {
      o.listPasses = true;
    } else if (a.rfind("-passes=", 0) == 0 || a.rfind("--passes=", 0) == 0) {
      std::string list = a.substr(a.find('=') + 1);
      o.explicitPasses = true;
      o.passes.clear();
      size_t pos = 0;
      while (pos <= list.size() && !list.empty()) {
        size_t comma = list.find(',', pos);
        std::string name = list.substr(pos, comma == std::string::npos ? std::string::npos
                                                                       : comma - pos);
        const PassInfo *p = findPass(name);
        if (!p)
          return Result<Options>::fail("unknown pass '" + name +
                                       "' (see tempi-opt --list-passes)");
        o.passes.push_back(p);
        if (comma == std::string::npos)
          break;
        pos = comma + 1;
      }
    } else if (a.rfind("--print=", 0) == 0) {
      std::string m = a.substr(8);
      if (m == "ir")
        o.print = PrintMode::IR;
      else if (m == "canonical")
        o.print = PrintMode::Canonical;
      else if (m == "strided")
        o.print = PrintMode::Strided;
      else if (m == "plan")
        o.print = PrintMode::Plan;
      else if (m == "expr")
        o.print = PrintMode::Expr;
      else if (m == "blocks")
        o.print = PrintMode::Blocks;
      else
        return Result<Options>::fail("unknown --print mode '" + m +
                                     "' (expected ir, canonical, strided, plan, expr or blocks)");
    } else if (a.rfind("--count=", 0) == 0) {
      std::string v = a.substr(8);
      char *end = nullptr;
      errno = 0;
      long long n = std::strtoll(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || errno == ERANGE || n < 0 || n > 1000000)
        return Result<Options>::fail("--count needs an integer from 0 to 1000000, not '" + v +
                                     "'");
      o.count = n;
    } else if (a != "-" && !a.empty() && a[0] == '-') {
      return Result<Options>::fail("unknown option '" + a + "'");
    } else {
      if (haveInput)
        return Result<Options>::fail("more than one input file ('" + o.input + "' and '" + a +
                                     "')");
      o.input = a;
      haveInput = true;
    }
  }
  return Result<Options>::ok(o);
}

} // namespace tempi::opt
