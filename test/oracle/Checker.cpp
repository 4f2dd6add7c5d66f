/// \file
/// The differential checks behind tempi-check-types. MPICH is the reference: its size, extents and
/// MPI_Pack/MPI_Unpack bytes are compared with translate()'s Layout and the host reference packer
/// run on the raw IR, the canonical IR and the StridedBlock (when there is one); the decoder must
/// give back a type that translates to the same layout and packs the same bytes.
#include "Checker.h"

#include "passes/PassRegistry.h"
#include "passes/ReferencePacker.h"
#include "passes/StridedBlock.h"
#include "passes/TextForm.h"
#include "passes/TypeIR.h"
#include "runtime/mpitypes/NamedHandles.h"
#include "runtime/mpitypes/NamedProbe.h"
#include "runtime/mpitypes/TypeBuild.h"
#include "runtime/mpitypes/TypeDecode.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <optional>
#include <set>
#include <sstream>

namespace tempi::oracle {
namespace {

std::string str(const Layout &l) {
  std::ostringstream s;
  s << "lb=" << l.lb << " extent=" << l.extent << " true_lb=" << l.trueLb
    << " true_extent=" << l.trueExtent << " size=" << l.size;
  return s.str();
}

/// The bytes [lo, hi) a node touches, relative to its parent's origin (computed from the IR we
/// built, independently of the passes under test). Returns false when it touches nothing.
bool touched(const IRNode &n, int64_t &lo, int64_t &hi) {
  switch (n.kind) {
  case IRKind::Dense:
    if (n.bytes <= 0) return false;
    lo = n.offset;
    hi = n.offset + n.bytes;
    return true;
  case IRKind::Stream: {
    int64_t clo, chi;
    if (n.count <= 0 || !n.child || !touched(*n.child, clo, chi)) return false;
    int64_t last = (n.count - 1) * n.stride;
    lo = n.offset + clo + std::min<int64_t>(0, last);
    hi = n.offset + chi + std::max<int64_t>(0, last);
    return true;
  }
  case IRKind::Seq: {
    bool any = false;
    for (const IRPtr &c : n.elems) {
      int64_t clo, chi;
      if (!c || !touched(*c, clo, chi)) continue;
      lo = any ? std::min(lo, clo) : clo;
      hi = any ? std::max(hi, chi) : chi;
      any = true;
    }
    if (any) { lo += n.offset; hi += n.offset; }
    return any;
  }
  }
  return false;
}

/// A buffer covering every byte `count` elements of a type may touch, with guard bytes.
struct Buffer {
  std::vector<unsigned char> bytes;
  int64_t originAt = 0; ///< index of the user's buffer pointer inside bytes
  unsigned char *base() { return bytes.data() + originAt; }
};

Buffer makeBuffer(const IRNode &root, int64_t count) {
  int64_t lo = 0, hi = 0;
  const Layout &l = root.layout;
  int64_t span = std::max<int64_t>(0, (count - 1) * l.extent), neg = std::min<int64_t>(0, (count - 1) * l.extent);
  if (touched(root, lo, hi)) {
    lo += neg;
    hi += span;
  }
  // Also cover MPI's true bounds, in case the IR and the MPI disagree (that is reported, not a crash).
  lo = std::min({lo, l.trueLb + neg, int64_t(0)});
  hi = std::max({hi, l.trueLb + l.trueExtent + span, int64_t(1)});
  const int64_t guard = 64;
  Buffer b;
  b.bytes.resize(static_cast<size_t>(hi - lo + 2 * guard));
  b.originAt = guard - lo;
  return b;
}

void fillRandom(std::vector<unsigned char> &v, std::mt19937_64 &rng) {
  size_t i = 0;
  for (; i + 8 <= v.size(); i += 8) {
    uint64_t x = rng();
    std::memcpy(&v[i], &x, 8);
  }
  for (; i < v.size(); ++i) v[i] = static_cast<unsigned char>(rng());
}

/// Bytes the MPI leaves undefined are skipped (mask[i] false); an empty mask compares all.
std::string firstDifference(const unsigned char *a, const unsigned char *b, int64_t n,
                            const std::vector<bool> &mask = {}) {
  for (int64_t i = 0; i < n; ++i)
    if (a[i] != b[i] && (mask.empty() || mask[i])) {
      std::ostringstream s;
      s << "first difference at byte " << i << " of " << n << " (" << int(a[i]) << " vs " << int(b[i]) << ")";
      return s.str();
    }
  return "";
}

/// True when the type holds a predefined type in `names` (the ones the MPI packs only partly).
bool holdsAny(const TypeExpr &e, const std::set<std::string> &names) {
  if (e.combiner == Combiner::Named) return names.count(e.name) != 0;
  for (const TypeExprPtr &t : e.types)
    if (t && holdsAny(*t, names)) return true;
  return false;
}

/// "0-9, 16-25": the runs of true in `written`.
std::string byteRuns(const std::vector<bool> &written) {
  std::string s;
  for (size_t i = 0; i < written.size();) {
    if (!written[i]) { ++i; continue; }
    size_t j = i;
    while (j + 1 < written.size() && written[j + 1]) ++j;
    if (!s.empty()) s += ", ";
    s += std::to_string(i) + (j > i ? "-" + std::to_string(j) : "");
    i = j + 1;
  }
  return s.empty() ? "none" : s;
}

/// Which bytes of `out` an MPI operation writes: run it over two complementary backgrounds.
template <typename Op>
std::vector<bool> writtenMask(size_t n, const std::vector<unsigned char> &background, Op op) {
  std::vector<unsigned char> a = background, b = background;
  for (unsigned char &x : b) x = static_cast<unsigned char>(~x);
  op(a);
  op(b);
  std::vector<bool> m(n);
  for (size_t i = 0; i < n; ++i) m[i] = a[i] == static_cast<unsigned char>(~b[i]) ? false : true;
  // a[i] == ~b[i] means the byte kept its (complementary) background: not written.
  return m;
}

/// True when some byte is touched twice by `count` elements (the unpack result then depends on
/// how many bytes of each overlapping write the unpacker stores).
bool overlapping(const IRNode &root, int64_t count) {
  std::vector<std::pair<int64_t, int64_t>> r;
  forEachBlock(root, count, [&](int64_t off, int64_t bytes) { r.push_back({off, off + bytes}); });
  std::sort(r.begin(), r.end());
  for (size_t i = 1; i < r.size(); ++i)
    if (r[i].first < r[i - 1].second) return true;
  return false;
}

struct MpiType {
  MPI_Datatype t = MPI_DATATYPE_NULL;
  ~MpiType() { freeBuiltType(t); }
};

} // namespace

std::set<std::string> probeMpi(bool builtinAlignments, std::FILE *out) {
  for (const AlignmentDifference &d : calibrateNamedTypeAlignments())
    std::fprintf(out, "note: the MPI aligns %s to %lld, passes/' built-in table to %lld%s\n",
                 d.name, (long long)d.now, (long long)d.builtin,
                 builtinAlignments ? " (--builtin-alignments: checking the table's)" : "");
  if (builtinAlignments) resetNamedTypeAlignments();
  std::set<std::string> partly;
  for (const NamedTypeInfo &info : allNamedTypes()) {
    MPI_Datatype h = namedTypeHandle(info.name);
    if (h == MPI_DATATYPE_NULL) continue;
    std::vector<bool> written = stridedPackWrittenBytes(h);
    if (written.empty() || std::find(written.begin(), written.end(), false) == written.end())
      continue;
    partly.insert(info.name);
    std::fprintf(out, "note: the MPI packs only bytes %s of each %s (%zu bytes) in a strided type; "
                      "the others are not compared\n",
                 byteRuns(written).c_str(), info.name, written.size());
  }
  return partly;
}

bool Checker::fail(const std::string &check, const TypeExpr &e, const std::string &detail) {
  std::string msg = "FAIL " + check + ": " + detail + "\n  type: " + printExpr(e);
  if (opt_.verbose) std::fprintf(stderr, "%s\n", msg.c_str());
  failures_.push_back(std::move(msg));
  return false;
}

bool Checker::checkType(const TypeExpr &e) {
  if (opt_.verbose) std::fprintf(stderr, "check %s\n", printExpr(e).c_str());
  // Text form round trip.
  auto parsed = parseExpr(printExpr(e));
  if (!parsed) return fail("text", e, "printed form does not parse: " + parsed.error());
  if (!(**parsed == e)) return fail("text", e, "parse(print(e)) differs from e");

  auto raw = translate(e);
  if (!raw) return fail("translate", e, "refused: " + raw.error());
  const Layout L = (*raw)->layout;

  MpiType mt;
  auto built = buildMpiType(e);
  if (!built) return fail("build", e, built.error());
  mt.t = *built;
  if (MPI_Type_commit(&mt.t) != MPI_SUCCESS) return fail("build", e, "MPI_Type_commit failed");

  MPI_Count size, lb, extent, tlb, textent;
  MPI_Type_size_x(mt.t, &size);
  MPI_Type_get_extent_x(mt.t, &lb, &extent);
  MPI_Type_get_true_extent_x(mt.t, &tlb, &textent);
  Layout mpi{lb, extent, tlb, textent, size};
  if (!(mpi == L)) return fail("layout", e, "MPI reports " + str(mpi) + ", translate gives " + str(L));

  IRPtr canon = canonicalize(*raw);
  if (!(canon->layout == L))
    return fail("canonicalize", e, "root layout changed: " + str(canon->layout) + " vs " + str(L));
  IRPtr again = canonicalize(canon);
  if (!equalIR(*again, *canon))
    return fail("canonicalize", e, "not a fixpoint:\n    " + printIR(*canon) + "\n    " + printIR(*again));
  std::optional<StridedBlock> sb = toStridedBlock(*canon);
  if (sb && (sb->extent != L.extent || sb->lb != L.lb || sb->size() != L.size))
    return fail("strided", e, printStrided(*sb) + " disagrees with " + str(L));

  // Decode what MPI built: it must mean the same thing.
  auto decoded = decodeMpiType(mt.t);
  if (!decoded) return fail("decode", e, decoded.error());
  auto decodedIR = translate(**decoded);
  if (!decodedIR) return fail("decode", e, "decoded type does not translate: " + decodedIR.error() +
                                               "\n  decoded: " + printExpr(**decoded));
  if (!((*decodedIR)->layout == L))
    return fail("decode", e, "decoded layout " + str((*decodedIR)->layout) + "\n  decoded: " + printExpr(**decoded));
  if (printIR(*canonicalize(*decodedIR)) != printIR(*canon))
    return fail("decode", e, "compile-time and decoded types canonicalize differently:\n    " +
                                 printIR(*canon) + "\n    " + printIR(*canonicalize(*decodedIR)));

  std::vector<int64_t> counts;
  if (opt_.allCounts) counts = {1, 2, 3};
  else counts = {static_cast<int64_t>(1 + rng_() % 3)};
  for (int64_t count : counts) {
    std::string at = " (count " + std::to_string(count) + ")";
    if (size > 0 && count * size > INT_MAX) continue;
    int64_t n = count * size;
    Buffer src = makeBuffer(**raw, count);
    fillRandom(src.bytes, rng_);
    int packSize = 0;
    MPI_Pack_size(static_cast<int>(count), mt.t, MPI_COMM_SELF, &packSize);
    if (packSize < n) return fail("pack", e, "MPI_Pack_size " + std::to_string(packSize) + " < " + std::to_string(n) + at);
    std::vector<unsigned char> mpiPacked(std::max(packSize, 1)), ref(std::max<int64_t>(n, 1));
    int pos = 0;
    MPI_Pack(src.base(), static_cast<int>(count), mt.t, mpiPacked.data(), packSize, &pos, MPI_COMM_SELF);
    if (pos != n) return fail("pack", e, "MPI_Pack wrote " + std::to_string(pos) + " bytes, expected " + std::to_string(n) + at);

    std::vector<bool> packMask;
    if (n > 0 && holdsAny(e, opt_.partlyPacked)) {
      packMask = writtenMask(n, std::vector<unsigned char>(packSize, 0x5a), [&](std::vector<unsigned char> &out) {
        int p = 0;
        MPI_Pack(src.base(), static_cast<int>(count), mt.t, out.data(), packSize, &p, MPI_COMM_SELF);
      });
    }
    struct Variant { const char *name; const IRNode *ir; };
    std::vector<Variant> variants{{"raw IR", raw->get()}, {"canonical IR", canon.get()}, {"decoded IR", decodedIR->get()}};
    for (const Variant &v : variants) {
      std::fill(ref.begin(), ref.end(), 0);
      int64_t w = packReference(*v.ir, count, src.base(), ref.data());
      if (w != n) return fail("pack", e, std::string(v.name) + " packed " + std::to_string(w) + " bytes, MPI " + std::to_string(n) + at);
      std::string d = firstDifference(mpiPacked.data(), ref.data(), n, packMask);
      if (!d.empty())
        return fail("pack", e, std::string(v.name) + " vs MPI_Pack: " + d + at + "\n  ir: " + printIR(*v.ir));
    }
    if (sb) {
      std::fill(ref.begin(), ref.end(), 0);
      int64_t w = packStrided(*sb, count, src.base(), ref.data());
      std::string d = w != n ? "wrote " + std::to_string(w) + " bytes" : firstDifference(mpiPacked.data(), ref.data(), n, packMask);
      if (!d.empty()) return fail("pack", e, "packStrided vs MPI_Pack: " + d + at + "\n  strided: " + printStrided(*sb));
    }

    // Unpack: MPI_Unpack and our unpackers write the same bytes over the same background. For
    // partly packed types MPICH stores 10 of each 16 bytes, so where elements overlap the results
    // legitimately differ: those types are checked for packing only.
    if (!packMask.empty() && overlapping(**raw, count)) continue;
    Buffer mpiDst = makeBuffer(**raw, count);
    fillRandom(mpiDst.bytes, rng_);
    Buffer refDst = mpiDst;
    pos = 0;
    MPI_Unpack(mpiPacked.data(), packSize, &pos, mpiDst.base(), static_cast<int>(count), mt.t, MPI_COMM_SELF);
    std::vector<bool> unpackMask;
    if (!packMask.empty()) {
      unpackMask = writtenMask(mpiDst.bytes.size(), refDst.bytes, [&](std::vector<unsigned char> &out) {
        int p = 0;
        MPI_Unpack(mpiPacked.data(), packSize, &p, out.data() + mpiDst.originAt, static_cast<int>(count), mt.t, MPI_COMM_SELF);
      });
      // Bytes MPI did not write must keep the background; compare only the written ones.
      for (size_t i = 0; i < unpackMask.size(); ++i)
        if (!unpackMask[i] && mpiDst.bytes[i] != refDst.bytes[i])
          return fail("unpack", e, "MPI_Unpack changed a byte it did not write" + at);
    }
    for (const Variant &v : variants) {
      Buffer mine = refDst;
      int64_t r = unpackReference(*v.ir, count, mpiPacked.data(), mine.base());
      std::string d = r != n ? "read " + std::to_string(r) + " bytes"
                             : firstDifference(mpiDst.bytes.data(), mine.bytes.data(), mine.bytes.size(), unpackMask);
      if (!d.empty()) return fail("unpack", e, std::string(v.name) + " vs MPI_Unpack: " + d + at);
    }
    if (sb) {
      Buffer mine = refDst;
      int64_t r = unpackStrided(*sb, count, mpiPacked.data(), mine.base());
      std::string d = r != n ? "read " + std::to_string(r) + " bytes"
                             : firstDifference(mpiDst.bytes.data(), mine.bytes.data(), mine.bytes.size(), unpackMask);
      if (!d.empty()) return fail("unpack", e, "unpackStrided vs MPI_Unpack: " + d + at);
    }
  }
  return true;
}

bool Checker::checkPool(const std::string &what, const std::vector<TypeExprPtr> &members) {
  bool ok = true;
  for (const TypeExprPtr &m : members) ok = checkType(*m) && ok;
  if (!ok) return false;
  // MPICH must agree the members are equivalent (this checks the generator itself).
  auto first = translate(*members[0]);
  Buffer src = makeBuffer(**first, 2);
  fillRandom(src.bytes, rng_);
  std::vector<unsigned char> expect;
  std::string expectText;
  for (const TypeExprPtr &m : members) {
    MpiType mt;
    mt.t = *buildMpiType(*m);
    MPI_Type_commit(&mt.t);
    int sz = 0, pos = 0;
    MPI_Pack_size(2, mt.t, MPI_COMM_SELF, &sz);
    std::vector<unsigned char> out(std::max(sz, 1));
    MPI_Pack(src.base(), 2, mt.t, out.data(), sz, &pos, MPI_COMM_SELF);
    out.resize(pos);
    if (expect.empty() && expectText.empty()) {
      expect = out;
      expectText = printExpr(*m);
    } else if (out != expect) {
      return fail("pool", *m, "generator bug: MPICH packs this pool member (" + what +
                                  ") differently from\n  " + expectText);
    }
  }
  std::string form0 = printIR(*canonicalize(*translate(*members[0])));
  for (size_t i = 1; i < members.size(); ++i) {
    std::string f = printIR(*canonicalize(*translate(*members[i])));
    if (f != form0)
      return fail("pool", *members[i], "equivalent descriptions (" + what +
                                           ") canonicalize differently:\n    " + f + "\n    " + form0 +
                                           "\n  from: " + printExpr(*members[0]));
  }
  return true;
}

bool Checker::checkDifferentOrder(const TypeExprPtr &a, const TypeExprPtr &b) {
  bool ok = checkType(*a);
  ok = checkType(*b) && ok;
  if (!ok) return false;
  std::string fa = printIR(*canonicalize(*translate(*a))), fb = printIR(*canonicalize(*translate(*b)));
  if (fa == fb)
    return fail("order", *a, "row-built and column-built types canonicalize to the same form " + fa +
                                 "\n  other: " + printExpr(*b));
  return true;
}

bool Checker::checkNamedTable() {
  bool ok = true;
  for (const NamedTypeInfo &info : allNamedTypes()) {
    MPI_Datatype h = namedTypeHandle(info.name);
    if (h == MPI_DATATYPE_NULL) continue; // this MPI lacks it
    TypeExprPtr n = expr::named(info.name);
    ok = checkType(*n) && ok;
    // Alignment: a struct {T; char at sizeof(T)} pads its extent to T's alignment.
    TypeExprPtr s = expr::structType({1, 1}, {0, info.extent}, {n, expr::named("MPI_CHAR")});
    ok = checkType(*s) && ok;
  }
  return ok;
}

} // namespace tempi::oracle
