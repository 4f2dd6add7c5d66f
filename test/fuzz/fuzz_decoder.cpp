/// \file
/// libFuzzer target: the runtime decoder (runtime/mpitypes), on types built through MPI calls.
/// The input bytes are decoded (ByteDecoder.h) into a constructor tree; a tree that translate()
/// accepts, that spans at most kMaxSpan bytes, that has no empty part and that the MPI builds is
/// then checked by the
/// differential oracle's per-type checks (test/oracle/Checker.h): the MPI's layout against
/// translate(), MPI_Pack against the reference packer on the raw and canonical IR, unpack round
/// trips, and decodeMpiType of the built handle: it must translate to the same layout and
/// canonical form. Trees the MPI refuses to build are skipped (the MPI's rules are not ours to
/// fuzz), and so are trees with an empty part (a zero count, block length or subsize, a
/// zero-size subtype): MPICH 4.0.2's own MPI_Pack divides by zero on some of them (found by this
/// target on its first run: struct(3, [1, 3, 0], ...) holding vector(6, 0, ...)). The MPI is initialized once (singleton) with errors returned, not fatal.
/// It is probed once, as tempi-check-types does (oracle::probeMpi).
#include "ByteDecoder.h"
#include "FuzzCheck.h"
#include "passes/PassRegistry.h"
#include "runtime/mpitypes/TypeBuild.h"
#include "test/oracle/Checker.h"

#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace tempi;

namespace {
constexpr int64_t kMaxSpan = 1 << 16;
/// The oracle's options, with what it learns from the MPI once (probeMpi: the MPI's alignments,
/// the types whose strided pack the MPI writes only partly).
oracle::CheckOptions checkOptions;

/// True when some part of the tree is empty (see the file comment).
bool hasEmptyPart(const TypeExpr &e) {
  const std::vector<int64_t> &in = e.integers;
  auto zeroIn = [&](size_t from, size_t to) {
    for (size_t i = from; i < to && i < in.size(); ++i)
      if (in[i] == 0) return true;
    return false;
  };
  const size_t n = in.empty() ? 0 : size_t(in[0] < 0 ? 0 : in[0]);
  switch (e.combiner) {
  case Combiner::Contiguous: if (zeroIn(0, 1)) return true; break;
  case Combiner::Vector: case Combiner::Hvector:
  case Combiner::IndexedBlock: case Combiner::HindexedBlock: if (zeroIn(0, 2)) return true; break;
  case Combiner::Indexed: case Combiner::Hindexed: case Combiner::Struct:
    if (zeroIn(0, 1 + n)) return true;
    break;
  case Combiner::Subarray: if (zeroIn(1 + n, 1 + 2 * n)) return true; break; // the subsizes
  default: break;
  }
  for (const TypeExprPtr &t : e.types) {
    Result<IRPtr> part = translate(*t);
    if (!part || (*part)->layout.size == 0 || hasEmptyPart(*t)) return true;
  }
  return false;
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  setenv("UCX_MEM_MMAP_HOOK_MODE", "none", 0); // UCX's mmap hooks crash under ASan
  MPI_Init(argc, argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  checkOptions.partlyPacked = oracle::probeMpi(/*builtinAlignments=*/false, stderr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::ByteDecoder dec(data, size);
  TypeExprPtr e = dec.type(int(dec.in(0, 4)));
  Result<IRPtr> raw = translate(*e);
  if (!raw) return 0;
  const Layout &L = (*raw)->layout;
  if (L.trueExtent > kMaxSpan || L.extent > kMaxSpan || L.extent < -kMaxSpan || L.size > kMaxSpan ||
      L.size == 0 || hasEmptyPart(*e))
    return 0;
  Result<MPI_Datatype> built = buildMpiType(*e);
  if (!built) return 0; // the MPI refuses this tree
  MPI_Datatype t = *built;
  freeBuiltType(t);
  oracle::Checker checker(uint64_t(size) * 1315423911u + (size ? data[0] : 0), checkOptions);
  if (!checker.checkType(*e)) {
    std::string why;
    for (const std::string &f : checker.failures()) why += f + "\n";
    FUZZ_CHECK(false, why);
  }
  return 0;
}
