/// \file
/// The text form of TypeExpr (see TextForm.h for the grammar by example): printExpr and
/// parseExpr, which round-trip exactly. The parser refuses, with "line:column: reason": unknown
/// keywords or named types, missing or extra punctuation, integers that do not fit in 64 bits,
/// negative counts, block lengths or ndims, and arrays whose length disagrees with their count.
/// Arguments that are well-formed but meaningless (a start outside its subarray, ...) are left to
/// translate(), which names the constructor and the argument.
#include "passes/TextForm.h"

#include <cctype>
#include <cstdlib>
#include <string>

namespace tempi {
namespace {

void printList(std::string &out, const std::vector<int64_t> &v, size_t from, size_t n) {
  out += '[';
  for (size_t i = 0; i < n; ++i) {
    if (i) out += ", ";
    out += std::to_string(v[from + i]);
  }
  out += ']';
}

const char *orderName(int64_t o) { return o == 0 ? "C" : o == 1 ? "Fortran" : nullptr; }
const char *distribName(int64_t d) {
  switch (d) {
  case 0: return "NONE";
  case 1: return "BLOCK";
  case 2: return "CYCLIC";
  }
  return nullptr;
}

void printInt(std::string &out, int64_t v) { out += std::to_string(v); }

/// Prints e. Malformed trees (wrong array lengths) print their raw arguments so a diagnostic can
/// still show them; such text does not parse back.
void print(std::string &out, const TypeExpr &e) {
  auto sep = [&] { out += ", "; };
  auto kid = [&](size_t i) {
    if (i < e.types.size() && e.types[i]) print(out, *e.types[i]);
    else out += "<missing>";
  };
  const auto &I = e.integers;
  const auto &A = e.addresses;
  auto raw = [&] {
    out += combinerName(e.combiner);
    out += "<ints ";
    printList(out, I, 0, I.size());
    out += " addrs ";
    printList(out, A, 0, A.size());
    out += " types " + std::to_string(e.types.size()) + ">";
  };
  int64_t n = I.empty() ? -1 : I[0];
  switch (e.combiner) {
  case Combiner::Named:
    out += e.name;
    return;
  case Combiner::Dup:
    out += "dup(";
    kid(0);
    out += ')';
    return;
  case Combiner::Contiguous:
    if (I.size() != 1) return raw();
    out += "contiguous(";
    printInt(out, I[0]);
    sep();
    kid(0);
    out += ')';
    return;
  case Combiner::Vector:
  case Combiner::Hvector: {
    bool h = e.combiner == Combiner::Hvector;
    if (I.size() != (h ? 2u : 3u) || A.size() != (h ? 1u : 0u)) return raw();
    out += combinerName(e.combiner);
    out += '(';
    printInt(out, I[0]);
    sep();
    printInt(out, I[1]);
    sep();
    printInt(out, h ? A[0] : I[2]);
    sep();
    kid(0);
    out += ')';
    return;
  }
  case Combiner::Indexed:
  case Combiner::Hindexed: {
    bool h = e.combiner == Combiner::Hindexed;
    if (n < 0 || I.size() != size_t(h ? 1 + n : 1 + 2 * n) || A.size() != size_t(h ? n : 0))
      return raw();
    out += combinerName(e.combiner);
    out += '(';
    printInt(out, n);
    sep();
    printList(out, I, 1, n);
    sep();
    if (h) printList(out, A, 0, n);
    else printList(out, I, 1 + n, n);
    sep();
    kid(0);
    out += ')';
    return;
  }
  case Combiner::IndexedBlock:
  case Combiner::HindexedBlock: {
    bool h = e.combiner == Combiner::HindexedBlock;
    if (n < 0 || I.size() != size_t(h ? 2 : 2 + n) || A.size() != size_t(h ? n : 0)) return raw();
    out += combinerName(e.combiner);
    out += '(';
    printInt(out, n);
    sep();
    printInt(out, I[1]);
    sep();
    if (h) printList(out, A, 0, n);
    else printList(out, I, 2, n);
    sep();
    kid(0);
    out += ')';
    return;
  }
  case Combiner::Struct: {
    if (n < 0 || I.size() != size_t(1 + n) || A.size() != size_t(n) || e.types.size() != size_t(n))
      return raw();
    out += "struct(";
    printInt(out, n);
    sep();
    printList(out, I, 1, n);
    sep();
    printList(out, A, 0, n);
    out += ", [";
    for (int64_t i = 0; i < n; ++i) {
      if (i) sep();
      kid(i);
    }
    out += "])";
    return;
  }
  case Combiner::Subarray: {
    if (n < 0 || I.size() != size_t(2 + 3 * n) || !orderName(I[1 + 3 * n])) return raw();
    out += "subarray(";
    printInt(out, n);
    for (int k = 0; k < 3; ++k) {
      sep();
      printList(out, I, 1 + k * n, n);
    }
    sep();
    out += orderName(I[1 + 3 * n]);
    sep();
    kid(0);
    out += ')';
    return;
  }
  case Combiner::Darray: {
    if (I.size() < 3) return raw();
    int64_t nd = I[2];
    if (nd < 0 || I.size() != size_t(4 + 4 * nd) || !orderName(I[3 + 4 * nd])) return raw();
    for (int64_t d = 0; d < nd; ++d)
      if (!distribName(I[3 + nd + d]) || (I[3 + 2 * nd + d] < 1 && I[3 + 2 * nd + d] != kDargDefault))
        return raw();
    out += "darray(";
    printInt(out, I[0]);
    sep();
    printInt(out, I[1]);
    sep();
    printInt(out, nd);
    sep();
    printList(out, I, 3, nd);
    out += ", [";
    for (int64_t d = 0; d < nd; ++d) {
      if (d) sep();
      out += distribName(I[3 + nd + d]);
    }
    out += "], [";
    for (int64_t d = 0; d < nd; ++d) {
      if (d) sep();
      int64_t a = I[3 + 2 * nd + d];
      if (a == kDargDefault) out += "DFLT";
      else printInt(out, a);
    }
    out += "], ";
    printList(out, I, 3 + 3 * nd, nd);
    sep();
    out += orderName(I[3 + 4 * nd]);
    sep();
    kid(0);
    out += ')';
    return;
  }
  case Combiner::Resized:
    if (A.size() != 2 || !I.empty()) return raw();
    out += "resized(";
    printInt(out, A[0]);
    sep();
    printInt(out, A[1]);
    sep();
    kid(0);
    out += ')';
    return;
  }
  raw();
}

/// Recursive-descent parser over the text; every error carries the position it was found at.
class Parser {
public:
  explicit Parser(std::string_view t) : text_(t) {}

  Result<TypeExprPtr> parseAll() {
    TypeExprPtr e = parseType(0);
    if (!e) return Result<TypeExprPtr>::fail(error_);
    skipSpace();
    if (pos_ != text_.size()) {
      fail("unexpected '" + std::string(1, text_[pos_]) + "' after the type");
      return Result<TypeExprPtr>::fail(error_);
    }
    return Result<TypeExprPtr>::ok(e);
  }

private:
  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;

  std::string where(size_t at) const {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < at && i < text_.size(); ++i) {
      if (text_[i] == '\n') { ++line; col = 1; }
      else ++col;
    }
    return std::to_string(line) + ":" + std::to_string(col);
  }
  /// Records the first error (at the current position unless given).
  std::nullptr_t fail(const std::string &why) { return failAt(pos_, why); }
  std::nullptr_t failAt(size_t at, const std::string &why) {
    if (error_.empty()) error_ = where(at) + ": " + why;
    return nullptr;
  }
  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  std::string describeHere() {
    if (pos_ >= text_.size()) return "end of input";
    return "'" + std::string(1, text_[pos_]) + "'";
  }
  bool expect(char c) {
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) { ++pos_; return true; }
    fail(std::string("expected '") + c + "', found " + describeHere());
    return false;
  }
  bool peek(char c) {
    skipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  std::string ident() {
    skipSpace();
    size_t b = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    return std::string(text_.substr(b, pos_ - b));
  }
  bool integer(int64_t &out) {
    skipSpace();
    size_t b = pos_;
    bool neg = false;
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) {
      neg = text_[pos_] == '-';
      ++pos_;
    }
    if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      pos_ = b;
      fail("expected an integer, found " + describeHere());
      return false;
    }
    // Accumulate as a negative number so INT64_MIN parses.
    int64_t v = 0;
    bool over = false;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      int d = text_[pos_] - '0';
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_sub_overflow(v, d, &v)) over = true;
      ++pos_;
    }
    if (!neg && !over && __builtin_mul_overflow(v, -1, &v)) over = true;
    if (over) {
      failAt(b, "integer " + std::string(text_.substr(b, pos_ - b)) + " does not fit in 64 bits");
      return false;
    }
    out = v;
    return true;
  }
  /// A count-like argument: non-negative.
  bool count(int64_t &out, const char *what) {
    skipSpace();
    size_t at = pos_;
    if (!integer(out)) return false;
    if (out < 0) {
      failAt(at, std::string("negative ") + what + " " + std::to_string(out));
      return false;
    }
    return true;
  }
  bool intList(std::vector<int64_t> &out, int64_t expectLen, const char *what, bool nonNeg) {
    skipSpace();
    size_t at = pos_;
    if (!expect('[')) return false;
    if (!peek(']')) {
      do {
        skipSpace();
        size_t itemAt = pos_;
        int64_t v;
        if (!integer(v)) return false;
        if (nonNeg && v < 0) {
          failAt(itemAt, std::string("negative ") + what + " " + std::to_string(v));
          return false;
        }
        out.push_back(v);
      } while (peek(',') && expect(','));
    }
    if (!expect(']')) return false;
    if (static_cast<int64_t>(out.size()) != expectLen) {
      failAt(at, std::string("count ") + std::to_string(expectLen) + " but " +
                     std::to_string(out.size()) + " " + what + "s");
      return false;
    }
    return true;
  }
  bool order(Order &o) {
    skipSpace();
    size_t at = pos_;
    std::string w = ident();
    if (w == "C") { o = Order::C; return true; }
    if (w == "Fortran") { o = Order::Fortran; return true; }
    failAt(at, "expected order C or Fortran, found '" + w + "'");
    return false;
  }
  bool comma() { return expect(','); }

  TypeExprPtr parseType(int depth) {
    if (depth > 64) return fail("constructor nesting deeper than 64");
    skipSpace();
    size_t at = pos_;
    std::string word = ident();
    if (word.empty()) return fail("expected a datatype, found " + describeHere());
    if (!peek('(')) {
      if (word.rfind("MPI_", 0) == 0) {
        if (!lookupNamedType(word)) return failAt(at, "unknown named type '" + word + "'");
        return expr::named(word);
      }
      return failAt(at, "unknown datatype '" + word + "'");
    }
    if (!expect('(')) return nullptr;
    TypeExprPtr r = parseArgs(word, at, depth);
    if (!r) return nullptr;
    if (!expect(')')) return nullptr;
    return r;
  }

  TypeExprPtr parseArgs(const std::string &word, size_t at, int depth) {
    int64_t n = 0, a = 0, b = 0, c = 0;
    std::vector<int64_t> l1, l2, l3;
    Order o = Order::C;
    auto old = [&]() -> TypeExprPtr { return parseType(depth + 1); };
    if (word == "dup") {
      auto t = old();
      return t ? expr::dup(t) : nullptr;
    }
    if (word == "contiguous") {
      if (!count(n, "count") || !comma()) return nullptr;
      auto t = old();
      return t ? expr::contiguous(n, t) : nullptr;
    }
    if (word == "vector" || word == "hvector") {
      if (!count(a, "count") || !comma() || !count(b, "blocklength") || !comma() || !integer(c) ||
          !comma())
        return nullptr;
      auto t = old();
      if (!t) return nullptr;
      return word == "vector" ? expr::vector(a, b, c, t) : expr::hvector(a, b, c, t);
    }
    if (word == "indexed" || word == "hindexed") {
      if (!count(n, "count") || !comma() || !intList(l1, n, "blocklength", true) || !comma() ||
          !intList(l2, n, "displacement", false) || !comma())
        return nullptr;
      auto t = old();
      if (!t) return nullptr;
      return word == "indexed" ? expr::indexed(l1, l2, t) : expr::hindexed(l1, l2, t);
    }
    if (word == "indexed_block" || word == "hindexed_block") {
      if (!count(n, "count") || !comma() || !count(b, "blocklength") || !comma() ||
          !intList(l1, n, "displacement", false) || !comma())
        return nullptr;
      auto t = old();
      if (!t) return nullptr;
      return word == "indexed_block" ? expr::indexedBlock(b, l1, t) : expr::hindexedBlock(b, l1, t);
    }
    if (word == "struct") {
      if (!count(n, "count") || !comma() || !intList(l1, n, "blocklength", true) || !comma() ||
          !intList(l2, n, "displacement", false) || !comma())
        return nullptr;
      skipSpace();
      size_t listAt = pos_;
      if (!expect('[')) return nullptr;
      std::vector<TypeExprPtr> types;
      if (!peek(']')) {
        do {
          auto t = old();
          if (!t) return nullptr;
          types.push_back(t);
        } while (peek(',') && expect(','));
      }
      if (!expect(']')) return nullptr;
      if (static_cast<int64_t>(types.size()) != n)
        return failAt(listAt, "count " + std::to_string(n) + " but " + std::to_string(types.size()) + " types");
      return expr::structType(l1, l2, types);
    }
    if (word == "subarray") {
      if (!count(n, "ndims") || !comma() || !intList(l1, n, "size", false) || !comma() ||
          !intList(l2, n, "subsize", false) || !comma() || !intList(l3, n, "start", false) ||
          !comma() || !order(o) || !comma())
        return nullptr;
      auto t = old();
      return t ? expr::subarray(l1, l2, l3, o, t) : nullptr;
    }
    if (word == "darray") {
      if (!integer(a) || !comma() || !integer(b) || !comma() || !count(n, "ndims") || !comma() ||
          !intList(l1, n, "gsize", false) || !comma())
        return nullptr;
      std::vector<Distrib> dist;
      skipSpace();
      size_t listAt = pos_;
      if (!expect('[')) return nullptr;
      if (!peek(']')) {
        do {
          skipSpace();
          size_t wAt = pos_;
          std::string w = ident();
          if (w == "BLOCK") dist.push_back(Distrib::Block);
          else if (w == "CYCLIC") dist.push_back(Distrib::Cyclic);
          else if (w == "NONE") dist.push_back(Distrib::None);
          else return failAt(wAt, "expected BLOCK, CYCLIC or NONE, found '" + w + "'");
        } while (peek(',') && expect(','));
      }
      if (!expect(']')) return nullptr;
      if (static_cast<int64_t>(dist.size()) != n)
        return failAt(listAt, "count " + std::to_string(n) + " but " + std::to_string(dist.size()) + " distributions");
      if (!comma()) return nullptr;
      std::vector<int64_t> dargs;
      skipSpace();
      listAt = pos_;
      if (!expect('[')) return nullptr;
      if (!peek(']')) {
        do {
          skipSpace();
          if (pos_ < text_.size() && std::isalpha(static_cast<unsigned char>(text_[pos_]))) {
            size_t wAt = pos_;
            std::string w = ident();
            if (w != "DFLT") return failAt(wAt, "expected a darg or DFLT, found '" + w + "'");
            dargs.push_back(kDargDefault);
          } else {
            int64_t v;
            if (!integer(v)) return nullptr;
            dargs.push_back(v);
          }
        } while (peek(',') && expect(','));
      }
      if (!expect(']')) return nullptr;
      if (static_cast<int64_t>(dargs.size()) != n)
        return failAt(listAt, "count " + std::to_string(n) + " but " + std::to_string(dargs.size()) + " dargs");
      if (!comma() || !intList(l2, n, "psize", false) || !comma() || !order(o) || !comma())
        return nullptr;
      auto t = old();
      return t ? expr::darray(a, b, l1, dist, dargs, l2, o, t) : nullptr;
    }
    if (word == "resized") {
      if (!integer(a) || !comma() || !integer(b) || !comma()) return nullptr;
      auto t = old();
      return t ? expr::resized(a, b, t) : nullptr;
    }
    return failAt(at, "unknown constructor '" + word + "'");
  }
};

} // namespace

std::string printExpr(const TypeExpr &e) {
  std::string out;
  print(out, e);
  return out;
}

Result<TypeExprPtr> parseExpr(std::string_view text) { return Parser(text).parseAll(); }

} // namespace tempi
