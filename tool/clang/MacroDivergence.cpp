//===- MacroDivergence.cpp - predefined macros the compiler and the tool disagree on ---------===//
#include "tool/clang/MacroDivergence.h"

#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <sstream>

using namespace clang;

namespace tempi::frontend {

namespace {

std::string withoutSpaces(const std::string &s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c)))
      out += c;
  return out;
}

/// `0x7fff`, `32767`, `(127)`, `0xffffffffffffffffUL` as a number; none for anything else.
std::optional<unsigned long long> integerValue(std::string s) {
  s = withoutSpaces(s);
  while (s.size() >= 2 && s.front() == '(' && s.back() == ')')
    s = s.substr(1, s.size() - 2);
  while (!s.empty() && (s.back() == 'u' || s.back() == 'U' || s.back() == 'l' || s.back() == 'L'))
    s.pop_back();
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0])))
    return std::nullopt;
  size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(s, &used, 0);
  } catch (...) {
    return std::nullopt;
  }
  if (used != s.size())
    return std::nullopt;
  return v;
}

bool looksFloating(const std::string &s) {
  const std::string t = withoutSpaces(s);
  return t.find_first_of(".") != std::string::npos &&
         t.find_first_of("0123456789") != std::string::npos &&
         t.find_first_not_of("0123456789.eE+-()FLfl16xX3264dbl") == std::string::npos;
}

/// The words of a type name, `int` dropped beside a size word, sorted.
std::optional<std::vector<std::string>> typeWords(const std::string &s) {
  static const char *kWords[] = {"unsigned", "signed", "short", "long", "int", "char"};
  std::istringstream in(s);
  std::vector<std::string> words;
  for (std::string w; in >> w;) {
    if (std::find(std::begin(kWords), std::end(kWords), w) == std::end(kWords))
      return std::nullopt;
    words.push_back(w);
  }
  const bool sized = std::count(words.begin(), words.end(), "short") ||
                     std::count(words.begin(), words.end(), "long");
  if (sized)
    words.erase(std::remove(words.begin(), words.end(), "int"), words.end());
  std::sort(words.begin(), words.end());
  return words.empty() ? std::nullopt : std::optional(words);
}

} // namespace

std::map<std::string, std::string> parseMacroDefinitions(const std::string &text) {
  std::map<std::string, std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::string kDefine = "#define ";
    if (line.compare(0, kDefine.size(), kDefine) != 0)
      continue;
    size_t i = kDefine.size(), j = i;
    while (j < line.size() && (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '_'))
      ++j;
    if (j == i)
      continue;
    std::string name = line.substr(i, j - i);
    if (j < line.size() && line[j] == '(') { // a function-like macro: its body after the list
      const size_t close = line.find(')', j);
      j = close == std::string::npos ? line.size() : close + 1;
    }
    std::string value = j < line.size() ? line.substr(j) : "";
    const size_t b = value.find_first_not_of(" \t"), e = value.find_last_not_of(" \t\r");
    out[name] = b == std::string::npos ? "" : value.substr(b, e - b + 1);
  }
  return out;
}

bool sameMacroValue(const std::string &a, const std::string &b) {
  if (withoutSpaces(a) == withoutSpaces(b))
    return true;
  std::optional<unsigned long long> ia = integerValue(a), ib = integerValue(b);
  if (ia && ib)
    return *ia == *ib;
  if (looksFloating(a) && looksFloating(b))
    return true;
  std::optional<std::vector<std::string>> ta = typeWords(a), tb = typeWords(b);
  return ta && tb && *ta == *tb;
}

MacroDivergence::MacroDivergence(Preprocessor &pp, std::map<std::string, std::string> compiler)
    : pp_(pp), sm_(pp.getSourceManager()), compiler_(std::move(compiler)) {}

void MacroDivergence::FileChanged(SourceLocation loc, FileChangeReason reason,
                                  SrcMgr::CharacteristicKind, FileID) {
  // The predefines buffer (and the stdc-predef.h it includes) is read first; returning from it
  // to the main file is where the program's own text begins.
  if (!compared_ && reason == ExitFile && sm_.getFileID(sm_.getExpansionLoc(loc)) == sm_.getMainFileID())
    compare();
}

void MacroDivergence::compare() {
  compared_ = true;
  std::map<std::string, std::string> tool;
  for (const auto &[ident, state] : pp_.macros()) {
    const MacroInfo *mi = pp_.getMacroInfo(ident);
    if (!mi || mi->isBuiltinMacro())
      continue;
    std::string body;
    for (const Token &t : mi->tokens())
      body += (body.empty() ? "" : " ") + pp_.getSpelling(t);
    tool[ident->getName().str()] = body;
  }
  for (const auto &[name, value] : compiler_) {
    auto t = tool.find(name);
    if (t == tool.end())
      definedness_[name] = "the compiler defines it, the tool's Clang does not";
    else if (!sameMacroValue(value, t->second))
      values_[name] = "the compiler defines it as " + value + ", the tool's Clang as " + t->second;
  }
  for (const auto &[name, value] : tool)
    if (!compiler_.count(name) && name.compare(0, 2, "__") == 0) // not the program's own -D
      definedness_[name] = "the tool's Clang defines it, the compiler does not";
}

void MacroDivergence::record(SourceLocation loc, std::string what) {
  loc = sm_.getExpansionLoc(loc);
  if (!compared_ || loc.isInvalid() || sm_.isInSystemHeader(loc))
    return;
  uses_.push_back({loc, std::move(what)});
}

void MacroDivergence::testsDefined(const Token &name, SourceLocation loc) {
  const IdentifierInfo *ii = name.getIdentifierInfo();
  if (!ii)
    return;
  if (auto d = definedness_.find(ii->getName().str()); d != definedness_.end())
    record(loc, "tests whether " + d->first + " is defined (" + d->second + ")");
}

void MacroDivergence::usesValue(const std::string &name, SourceLocation loc) {
  if (auto v = values_.find(name); v != values_.end())
    record(loc, "uses " + name + " (" + v->second + ")");
  else if (auto d = definedness_.find(name); d != definedness_.end())
    record(loc, "uses " + name + " (" + d->second + ")");
}

void MacroDivergence::MacroExpands(const Token &name, const MacroDefinition &, SourceRange range,
                                   const MacroArgs *) {
  if (const IdentifierInfo *ii = name.getIdentifierInfo())
    usesValue(ii->getName().str(), range.getBegin());
}

void MacroDivergence::Defined(const Token &name, const MacroDefinition &, SourceRange range) {
  testsDefined(name, range.getBegin());
}

void MacroDivergence::Ifdef(SourceLocation loc, const Token &name, const MacroDefinition &) {
  testsDefined(name, loc);
}

void MacroDivergence::Ifndef(SourceLocation loc, const Token &name, const MacroDefinition &) {
  testsDefined(name, loc);
}

void MacroDivergence::Elifdef(SourceLocation loc, const Token &name, const MacroDefinition &) {
  testsDefined(name, loc);
}

void MacroDivergence::Elifndef(SourceLocation loc, const Token &name, const MacroDefinition &) {
  testsDefined(name, loc);
}

void MacroDivergence::scanCondition(SourceRange cond) {
  if (cond.isInvalid())
    return;
  // The range's end is its last token's start: the text runs to that token's end.
  SourceLocation end = Lexer::getLocForEndOfToken(cond.getEnd(), 0, sm_, pp_.getLangOpts());
  if (end.isInvalid())
    end = cond.getEnd();
  const CharSourceRange r = CharSourceRange::getCharRange(cond.getBegin(), end);
  const std::string text = Lexer::getSourceText(r, sm_, pp_.getLangOpts()).str();
  for (size_t i = 0; i < text.size();) {
    if (std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_') {
      size_t j = i;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
        ++j;
      const std::string word = text.substr(i, j - i);
      // Only a macro the compiler defines and the tool's Clang does not: the others expand in
      // the tool's preprocessor and MacroExpands or Defined saw them.
      if (auto d = definedness_.find(word); d != definedness_.end() && compiler_.count(word))
        record(cond.getBegin(), "uses " + word + " (" + d->second + ")");
      i = j;
    } else {
      ++i;
    }
  }
}

void MacroDivergence::If(SourceLocation, SourceRange cond, ConditionValueKind) {
  scanCondition(cond);
}

void MacroDivergence::Elif(SourceLocation, SourceRange cond, ConditionValueKind, SourceLocation) {
  scanCondition(cond);
}

} // namespace tempi::frontend
