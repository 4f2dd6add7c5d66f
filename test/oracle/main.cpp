/// \file
/// tempi-check-types: the differential oracle. Checks random (or given) datatypes against the MPI
/// it is linked with; see Checker.cpp for what is compared.
///
///   tempi-check-types --count N [--seed S] [--verbose]   random types, pools and order pairs
///   tempi-check-types --case NAME                         a fixed set (cuboid, halo, ...)
///   tempi-check-types --expr 'vector(2, 1, 3, MPI_INT)'   one type in text form
///   ... --builtin-alignments    check passes/' built-in alignment table instead of the MPI's
///
/// First probes the MPI (probeMpi in Checker.h): passes/ takes the MPI's alignment of each
/// predefined type, and the types a strided MPI_Pack writes only part of are found; each finding
/// is printed as a "note:" line. Then prints each failing type in text form, then the exact line
/// "N passed, M failed"; exits 1 when anything failed, 2 on bad usage.
#include "Checker.h"
#include "FixedCases.h"

#include "passes/RandomTypes.h"
#include "passes/TextForm.h"
#include "runtime/mpitypes/NamedHandles.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace tempi;

namespace {

int usage(const char *why) {
  std::fprintf(stderr,
               "tempi-check-types: %s\n"
               "usage: tempi-check-types --count N [--seed S] [--verbose] [--builtin-alignments]\n"
               "       tempi-check-types --case NAME [--verbose] [--builtin-alignments]\n"
               "       tempi-check-types --expr TEXT [--verbose] [--builtin-alignments]\n",
               why);
  return 2;
}

bool parseInt(const char *s, long long &out) {
  char *end = nullptr;
  errno = 0;
  out = std::strtoll(s, &end, 10);
  return errno == 0 && end && *end == '\0' && end != s;
}

} // namespace

int main(int argc, char **argv) {
  long long count = -1, seed = 1;
  std::string caseName, exprText;
  bool verbose = false, builtinAlignments = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--count") {
      const char *v = value();
      if (!v || !parseInt(v, count) || count < 0) return usage("--count needs a non-negative integer");
    } else if (a == "--seed") {
      const char *v = value();
      if (!v || !parseInt(v, seed)) return usage("--seed needs an integer");
    } else if (a == "--case") {
      const char *v = value();
      if (!v) return usage("--case needs a name");
      caseName = v;
    } else if (a == "--expr") {
      const char *v = value();
      if (!v) return usage("--expr needs a type in text form");
      exprText = v;
    } else if (a == "--verbose") {
      verbose = true;
    } else if (a == "--builtin-alignments") {
      builtinAlignments = true;
    } else {
      return usage(("unknown argument '" + a + "'").c_str());
    }
  }
  if ((count >= 0) + !caseName.empty() + !exprText.empty() != 1)
    return usage("give exactly one of --count, --case, --expr");

  MPI_Init(&argc, &argv);
  int passed = 0, failed = 0;
  oracle::CheckOptions options{verbose, /*allCounts=*/count < 0, {}};
  options.partlyPacked = oracle::probeMpi(builtinAlignments, stdout);
  oracle::Checker checker(static_cast<uint64_t>(seed) * 0x9E3779B97F4A7C15ull + 1, options);
  int status = 0;
  if (!caseName.empty()) {
    if (!oracle::runCase(caseName, checker, passed, failed)) {
      std::string names;
      for (const std::string &n : oracle::caseNames()) names += " " + n;
      std::fprintf(stderr, "tempi-check-types: no case '%s'; cases:%s\n", caseName.c_str(), names.c_str());
      status = 2;
    }
  } else if (!exprText.empty()) {
    auto e = parseExpr(exprText);
    if (!e) {
      std::fprintf(stderr, "tempi-check-types: %s\n", e.error().c_str());
      status = 2;
    } else {
      (checker.checkType(**e) ? passed : failed)++;
    }
  } else {
    RandomTypeOptions opt;
    opt.allowName = [](const char *n) { return namedTypeHandle(n) != MPI_DATATYPE_NULL; };
    RandomTypes gen(static_cast<uint64_t>(seed), opt);
    for (long long i = 0; i < count; ++i) {
      bool ok;
      if (i % 50 == 7) {
        TypePool p = gen.nextPool();
        ok = checker.checkPool(p.what, p.members);
      } else if (i % 50 == 31) {
        auto pair = gen.rowColumnPair();
        ok = checker.checkDifferentOrder(pair[0], pair[1]);
      } else {
        ok = checker.checkType(*gen.next());
      }
      (ok ? passed : failed)++;
    }
  }
  if (!verbose)
    for (const std::string &f : checker.failures()) std::printf("%s\n", f.c_str());
  std::printf("%d passed, %d failed\n", passed, failed);
  std::fflush(stdout);
  MPI_Finalize();
  if (status) return status;
  return failed ? 1 : 0;
}
