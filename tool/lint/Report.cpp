/// \file
/// SARIF 2.1.0 and replacement-YAML writers over detached findings (see Report.h). The SARIF log
/// is checked against the official 2.1.0 schema by test/lint/sarif-schema.test.
#include "tool/lint/Report.h"

#include "clang/Basic/FileManager.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/ReplacementsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"

#include <set>
#include <tuple>

using namespace clang;

namespace tempi::lint {

namespace {

std::string absolutePath(StringRef name) {
  llvm::SmallString<256> p(name);
  llvm::sys::fs::make_absolute(p);
  llvm::sys::path::remove_dots(p, true);
  return std::string(p);
}

/// file:///abs/path with the characters RFC 3986 does not allow in a path percent-encoded.
std::string fileUri(const std::string &path) {
  std::string out = "file://";
  for (unsigned char ch : path) {
    if (isalnum(ch) || std::strchr("/-._~!$&'()*+,;=:@", ch))
      out += static_cast<char>(ch);
    else {
      char buf[4];
      snprintf(buf, sizeof buf, "%%%02X", ch);
      out += buf;
    }
  }
  return out;
}

/// "NonCanonicalType" for "non-canonical-type" (SARIF's rule name, a readable identifier).
std::string ruleName(const std::string &id) {
  std::string out;
  bool upper = true;
  for (char ch : id) {
    if (ch == '-') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(toupper(ch)) : ch;
    upper = false;
  }
  return out;
}

llvm::json::Object region(const TextRange &r) {
  llvm::json::Object o{{"startLine", r.line}, {"startColumn", r.column}};
  if (r.endLine) {
    o["endLine"] = r.endLine;
    o["endColumn"] = r.endColumn;
  }
  o["charOffset"] = r.offset;
  o["charLength"] = r.length;
  return o;
}

llvm::json::Object physical(const TextRange &r) {
  return llvm::json::Object{
      {"artifactLocation", llvm::json::Object{{"uri", fileUri(r.file)}}},
      {"region", region(r)}};
}

} // namespace

TextRange toTextRange(const SourceManager &sm, SourceLocation loc, CharSourceRange r) {
  TextRange t;
  SourceLocation b = r.isValid() ? r.getBegin() : sm.getFileLoc(loc);
  b = sm.getFileLoc(b);
  FileID fid = sm.getFileID(b);
  if (OptionalFileEntryRef fe = sm.getFileEntryRefForID(fid))
    t.file = absolutePath(fe->getName());
  t.offset = sm.getFileOffset(b);
  t.line = sm.getLineNumber(fid, t.offset);
  t.column = sm.getColumnNumber(fid, t.offset);
  if (r.isValid() && r.isCharRange() && sm.getFileID(r.getEnd()) == fid) {
    unsigned end = sm.getFileOffset(r.getEnd());
    if (end >= t.offset) {
      t.length = end - t.offset;
      t.endLine = sm.getLineNumber(fid, end);
      t.endColumn = sm.getColumnNumber(fid, end);
    }
  }
  return t;
}

ReportedFinding detach(const Finding &f, const SourceManager &sm) {
  ReportedFinding r;
  r.check = f.check->name;
  r.message = f.message;
  r.range = toTextRange(sm, f.loc, f.range);
  // The caret may sit inside the highlighted range (a call's name); the region starts there.
  for (const FixIt &x : f.fixes)
    r.fixes.push_back({toTextRange(sm, x.range.getBegin(), x.range), x.text});
  for (const Note &n : f.notes)
    r.notes.push_back({toTextRange(sm, n.loc, CharSourceRange()), n.message});
  return r;
}

void writeSarif(llvm::raw_ostream &os, const std::vector<ReportedFinding> &findings,
                bool executionSuccessful) {
  llvm::json::Array rules;
  std::map<std::string, size_t> index;
  for (const CheckInfo &c : allChecks()) {
    index[c.name] = rules.size();
    rules.push_back(llvm::json::Object{
        {"id", std::string("tempi-") + c.name},
        {"name", ruleName(c.name)},
        {"shortDescription", llvm::json::Object{{"text", c.title}}},
        {"helpUri", helpUri(c)},
        {"defaultConfiguration", llvm::json::Object{{"level", "warning"}}}});
  }
  llvm::json::Array results;
  for (const ReportedFinding &f : findings) {
    llvm::json::Object res{
        {"ruleId", "tempi-" + f.check},
        {"ruleIndex", index[f.check]},
        {"level", "warning"},
        {"message", llvm::json::Object{{"text", f.message + " [tempi-" + f.check + "]"}}},
        {"locations", llvm::json::Array{llvm::json::Object{{"physicalLocation", physical(f.range)}}}}};
    if (!f.notes.empty()) {
      llvm::json::Array related;
      for (size_t i = 0; i < f.notes.size(); ++i)
        related.push_back(llvm::json::Object{
            {"id", static_cast<int64_t>(i)},
            {"physicalLocation", physical(f.notes[i].at)},
            {"message", llvm::json::Object{{"text", f.notes[i].message}}}});
      res["relatedLocations"] = std::move(related);
    }
    if (!f.fixes.empty()) {
      llvm::json::Array fixes;
      for (const ReportedFinding::Fix &x : f.fixes) {
        llvm::json::Object deleted{{"charOffset", x.range.offset},
                                   {"charLength", x.range.length}};
        deleted["startLine"] = x.range.line;
        deleted["startColumn"] = x.range.column;
        deleted["endLine"] = x.range.endLine ? x.range.endLine : x.range.line;
        deleted["endColumn"] = x.range.endLine ? x.range.endColumn : x.range.column;
        fixes.push_back(llvm::json::Object{
            {"description", llvm::json::Object{{"text", "replace with " + x.text}}},
            {"artifactChanges",
             llvm::json::Array{llvm::json::Object{
                 {"artifactLocation", llvm::json::Object{{"uri", fileUri(x.range.file)}}},
                 {"replacements",
                  llvm::json::Array{llvm::json::Object{
                      {"deletedRegion", std::move(deleted)},
                      {"insertedContent", llvm::json::Object{{"text", x.text}}}}}}}}}});
      }
      res["fixes"] = std::move(fixes);
    }
    results.push_back(std::move(res));
  }
  llvm::json::Object driver{{"name", "tempi-lint"},
                            {"version", TEMPI_VERSION},
                            {"informationUri", helpUri(allChecks().front()).substr(
                                                   0, helpUri(allChecks().front()).rfind("/lint/")) +
                                                   "/lint.md"},
                            {"rules", std::move(rules)}};
  llvm::json::Object log{
      {"$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                  "sarif-schema-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       llvm::json::Array{llvm::json::Object{
           {"tool", llvm::json::Object{{"driver", std::move(driver)}}},
           {"invocations", llvm::json::Array{llvm::json::Object{
                               {"executionSuccessful", executionSuccessful}}}},
           {"columnKind", "unicodeCodePoints"},
           {"results", std::move(results)}}}}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(log))) << "\n";
}

void writeFixesYaml(llvm::raw_ostream &os, const std::string &mainFile,
                    const std::vector<ReportedFinding> &findings) {
  tooling::TranslationUnitReplacements tu;
  tu.MainSourceFile = absolutePath(mainFile);
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> seen;
  for (const ReportedFinding &f : findings)
    for (const ReportedFinding::Fix &x : f.fixes)
      if (seen.insert({x.range.file, x.range.offset, x.range.length, x.text}).second)
        tu.Replacements.emplace_back(absolutePath(x.range.file), x.range.offset, x.range.length,
                                     x.text);
  llvm::yaml::Output yaml(os);
  yaml << tu;
}

} // namespace tempi::lint
