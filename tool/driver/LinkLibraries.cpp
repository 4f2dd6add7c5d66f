#include "tool/driver/LinkLibraries.h"

#include "tool/driver/Process.h"

#include <string_view>

namespace tempi::driver {
namespace {

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

/// What one -l resolves to, or "" when it is not an archive of the searched folders.
std::string findArchive(const std::string &name, bool staticOnly,
                        const std::vector<std::string> &dirs) {
  for (const std::string &dir : dirs) {
    if (!name.empty() && name[0] == ':') { // -l:FILE
      std::string file = dir + "/" + name.substr(1);
      if (fileExists(file))
        return file.size() > 2 && file.compare(file.size() - 2, 2, ".a") == 0 ? file : "";
      continue;
    }
    if (!staticOnly && fileExists(dir + "/lib" + name + ".so"))
      return ""; // a shared library carries its own dependencies
    if (fileExists(dir + "/lib" + name + ".a"))
      return dir + "/lib" + name + ".a";
  }
  return "";
}

} // namespace

std::vector<std::string> splitLibraryPath(const char *value) {
  std::vector<std::string> dirs;
  std::string_view rest = value ? value : "";
  while (!rest.empty()) {
    size_t colon = rest.find(':');
    std::string_view part = rest.substr(0, colon);
    if (!part.empty())
      dirs.emplace_back(part);
    rest = colon == std::string_view::npos ? "" : rest.substr(colon + 1);
  }
  return dirs;
}

std::vector<std::string> archivesNamedByLibraries(const CommandLine &cl,
                                                  const std::vector<std::string> &libraryPath) {
  const auto &a = cl.args;
  // ld applies every -L to every -l, wherever they stand.
  std::vector<std::string> dirs;
  for (size_t k = 0; k < cl.linkOnly.size(); ++k) {
    const std::string &arg = a[cl.linkOnly[k]];
    if (arg == "-L" && k + 1 < cl.linkOnly.size())
      dirs.push_back(a[cl.linkOnly[++k]]);
    else if (startsWith(arg, "-L"))
      dirs.push_back(arg.substr(2));
  }
  dirs.insert(dirs.end(), libraryPath.begin(), libraryPath.end());

  std::vector<std::string> archives;
  bool staticOnly = false;
  for (size_t k = 0; k < cl.linkOnly.size(); ++k) {
    const std::string &arg = a[cl.linkOnly[k]];
    std::string name;
    if (arg == "-static") {
      staticOnly = true;
    } else if (arg == "-L" || arg == "-Xlinker" || arg == "-T" || arg == "-u" || arg == "-e" ||
               arg == "-z") { // options whose value is the next argument
      if (arg == "-Xlinker" && k + 1 < cl.linkOnly.size()) {
        const std::string &word = a[cl.linkOnly[k + 1]];
        if (word == "-Bstatic" || word == "-Bdynamic" || word == "-dn" || word == "-dy")
          staticOnly = word == "-Bstatic" || word == "-dn";
      }
      ++k;
    } else if (arg == "-l" && k + 1 < cl.linkOnly.size()) {
      name = a[cl.linkOnly[++k]];
    } else if (startsWith(arg, "-l")) {
      name = arg.substr(2);
    } else if (startsWith(arg, "-Wl,")) {
      for (std::string_view w : linkerWords(arg))
        if (w == "-Bstatic" || w == "-Bdynamic" || w == "-dn" || w == "-dy")
          staticOnly = w == "-Bstatic" || w == "-dn";
    }
    if (name.empty())
      continue;
    std::string archive = findArchive(name, staticOnly, dirs);
    if (!archive.empty())
      archives.push_back(archive);
  }
  return archives;
}

} // namespace tempi::driver
