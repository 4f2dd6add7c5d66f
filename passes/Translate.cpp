/// \file
/// translate(): a constructor tree (TypeExpr) to TypeIR, with MPI's Layout on every node.
///
/// The byte ranges follow the MPI standard's typemaps, in pack order. The Layout values follow
/// MPICH 4's datatype engine exactly, including where it is surprising (docs/types.md has the
/// evidence for each rule):
///  - bounds are computed per constructor from the old type's lb/ub/extent (MPICH's
///    CONTIG/VECTOR/BLOCK_LB_UB rules, which also cover negative strides and negative extents),
///    and the true bounds are carried along relative to them (true_lb = lb + old.true_lb - old.lb),
///    so a vector with blocklength 0 still has an extent although it has no data;
///  - an old type of size 0 makes contiguous, (h)vector, (h)indexed and (h)indexed_block a
///    zero-length type, whatever the old type's bounds, and so is a struct with no data;
///  - count 0 (and indexed/struct with every blocklength 0) gives MPICH's "zero-length" type:
///    lb = extent = true_lb = true_extent = size = 0; but indexed_block/hindexed_block with
///    blocklength 0 keeps bounds (each block spans [disp + old.lb, disp + old.ub - old.extent]);
///  - indexed and struct bounds skip blocks of length 0;
///  - a struct pads its extent up to the largest alignment of its non-empty fields (a derived
///    type's alignment is that of the predefined types inside it, resized keeps the old
///    alignment), unless all its fields are "the same type": the same handle (the same TypeExpr
///    node; the text form cannot say that two fields share a handle), or predefined types of one
///    class (MPI_INT, MPI_UNSIGNED, MPI_INTEGER, ... are one class: see builtinClass), or derived
///    types that are exactly one such predefined element (contiguous(1, T), resized(0, size, T));
///  - subarray and darray are translated through the constructor chains MPICH builds them from
///    (vector/hvector per dimension, a struct for a cyclic remainder, hindexed_block for the start,
///    resized to lb 0 and extent = product of the global sizes times the old extent), so their
///    pack order and every bound, true bounds included, come out as MPICH computes them.
/// Consecutive blocks of one shape at displacements in arithmetic progression ((h)indexed,
/// (h)indexed_block and struct) are translated as one stream over them (BlockRuns), not one
/// element per block: the same byte ranges in the same order, in a few nodes.
/// Refuses (Result error naming the constructor and the argument): negative counts or block
/// lengths, array lengths that disagree with the count, subarray/darray arguments out of range,
/// unknown named types, and any 64-bit overflow of an offset, bound or size.
#include "passes/PassUtil.h"
#include "passes/TypeIR.h"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace tempi {
namespace {

/// MPI's bounds of a type while it is being built, plus MPICH's alignment attribute.
struct Bounds {
  int64_t lb = 0, ub = 0, tlb = 0, tub = 0, size = 0;
  int64_t align = 0;
  int64_t extent() const { return ub - lb; }
};

struct Piece {
  IRPtr ir;
  Bounds b;
  /// When the type is exactly one element of a predefined type, laid out as that type (MPICH
  /// then treats it as that predefined type when deciding struct padding).
  const NamedTypeInfo *single = nullptr;
};

Layout namedLayout(const NamedTypeInfo &n) {
  int64_t tex = n.nfields == 2 ? n.fields[1].offset + n.fields[1].bytes : n.size;
  return Layout{0, n.extent, 0, tex, n.size};
}

/// MPICH replaces predefined types by an internal type per kind and size before comparing struct
/// fields: signedness, C/Fortran spelling and bool/char/byte do not matter (measured: see
/// docs/types.md). Returns the class name.
std::string builtinClass(const NamedTypeInfo &n) {
  std::string name = n.name;
  auto in = [&](std::initializer_list<const char *> l) {
    for (const char *x : l)
      if (name == x) return true;
    return false;
  };
  if (in({"MPI_LONG_DOUBLE", "MPI_C_LONG_DOUBLE_COMPLEX", "MPI_CXX_LONG_DOUBLE_COMPLEX",
          "MPI_REAL16", "MPI_COMPLEX32", "MPI_WCHAR", "MPI_FLOAT_INT", "MPI_DOUBLE_INT",
          "MPI_LONG_INT", "MPI_SHORT_INT", "MPI_LONG_DOUBLE_INT"}))
    return name == "MPI_CXX_LONG_DOUBLE_COMPLEX" ? "MPI_C_LONG_DOUBLE_COMPLEX" : name;
  if (in({"MPI_2INT", "MPI_2INTEGER"})) return "int32x2";
  if (in({"MPI_FLOAT", "MPI_REAL", "MPI_REAL4"})) return "float32";
  if (in({"MPI_DOUBLE", "MPI_DOUBLE_PRECISION", "MPI_REAL8"})) return "float64";
  if (in({"MPI_REAL2"})) return "float16";
  if (in({"MPI_C_COMPLEX", "MPI_C_FLOAT_COMPLEX", "MPI_CXX_FLOAT_COMPLEX", "MPI_COMPLEX",
          "MPI_COMPLEX8", "MPI_2REAL"}))
    return "complex64";
  if (in({"MPI_C_DOUBLE_COMPLEX", "MPI_CXX_DOUBLE_COMPLEX", "MPI_DOUBLE_COMPLEX",
          "MPI_COMPLEX16", "MPI_2DOUBLE_PRECISION"}))
    return "complex128";
  if (in({"MPI_COMPLEX4"})) return "complex32";
  return "int" + std::to_string(n.size * 8); // every integer, logical, char, byte, bool, packed
}


/// 64-bit arithmetic that remembers whether anything overflowed.
struct Checked {
  bool overflow = false;
  int64_t add(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) { overflow = true; return 0; }
    return r;
  }
  int64_t sub(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) { overflow = true; return 0; }
    return r;
  }
  int64_t mul(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) { overflow = true; return 0; }
    return r;
  }
};

Layout layoutOf(const Bounds &b, Checked &c) {
  return Layout{b.lb, c.sub(b.ub, b.lb), b.tlb, c.sub(b.tub, b.tlb), b.size};
}

/// Keeps `single` through a constructor that holds exactly one element of the old type and
/// leaves the predefined type's layout unchanged.
Piece inheritSingle(Piece p, const Piece &old, int64_t elements) {
  Checked c;
  if (elements == 1 && old.single && layoutOf(p.b, c) == namedLayout(*old.single))
    p.single = old.single;
  return p;
}

Result<Piece> fail(const TypeExpr &e, const std::string &why) {
  return Result<Piece>::fail(std::string(combinerName(e.combiner)) + ": " + why);
}
Result<Piece> overflow(const TypeExpr &e) {
  return fail(e, "64-bit overflow computing offsets, bounds or size");
}

/// MPICH's zero-length type (MPII_Type_zerolen).
Piece zeroLength() { return Piece{ir::dense(0, 0, Layout{}), Bounds{}}; }

/// MPICH's MPII_DATATYPE_BLOCK_LB_UB: cnt copies of old, contiguous, displaced by disp.
void blockBounds(int64_t cnt, int64_t disp, const Bounds &old, Checked &c, int64_t &lb,
                 int64_t &ub) {
  int64_t ext = c.sub(old.ub, old.lb);
  if (cnt == 0) {
    lb = c.add(old.lb, disp);
    ub = c.add(old.ub, disp);
  } else if (old.ub >= old.lb) {
    lb = c.add(old.lb, disp);
    ub = c.add(c.add(old.ub, disp), c.mul(ext, cnt - 1));
  } else {
    lb = c.add(c.add(old.lb, disp), c.mul(ext, cnt - 1));
    ub = c.add(old.ub, disp);
  }
}

/// True bounds carried relative to the new lb/ub, as MPICH does.
void carryTrue(Bounds &nb, const Bounds &old, Checked &c) {
  nb.tlb = c.add(nb.lb, c.sub(old.tlb, old.lb));
  nb.tub = c.add(nb.ub, c.sub(old.tub, old.ub));
}

/// count copies of old laid end to end (contiguous, and the blocks of vector/indexed).
Piece contiguousPiece(int64_t count, const Piece &old, int64_t offset, Checked &c) {
  if (count == 0) return zeroLength();
  Bounds nb;
  blockBounds(count, 0, old.b, c, nb.lb, nb.ub);
  carryTrue(nb, old.b, c);
  nb.size = c.mul(count, old.b.size);
  nb.align = old.b.align;
  Layout l = layoutOf(nb, c);
  if (nb.size == 0) return Piece{ir::dense(offset, 0, l), nb};
  return Piece{ir::stream(offset, count, old.b.extent(), old.ir, l), nb};
}

/// MPICH's vector rule (MPII_DATATYPE_VECTOR_LB_UB), stride in bytes.
Piece vectorPiece(int64_t count, int64_t bl, int64_t stride, const Piece &old, Checked &c) {
  if (count == 0) return zeroLength();
  int64_t ext = old.b.extent();
  Bounds nb;
  int64_t blockSpan = c.mul(ext, bl - 1), strideSpan = c.mul(stride, count - 1);
  if (stride >= 0 && ext >= 0) {
    nb.lb = old.b.lb;
    nb.ub = c.add(c.add(old.b.ub, blockSpan), strideSpan);
  } else if (stride < 0 && ext >= 0) {
    nb.lb = c.add(old.b.lb, strideSpan);
    nb.ub = c.add(old.b.ub, blockSpan);
  } else if (stride >= 0 && ext < 0) {
    nb.lb = c.add(old.b.lb, blockSpan);
    nb.ub = c.add(old.b.ub, strideSpan);
  } else {
    nb.lb = c.add(c.add(old.b.lb, blockSpan), strideSpan);
    nb.ub = old.b.ub;
  }
  carryTrue(nb, old.b, c);
  nb.size = c.mul(c.mul(count, bl), old.b.size);
  nb.align = old.b.align;
  Layout l = layoutOf(nb, c);
  if (nb.size == 0) return Piece{ir::dense(0, 0, l), nb};
  Piece block = contiguousPiece(bl, old, 0, c);
  return Piece{ir::stream(0, count, stride, block.ir, l), nb};
}

/// The elements of an indexed or struct seq, built as the blocks arrive. Consecutive blocks of
/// one shape (the same block length of old types with the same bytes and extent) whose
/// displacements are in arithmetic progression become one stream: regularize-seq's groups of one
/// element, found on the argument arrays before any node exists, so a list of a million regular
/// blocks costs a few nodes, not a million (an hindexed halo face of 65,536 rows took 67 ms to
/// commit; bench-commit). The stream is MPICH's hvector of those blocks, so the byte ranges and
/// their order are exactly the blocks'; a block that starts no run is the contiguous piece it
/// always was. Struct fields are compared by their bytes, never by which TypeExpr node they are:
/// the decoder gives one node per handle, the text form one per field, and both must translate
/// (and canonicalize) alike.
class BlockRuns {
public:
  BlockRuns(std::vector<IRPtr> &out, Checked &c) : out_(out), c_(c) {}
  /// One block: bl > 0 copies of old at disp bytes.
  void add(const Piece &old, int64_t bl, int64_t disp) {
    if (count_ > 0 && bl == bl_ && sameBlocks(old, *old_)) {
      int64_t d = 0;
      if (!__builtin_sub_overflow(disp, last_, &d) && (count_ == 1 || d == stride_)) {
        stride_ = d;
        last_ = disp;
        ++count_;
        return;
      }
    }
    flush();
    old_ = &old;
    bl_ = bl;
    first_ = last_ = disp;
    count_ = 1;
  }
  void flush() {
    if (count_ == 1) {
      Piece block = contiguousPiece(bl_, *old_, first_, c_);
      if (block.b.size != 0) out_.push_back(block.ir);
    } else if (count_ > 1) {
      Piece run = vectorPiece(count_, bl_, stride_, *old_, c_);
      if (run.b.size != 0) out_.push_back(ir::withOffset(run.ir, first_));
    }
    count_ = 0;
  }

private:
  /// Copies of a and of b cover the same bytes relative to their displacement.
  static bool sameBlocks(const Piece &a, const Piece &b) {
    return &a == &b || (a.b.extent() == b.b.extent() && a.ir->offset == b.ir->offset &&
                        passutil::sameShape(*a.ir, *b.ir));
  }

  std::vector<IRPtr> &out_;
  Checked &c_;
  const Piece *old_ = nullptr;
  int64_t bl_ = 0, first_ = 0, last_ = 0, stride_ = 0, count_ = 0;
};

/// indexed / hindexed / indexed_block / hindexed_block: blocks at byte displacements.
Piece indexedPiece(const std::vector<int64_t> &bls, const std::vector<int64_t> &dispBytes,
                   const Piece &old, Checked &c) {
  Bounds nb;
  bool found = false;
  std::vector<IRPtr> elems;
  BlockRuns runs(elems, c);
  for (size_t i = 0; i < bls.size(); ++i) {
    if (bls[i] == 0) continue;
    int64_t lb, ub;
    blockBounds(bls[i], dispBytes[i], old.b, c, lb, ub);
    if (!found || lb < nb.lb) nb.lb = lb;
    if (!found || ub > nb.ub) nb.ub = ub;
    found = true;
    nb.size = c.add(nb.size, c.mul(bls[i], old.b.size));
    runs.add(old, bls[i], dispBytes[i]);
  }
  runs.flush();
  if (!found) return zeroLength();
  carryTrue(nb, old.b, c);
  nb.align = old.b.align;
  Layout l = layoutOf(nb, c);
  if (nb.size == 0) return Piece{ir::dense(0, 0, l), nb};
  return Piece{ir::seq(0, std::move(elems), l), nb};
}

Result<Piece> translatePiece(const TypeExpr &e, int depth);

Result<Piece> child(const TypeExpr &e, size_t i, int depth) {
  if (e.types.size() <= i || !e.types[i]) return fail(e, "missing old type");
  return translatePiece(*e.types[i], depth + 1);
}

Result<Piece> named(const TypeExpr &e) {
  const NamedTypeInfo *info = lookupNamedType(e.name);
  if (!info) return Result<Piece>::fail("unknown named type '" + e.name + "'");
  Bounds b;
  b.ub = info->extent;
  b.size = info->size;
  b.tub = info->nfields == 2 ? info->fields[1].offset + info->fields[1].bytes : info->size;
  b.align = info->alignment;
  Layout l{0, info->extent, 0, b.tub, info->size};
  if (info->nfields == 1 || info->fields[1].offset == info->fields[0].bytes)
    return Result<Piece>::ok(Piece{ir::dense(0, info->size, l), b, info});
  std::vector<IRPtr> f{ir::dense(0, info->fields[0].bytes, Layout{0, info->fields[0].bytes, 0, info->fields[0].bytes, info->fields[0].bytes}),
                       ir::dense(info->fields[1].offset, info->fields[1].bytes,
                                 Layout{0, info->fields[1].bytes, 0, info->fields[1].bytes, info->fields[1].bytes})};
  return Result<Piece>::ok(Piece{ir::seq(0, std::move(f), l), b, info});
}

bool needInts(const TypeExpr &e, size_t n, std::string &why) {
  if (e.integers.size() != n) {
    why = "array length mismatch: expected " + std::to_string(n) + " integer arguments, got " +
          std::to_string(e.integers.size());
    return false;
  }
  return true;
}
bool needAddrs(const TypeExpr &e, size_t n, std::string &why) {
  if (e.addresses.size() != n) {
    why = "array length mismatch: expected " + std::to_string(n) + " address arguments, got " +
          std::to_string(e.addresses.size());
    return false;
  }
  return true;
}
/// Reads the count in integers[at] and checks it is non-negative; an array length (isLength)
/// must also be small enough to index the argument arrays.
bool readCount(const TypeExpr &e, size_t at, const char *what, int64_t &out, std::string &why,
               bool isLength = true) {
  if (e.integers.size() <= at) {
    why = std::string("missing ") + what;
    return false;
  }
  out = e.integers[at];
  if (out < 0) {
    why = std::string("negative ") + what + " " + std::to_string(out);
    return false;
  }
  if (isLength && out > (int64_t(1) << 40)) {
    why = std::string(what) + " " + std::to_string(out) + " is too large for an array length";
    return false;
  }
  return true;
}

Result<Piece> structPiece(const TypeExpr &e, int depth) {
  std::string why;
  int64_t n;
  if (!readCount(e, 0, "count", n, why) || !needInts(e, 1 + n, why) || !needAddrs(e, n, why))
    return fail(e, why);
  if (e.types.size() != static_cast<size_t>(n))
    return fail(e, "array length mismatch: count " + std::to_string(n) + " but " +
                       std::to_string(e.types.size()) + " types");
  Checked c;
  Bounds nb;
  bool found = false;
  std::vector<IRPtr> elems;
  BlockRuns runs(elems, c);
  // MPICH pads only when the fields are not all "the same type": the same handle (here: the
  // same TypeExpr node), or derived types that are one predefined element of the same class.
  std::string firstKey;
  bool sameTypes = true;
  const Piece *onlyField = nullptr;
  int64_t elements = 0;
  // Each distinct field type is translated once (a struct of many fields usually repeats a few
  // handles); node-based storage keeps the Pieces where BlockRuns and onlyField point.
  struct Field {
    Piece piece;
    std::string key;
  };
  std::unordered_map<const TypeExpr *, Field> fields;
  for (int64_t i = 0; i < n; ++i) {
    int64_t bl = e.integers[1 + i];
    if (bl < 0) return fail(e, "negative blocklength " + std::to_string(bl) + " in field " + std::to_string(i));
    if (!e.types[i]) return fail(e, "missing old type");
    auto known = fields.find(e.types[i].get());
    if (known == fields.end()) {
      auto old = child(e, i, depth);
      if (!old) return old;
      std::string key = old->single ? "class:" + builtinClass(*old->single)
                                    : "node:" + std::to_string(reinterpret_cast<uintptr_t>(e.types[i].get()));
      known = fields.emplace(e.types[i].get(), Field{*old, std::move(key)}).first;
    }
    const Piece *old = &known->second.piece;
    if (i == 0) firstKey = known->second.key;
    else if (known->second.key != firstKey) sameTypes = false;
    if (bl == 0) continue;
    elements = c.add(elements, bl);
    onlyField = old;
    int64_t lb, ub;
    blockBounds(bl, e.addresses[i], old->b, c, lb, ub);
    int64_t tlb = c.add(lb, c.sub(old->b.tlb, old->b.lb));
    int64_t tub = c.add(ub, c.sub(old->b.tub, old->b.ub));
    if (!found || lb < nb.lb) nb.lb = lb;
    if (!found || ub > nb.ub) nb.ub = ub;
    if (!found || tlb < nb.tlb) nb.tlb = tlb;
    if (!found || tub > nb.tub) nb.tub = tub;
    if (old->b.align > nb.align) nb.align = old->b.align;
    found = true;
    nb.size = c.add(nb.size, c.mul(bl, old->b.size));
    runs.add(*old, bl, e.addresses[i]);
  }
  runs.flush();
  if (!found || nb.size == 0) return Result<Piece>::ok(zeroLength());
  if (!sameTypes && nb.align > 0) {
    int64_t eps = c.sub(nb.ub, nb.lb) % nb.align;
    if (eps != 0) nb.ub = c.add(nb.ub, nb.align - eps);
  }
  Layout l = layoutOf(nb, c);
  if (c.overflow) return overflow(e);
  Piece p{ir::seq(0, std::move(elems), l), nb};
  return Result<Piece>::ok(onlyField ? inheritSingle(p, *onlyField, elements) : p);
}

Result<Piece> subarrayPiece(const TypeExpr &e, int depth) {
  std::string why;
  int64_t n;
  if (!readCount(e, 0, "ndims", n, why) || !needInts(e, 2 + 3 * n, why) || !needAddrs(e, 0, why))
    return fail(e, why);
  if (n < 1) return fail(e, "ndims must be at least 1");
  int64_t order = e.integers[1 + 3 * n];
  if (order != 0 && order != 1) return fail(e, "order must be C or Fortran, got " + std::to_string(order));
  auto old = child(e, 0, depth);
  if (!old) return old;
  std::vector<int64_t> sizes(e.integers.begin() + 1, e.integers.begin() + 1 + n);
  std::vector<int64_t> subs(e.integers.begin() + 1 + n, e.integers.begin() + 1 + 2 * n);
  std::vector<int64_t> starts(e.integers.begin() + 1 + 2 * n, e.integers.begin() + 1 + 3 * n);
  for (int64_t d = 0; d < n; ++d) {
    std::string dim = " in dimension " + std::to_string(d);
    if (sizes[d] < 1) return fail(e, "size " + std::to_string(sizes[d]) + " must be positive" + dim);
    if (subs[d] < 1) return fail(e, "subsize " + std::to_string(subs[d]) + " must be positive" + dim);
    if (subs[d] > sizes[d])
      return fail(e, "subsize " + std::to_string(subs[d]) + " exceeds size " + std::to_string(sizes[d]) + dim);
    if (starts[d] < 0 || starts[d] > sizes[d] - subs[d])
      return fail(e, "start " + std::to_string(starts[d]) + " out of range [0, " +
                         std::to_string(sizes[d] - subs[d]) + "]" + dim);
  }
  // MPICH builds the subarray from other constructors; translating that same chain gives its
  // layout exactly (including the zero-size cases).
  Checked c;
  int64_t ext = old->b.extent();
  auto dim = [&](int64_t k) { return order == 0 ? n - 1 - k : k; }; // k = 0 is the fastest
  TypeExprPtr oldExpr = e.types[0];
  TypeExprPtr t;
  if (n == 1) {
    t = expr::contiguous(subs[0], oldExpr);
  } else {
    t = expr::vector(subs[dim(1)], subs[dim(0)], sizes[dim(0)], oldExpr);
    int64_t stride = c.mul(sizes[dim(0)], ext);
    for (int64_t k = 2; k < n; ++k) {
      stride = c.mul(stride, sizes[dim(k - 1)]);
      t = expr::hvector(subs[dim(k)], 1, stride, t);
    }
  }
  int64_t disp = starts[dim(0)], elems = 1;
  for (int64_t k = 1; k < n; ++k) {
    elems = c.mul(elems, sizes[dim(k - 1)]);
    disp = c.add(disp, c.mul(elems, starts[dim(k)]));
  }
  disp = c.mul(disp, ext);
  int64_t total = c.mul(c.mul(elems, sizes[dim(n - 1)]), ext);
  if (c.overflow) return overflow(e);
  auto p = translatePiece(*expr::resized(0, total, expr::hindexedBlock(1, {disp}, t)), depth + 1);
  if (!p) return fail(e, p.error());
  return p;
}

Result<Piece> darrayPiece(const TypeExpr &e, int depth) {
  std::string why;
  int64_t n;
  if (!readCount(e, 2, "ndims", n, why) || !needInts(e, 4 + 4 * n, why) || !needAddrs(e, 0, why))
    return fail(e, why);
  int64_t size = e.integers[0], rank = e.integers[1];
  if (size < 1) return fail(e, "size " + std::to_string(size) + " must be positive");
  if (rank < 0 || rank >= size)
    return fail(e, "rank " + std::to_string(rank) + " out of range [0, " + std::to_string(size - 1) + "]");
  if (n < 1) return fail(e, "ndims must be at least 1");
  auto at = [&](int64_t block, int64_t d) { return e.integers[3 + block * n + d]; };
  int64_t order = e.integers[3 + 4 * n];
  if (order != 0 && order != 1) return fail(e, "order must be C or Fortran, got " + std::to_string(order));
  auto old = child(e, 0, depth);
  if (!old) return old;
  Checked c;
  int64_t procs = 1;
  for (int64_t d = 0; d < n; ++d) {
    std::string dim = " in dimension " + std::to_string(d);
    if (at(0, d) < 1) return fail(e, "gsize " + std::to_string(at(0, d)) + " must be positive" + dim);
    if (at(3, d) < 1) return fail(e, "psize " + std::to_string(at(3, d)) + " must be positive" + dim);
    int64_t dist = at(1, d), darg = at(2, d);
    if (dist < 0 || dist > 2) return fail(e, "unknown distribution " + std::to_string(dist) + dim);
    if (darg != kDargDefault && darg < 1)
      return fail(e, "darg " + std::to_string(darg) + " must be positive or DFLT" + dim);
    if (dist == static_cast<int64_t>(Distrib::None) && at(3, d) != 1)
      return fail(e, "NONE distribution needs psize 1, got " + std::to_string(at(3, d)) + dim);
    if (dist == static_cast<int64_t>(Distrib::Block) && darg != kDargDefault &&
        c.mul(darg, at(3, d)) < at(0, d))
      return fail(e, "BLOCK darg " + std::to_string(darg) + " times psize " + std::to_string(at(3, d)) +
                         " does not cover gsize " + std::to_string(at(0, d)) + dim);
    procs = c.mul(procs, at(3, d));
  }
  if (c.overflow) return overflow(e);
  if (procs != size)
    return fail(e, "product of psizes " + std::to_string(procs) + " differs from size " + std::to_string(size));
  // Process coordinates: the process grid is row-major whatever the array order.
  std::vector<int64_t> coord(n);
  for (int64_t d = n - 1, r = rank; d >= 0; --d) {
    coord[d] = r % at(3, d);
    r /= at(3, d);
  }
  // MPICH (like ROMIO) builds the darray from other constructors, one dimension at a time from
  // the fastest; translating that same chain gives its pack order and its layout exactly.
  int64_t ext = old->b.extent();
  TypeExprPtr t = e.types[0];
  std::vector<int64_t> stOffset(n, 0);
  int64_t faster = 1; // product of the gsizes of the dimensions already done
  for (int64_t k = 0; k < n; ++k) {
    int64_t d = order == 0 ? n - 1 - k : k;
    int64_t g = at(0, d), p = at(3, d), darg = at(2, d), dist = at(1, d), r = coord[d];
    int64_t dimStride = c.mul(ext, faster); // also the extent of t so far
    TypeExprPtr prev = t;
    if (dist != static_cast<int64_t>(Distrib::Cyclic)) {
      int64_t blk = (dist == static_cast<int64_t>(Distrib::None) || darg == kDargDefault) ? (g + p - 1) / p : darg;
      int64_t mine = std::max<int64_t>(0, std::min(blk, g - c.mul(blk, r)));
      t = k == 0 ? expr::contiguous(mine, t) : expr::hvector(mine, 1, dimStride, t);
      stOffset[d] = mine == 0 ? 0 : c.mul(blk, r);
    } else {
      int64_t blk = darg == kDargDefault ? 1 : darg;
      int64_t first = c.mul(r, blk), local = 0;
      if (first <= g - 1) {
        int64_t span = g - first, cycle = c.mul(p, blk);
        local = c.add(c.mul(span / cycle, blk), std::min(span % cycle, blk));
      }
      int64_t count = local / blk, rem = local % blk;
      int64_t stride = c.mul(c.mul(p, blk), dimStride);
      t = expr::hvector(count, blk, stride, t);
      if (rem) t = expr::structType({1, rem}, {0, c.mul(count, stride)}, {t, prev});
      if (k == 0) {
        t = expr::resized(0, c.mul(ext, g), expr::hindexedBlock(1, {c.mul(first, ext)}, t));
        stOffset[d] = 0;
      } else {
        stOffset[d] = local == 0 ? 0 : first;
      }
    }
    t = expr::resized(0, c.mul(g, dimStride), t); // each dimension spans its whole global size
    faster = c.mul(faster, g);
  }
  int64_t disp = 0, mult = 1;
  for (int64_t k = 0; k < n; ++k) {
    int64_t d = order == 0 ? n - 1 - k : k;
    disp = c.add(disp, c.mul(mult, stOffset[d]));
    mult = c.mul(mult, at(0, d));
  }
  disp = c.mul(disp, ext);
  int64_t total = c.mul(ext, faster);
  if (c.overflow) return overflow(e);
  auto p = translatePiece(*expr::resized(0, total, expr::hindexedBlock(1, {disp}, t)), depth + 1);
  if (!p) return fail(e, p.error());
  return p;
}

Result<Piece> translatePiece(const TypeExpr &e, int depth) {
  if (depth > 64) return fail(e, "constructor nesting deeper than 64");
  std::string why;
  Checked c;
  switch (e.combiner) {
  case Combiner::Named:
    return named(e);
  case Combiner::Dup: {
    if (!needInts(e, 0, why) || !needAddrs(e, 0, why)) return fail(e, why);
    return child(e, 0, depth);
  }
  case Combiner::Contiguous: {
    int64_t count;
    if (!readCount(e, 0, "count", count, why, false) || !needInts(e, 1, why) || !needAddrs(e, 0, why))
      return fail(e, why);
    auto old = child(e, 0, depth);
    if (!old) return old;
    if (old->b.size == 0) return Result<Piece>::ok(zeroLength());
    Piece p = contiguousPiece(count, *old, 0, c);
    if (c.overflow) return overflow(e);
    return Result<Piece>::ok(inheritSingle(p, *old, count));
  }
  case Combiner::Vector:
  case Combiner::Hvector: {
    bool h = e.combiner == Combiner::Hvector;
    int64_t count, bl;
    if (!readCount(e, 0, "count", count, why, false) || !readCount(e, 1, "blocklength", bl, why, false) ||
        !needInts(e, h ? 2 : 3, why) || !needAddrs(e, h ? 1 : 0, why))
      return fail(e, why);
    auto old = child(e, 0, depth);
    if (!old) return old;
    if (old->b.size == 0) return Result<Piece>::ok(zeroLength());
    int64_t stride = h ? e.addresses[0] : c.mul(e.integers[2], old->b.extent());
    Piece p = vectorPiece(count, bl, stride, *old, c);
    if (c.overflow) return overflow(e);
    return Result<Piece>::ok(inheritSingle(p, *old, c.mul(count, bl)));
  }
  case Combiner::Indexed:
  case Combiner::Hindexed:
  case Combiner::IndexedBlock:
  case Combiner::HindexedBlock: {
    bool h = e.combiner == Combiner::Hindexed || e.combiner == Combiner::HindexedBlock;
    bool blockForm = e.combiner == Combiner::IndexedBlock || e.combiner == Combiner::HindexedBlock;
    int64_t n;
    if (!readCount(e, 0, "count", n, why)) return fail(e, why);
    size_t ints = blockForm ? (h ? 2 : 2 + n) : (h ? 1 + n : 1 + 2 * n);
    if (!needInts(e, ints, why) || !needAddrs(e, h ? n : 0, why)) return fail(e, why);
    std::vector<int64_t> bls(n);
    if (blockForm) {
      int64_t bl;
      if (!readCount(e, 1, "blocklength", bl, why, false)) return fail(e, why);
      bls.assign(n, bl);
    } else {
      for (int64_t i = 0; i < n; ++i) {
        bls[i] = e.integers[1 + i];
        if (bls[i] < 0)
          return fail(e, "negative blocklength " + std::to_string(bls[i]) + " in block " + std::to_string(i));
      }
    }
    auto old = child(e, 0, depth);
    if (!old) return old;
    if (old->b.size == 0) return Result<Piece>::ok(zeroLength());
    std::vector<int64_t> disp(n);
    for (int64_t i = 0; i < n; ++i) {
      if (h) disp[i] = e.addresses[i];
      else disp[i] = c.mul(e.integers[(blockForm ? 2 : 1 + n) + i], old->b.extent());
    }
    if (blockForm && n > 0 && bls[0] == 0) {
      // MPICH's block-indexed rule has no special case for blocklength 0: each block spans
      // [disp + old.lb, disp + old.ub - old.extent], so the type has bounds but no data.
      Bounds nb;
      int64_t oext = old->b.extent();
      for (int64_t i = 0; i < n; ++i) {
        int64_t lb = c.add(old->b.lb, disp[i]), ub = c.add(old->b.ub, disp[i]);
        if (oext >= 0) ub = c.sub(ub, oext);
        else lb = c.sub(lb, oext);
        if (i == 0 || lb < nb.lb) nb.lb = lb;
        if (i == 0 || ub > nb.ub) nb.ub = ub;
      }
      carryTrue(nb, old->b, c);
      nb.align = old->b.align;
      Layout l = layoutOf(nb, c);
      if (c.overflow) return overflow(e);
      return Result<Piece>::ok(Piece{ir::dense(0, 0, l), nb});
    }
    Piece p = indexedPiece(bls, disp, *old, c);
    int64_t elements = 0;
    for (int64_t b : bls) elements = c.add(elements, b);
    if (c.overflow) return overflow(e);
    return Result<Piece>::ok(inheritSingle(p, *old, elements));
  }
  case Combiner::Struct:
    return structPiece(e, depth);
  case Combiner::Subarray:
    return subarrayPiece(e, depth);
  case Combiner::Darray:
    return darrayPiece(e, depth);
  case Combiner::Resized: {
    if (!needInts(e, 0, why) || !needAddrs(e, 2, why)) return fail(e, why);
    auto old = child(e, 0, depth);
    if (!old) return old;
    Bounds nb = old->b;
    nb.lb = e.addresses[0];
    nb.ub = c.add(e.addresses[0], e.addresses[1]);
    Layout l = layoutOf(nb, c);
    if (c.overflow) return overflow(e);
    return Result<Piece>::ok(inheritSingle(Piece{ir::withLayout(old->ir, l), nb}, *old, 1));
  }
  }
  return fail(e, "unknown combiner");
}

} // namespace

Result<IRPtr> translate(const TypeExpr &e) {
  auto p = translatePiece(e, 0);
  if (!p) return Result<IRPtr>::fail(p.error());
  return Result<IRPtr>::ok(p->ir);
}

} // namespace tempi
