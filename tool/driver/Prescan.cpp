/// \file
/// The preprocessed-text test for "nothing to rewrite" (see Prescan.h).
#include "tool/driver/Prescan.h"

#include <cstring>

namespace tempi::driver {
namespace {

/// The file name of a line marker `# N "FILE" FLAGS` or `#line N "FILE"`, unescaped; false when
/// the line is not a marker with a file name.
bool markerFile(const std::string &text, size_t begin, size_t end, std::string &file) {
  size_t p = begin + 1;
  while (p < end && (text[p] == ' ' || text[p] == '\t'))
    ++p;
  if (text.compare(p, 4, "line") == 0)
    p += 4;
  while (p < end && (text[p] == ' ' || text[p] == '\t'))
    ++p;
  if (p >= end || text[p] < '0' || text[p] > '9')
    return false;
  while (p < end && text[p] >= '0' && text[p] <= '9')
    ++p;
  while (p < end && text[p] == ' ')
    ++p;
  if (p >= end || text[p] != '"')
    return false;
  file.clear();
  for (++p; p < end && text[p] != '"'; ++p) {
    if (text[p] == '\\' && p + 1 < end)
      ++p;
    file += text[p];
  }
  return true;
}

bool isMpiHeader(const std::string &file, const std::vector<std::string> &dirs) {
  size_t slash = file.rfind('/');
  if ((slash == std::string::npos ? file : file.substr(slash + 1)) == "mpi.h")
    return true;
  for (const auto &dir : dirs) {
    if (dir.empty())
      continue;
    std::string d = dir.back() == '/' ? dir : dir + "/";
    if (file.compare(0, d.size(), d) == 0)
      return true;
  }
  return false;
}

} // namespace

bool mentionsTypeConstructor(const std::string &preprocessed,
                             const std::vector<std::string> &mpiIncludeDirs) {
  bool inMpiHeader = false;
  std::string file;
  for (size_t begin = 0; begin < preprocessed.size();) {
    size_t end = preprocessed.find('\n', begin);
    if (end == std::string::npos)
      end = preprocessed.size();
    if (preprocessed[begin] == '#' && markerFile(preprocessed, begin, end, file)) {
      inMpiHeader = isMpiHeader(file, mpiIncludeDirs);
    } else if (!inMpiHeader) {
      const char *line = preprocessed.data() + begin;
      if (memmem(line, end - begin, "MPI_Type_", 9) != nullptr)
        return true;
    }
    begin = end + 1;
  }
  return false;
}

} // namespace tempi::driver
