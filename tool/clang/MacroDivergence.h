//===- MacroDivergence.h - predefined macros the compiler and the tool disagree on -----------===//
//
// tempi-rewrite parses a source with Clang's predefined macros; the program is compiled by the
// MPI wrapper's compiler (gcc, usually) with its own. Where they differ (`__GNUC__` is 4 in
// Clang and 12 in gcc 12; gcc-only macros; a target macro a flag the tool was not given
// defines) a source that tests one may lay out its data otherwise in the two compilers
// (`#if __GNUC__ >= 5` choosing a row's padding), and a plan made from the tool's parse would
// not describe the compiled program's datatype. tempi-cc passes the compiler's own predefined
// macros (`cc <flags> -dM -E`); this records, while the preprocessor runs, the first place
// outside a system header where the source depends on a macro the two disagree on: tests
// whether it is defined when only one defines it, or uses its value when the values differ.
// The analysis then rewrites nothing in the file (Analysis.cpp), with a remark naming the place.
//
//===----------------------------------------------------------------------------------------===//
#pragma once

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

#include <map>
#include <string>
#include <vector>

namespace tempi::frontend {

/// NAME -> value of every `#define NAME value` line in `text` (a `-dM -E` listing).
std::map<std::string, std::string> parseMacroDefinitions(const std::string &text);

/// Whether two predefined macros' values mean the same: integers compared by value (`0x7f` and
/// `127`), type names by their words (`short unsigned int` and `unsigned short`), floating
/// constants always (gcc and Clang print them to different precisions; no `#if` reads them),
/// anything else by its text without spaces.
bool sameMacroValue(const std::string &a, const std::string &b);

class MacroDivergence : public clang::PPCallbacks {
public:
  /// `compiler`: the compiler's predefined macros (with the command line's -D and -U). The
  /// tool's are read from `pp` where the main file's own text begins.
  MacroDivergence(clang::Preprocessor &pp, std::map<std::string, std::string> compiler);

  struct Use {
    clang::SourceLocation loc; ///< where the source depends on the macro (a file location)
    std::string what;          ///< "tests whether __clang__ is defined (...)", ...
  };
  /// Every dependence recorded, in order (system headers left out).
  const std::vector<Use> &uses() const { return uses_; }

  void MacroExpands(const clang::Token &name, const clang::MacroDefinition &md,
                    clang::SourceRange range, const clang::MacroArgs *args) override;
  void Defined(const clang::Token &name, const clang::MacroDefinition &md,
               clang::SourceRange range) override;
  void Ifdef(clang::SourceLocation loc, const clang::Token &name,
             const clang::MacroDefinition &md) override;
  void Ifndef(clang::SourceLocation loc, const clang::Token &name,
              const clang::MacroDefinition &md) override;
  void Elifdef(clang::SourceLocation loc, const clang::Token &name,
               const clang::MacroDefinition &md) override;
  void Elifndef(clang::SourceLocation loc, const clang::Token &name,
                const clang::MacroDefinition &md) override;
  void If(clang::SourceLocation loc, clang::SourceRange cond,
          ConditionValueKind value) override;
  void Elif(clang::SourceLocation loc, clang::SourceRange cond, ConditionValueKind value,
            clang::SourceLocation ifLoc) override;
  void FileChanged(clang::SourceLocation loc, FileChangeReason reason,
                   clang::SrcMgr::CharacteristicKind kind, clang::FileID prev) override;

private:
  void testsDefined(const clang::Token &name, clang::SourceLocation loc);
  void usesValue(const std::string &name, clang::SourceLocation loc);
  /// `#if X` of a macro only the compiler defines: the tool's preprocessor sees an identifier
  /// (0) and reports no expansion, so the condition's text is searched for such names.
  void scanCondition(clang::SourceRange cond);
  void record(clang::SourceLocation loc, std::string what);

  /// The tool's macros where the main file's text begins (after the predefines and the
  /// implicitly included stdc-predef.h), compared with the compiler's.
  void compare();

  clang::Preprocessor &pp_;
  const clang::SourceManager &sm_;
  std::map<std::string, std::string> compiler_;
  bool compared_ = false;
  /// Macros defined by only one of the two: name -> "the compiler defines it, the tool's Clang
  /// does not" (or the reverse).
  std::map<std::string, std::string> definedness_;
  /// Macros both define with different values: name -> "the compiler defines it as 12, the
  /// tool's Clang as 4".
  std::map<std::string, std::string> values_;
  std::vector<Use> uses_;
};

} // namespace tempi::frontend
