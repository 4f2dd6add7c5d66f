/// \file
/// The TypeIR text form: printIR and parseIR (see TextForm.h for the grammar by example).
///
///   node   := dense(off=I, bytes=I) [layout]
///           | stream(off=I, count=I, stride=I, node) [layout]
///           | seq(off=I, [node, node, ...]) [layout]
///   layout := @ lb=I extent=I true_lb=I true_extent=I size=I
///
/// printIR(n, true) writes the root's layout always and an inner node's layout only when it is not
/// the node's natural layout (naturalLayout), so parseIR(printIR(n)) is equal to n, inner layouts
/// included. A node written without a layout gets its natural layout.
///
/// parseIR refuses, with "line:column: reason": unknown keywords, missing punctuation, integers
/// that do not fit in 64 bits, negative counts or byte counts, a layout whose size differs from the
/// node's byte count, trees whose bounds overflow 64 bits, nesting deeper than 512, and trailing
/// text.
#include "passes/TextForm.h"

#include <cctype>
#include <limits>

namespace tempi {

namespace {

void printLayout(std::string &out, const Layout &l) {
  out += " @ lb=" + std::to_string(l.lb) + " extent=" + std::to_string(l.extent) +
         " true_lb=" + std::to_string(l.trueLb) + " true_extent=" + std::to_string(l.trueExtent) +
         " size=" + std::to_string(l.size);
}

void printNode(std::string &out, const IRNode &n, bool withLayout, bool isRoot) {
  switch (n.kind) {
  case IRKind::Dense:
    out += "dense(off=" + std::to_string(n.offset) + ", bytes=" + std::to_string(n.bytes) + ")";
    break;
  case IRKind::Stream:
    out += "stream(off=" + std::to_string(n.offset) + ", count=" + std::to_string(n.count) +
           ", stride=" + std::to_string(n.stride) + ", ";
    printNode(out, *n.child, withLayout, false);
    out += ")";
    break;
  case IRKind::Seq:
    out += "seq(off=" + std::to_string(n.offset) + ", [";
    for (size_t i = 0; i < n.elems.size(); ++i) {
      if (i)
        out += ", ";
      printNode(out, *n.elems[i], withLayout, false);
    }
    out += "])";
    break;
  }
  if (withLayout && (isRoot || !(n.layout == naturalLayout(n))))
    printLayout(out, n.layout);
}

constexpr int kMaxDepth = 512;

class IRParser {
public:
  explicit IRParser(std::string_view text) : text_(text) {}

  Result<IRPtr> parseRoot() {
    IRPtr n = parseNode(0);
    if (!n)
      return Result<IRPtr>::fail(error_);
    skipSpace();
    if (pos_ != text_.size())
      return fail("unexpected text after the type");
    return Result<IRPtr>::ok(n);
  }

private:
  Result<IRPtr> fail(const std::string &reason) {
    setError(reason);
    return Result<IRPtr>::fail(error_);
  }

  /// Records the first error at the current position; returns nullptr for convenience.
  std::nullptr_t setError(const std::string &reason) {
    if (!error_.empty())
      return nullptr;
    size_t line = 1, col = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    error_ = std::to_string(line) + ":" + std::to_string(col) + ": " + reason;
    return nullptr;
  }

  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }

  bool peek(char c) {
    skipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }

  bool expect(char c) {
    if (peek(c)) {
      ++pos_;
      return true;
    }
    setError(std::string("expected '") + c + "'" + foundText());
    return false;
  }

  std::string foundText() {
    if (pos_ >= text_.size())
      return " at end of input";
    return std::string(" before '") + text_[pos_] + "'";
  }

  std::string_view word() {
    skipSpace();
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    return text_.substr(start, pos_ - start);
  }

  bool expectWord(std::string_view w) {
    size_t start = (skipSpace(), pos_);
    std::string_view got = word();
    if (got == w)
      return true;
    pos_ = start;
    setError("expected '" + std::string(w) + "'" + foundText());
    return false;
  }

  bool integer(int64_t &v) {
    skipSpace();
    size_t start = pos_;
    bool neg = false;
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) {
      neg = text_[pos_] == '-';
      ++pos_;
    }
    if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      pos_ = start;
      setError("expected an integer" + foundText());
      return false;
    }
    unsigned __int128 acc = 0;
    const unsigned __int128 limit =
        neg ? (unsigned __int128)std::numeric_limits<int64_t>::max() + 1
            : (unsigned __int128)std::numeric_limits<int64_t>::max();
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      acc = acc * 10 + (text_[pos_] - '0');
      if (acc > limit) {
        pos_ = start;
        setError("integer does not fit in 64 bits");
        return false;
      }
      ++pos_;
    }
    v = neg ? int64_t(-(__int128)acc) : int64_t(acc);
    return true;
  }

  /// `name=I`
  bool field(std::string_view name, int64_t &v) {
    if (!expectWord(name) || !expect('='))
      return false;
    valueAt_ = (skipSpace(), pos_);
    return integer(v);
  }

  /// Refuses a negative value, pointing at the value just parsed by field().
  bool nonNegative(int64_t v, const char *what) {
    if (v >= 0)
      return true;
    pos_ = valueAt_;
    setError(std::string(what) + " must not be negative");
    return false;
  }

  IRPtr parseNode(int depth) {
    if (depth > kMaxDepth)
      return setError("type nested deeper than " + std::to_string(kMaxDepth));
    skipSpace();
    size_t start = pos_;
    std::string_view kw = word();
    int64_t off = 0;
    IRPtr n;
    if (kw == "dense") {
      int64_t bytes = 0;
      if (!expect('(') || !field("off", off) || !expect(',') || !field("bytes", bytes) ||
          !nonNegative(bytes, "bytes") || !expect(')'))
        return nullptr;
      n = ir::dense(off, bytes, {});
    } else if (kw == "stream") {
      int64_t count = 0, stride = 0;
      if (!expect('(') || !field("off", off) || !expect(',') || !field("count", count) ||
          !nonNegative(count, "count") || !expect(',') ||
          !field("stride", stride) || !expect(','))
        return nullptr;
      IRPtr child = parseNode(depth + 1);
      if (!child || !expect(')'))
        return nullptr;
      n = ir::stream(off, count, stride, child, {});
    } else if (kw == "seq") {
      if (!expect('(') || !field("off", off) || !expect(',') || !expect('['))
        return nullptr;
      std::vector<IRPtr> elems;
      if (!peek(']')) {
        for (;;) {
          IRPtr e = parseNode(depth + 1);
          if (!e)
            return nullptr;
          elems.push_back(e);
          if (peek(',')) {
            ++pos_;
            continue;
          }
          break;
        }
      }
      if (!expect(']') || !expect(')'))
        return nullptr;
      n = ir::seq(off, std::move(elems), {});
    } else {
      pos_ = start;
      return setError(kw.empty() ? "expected 'dense', 'stream' or 'seq'" + foundText()
                                 : "unknown node '" + std::string(kw) +
                                       "' (expected 'dense', 'stream' or 'seq')");
    }
    std::optional<Layout> natural = checkedNaturalLayout(*n);
    if (!natural) {
      pos_ = start;
      return setError("the bounds or the size of this node overflow 64 bits");
    }
    Layout layout = *natural;
    if (peek('@')) {
      size_t at = pos_++;
      if (!field("lb", layout.lb) || !field("extent", layout.extent) ||
          !field("true_lb", layout.trueLb) || !field("true_extent", layout.trueExtent) ||
          !field("size", layout.size))
        return nullptr;
      if (layout.size != natural->size) {
        pos_ = at;
        return setError("layout size=" + std::to_string(layout.size) + " but the node has " +
                        std::to_string(natural->size) + " bytes");
      }
    }
    return ir::withLayout(n, layout);
  }

  std::string_view text_;
  size_t pos_ = 0;
  size_t valueAt_ = 0; ///< where the last field()'s value starts
  std::string error_;
};

} // namespace

std::string printIR(const IRNode &n, bool withLayout) {
  std::string out;
  printNode(out, n, withLayout, true);
  return out;
}

Result<IRPtr> parseIR(std::string_view text) { return IRParser(text).parseRoot(); }

} // namespace tempi
