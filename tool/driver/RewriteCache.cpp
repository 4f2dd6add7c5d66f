/// \file
/// The rewrite cache (see RewriteCache.h).
#include "tool/driver/RewriteCache.h"

#include "tool/driver/Hash.h"
#include "tool/driver/Process.h"

#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

namespace tempi::driver {
namespace {

std::string fileStamp(const std::string &path) {
  std::string text;
  if (!readFile(path, text))
    return "missing";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%016" PRIx64 " %zu", fnv1a(text), text.size());
  return buf;
}

bool readCounted(const std::string &p, size_t &pos, std::string &out) {
  size_t nl = p.find('\n', pos);
  if (nl == std::string::npos)
    return false;
  size_t n = std::strtoull(p.substr(pos, nl - pos).c_str(), nullptr, 10);
  if (p.size() < nl + 1 + n)
    return false;
  out = p.substr(nl + 1, n);
  pos = nl + 1 + n;
  return true;
}

} // namespace

std::string rewriteKey(const std::string &tool, const std::vector<std::string> &toolArgs,
                       const std::string &sourceText) {
  struct stat st {};
  stat(tool.c_str(), &st);
  char cwd[PATH_MAX];
  std::string key = "tempi-rewrite-v1\n" + tool + " " + std::to_string(st.st_size) + " " +
                    std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) +
                    "\n" + (getcwd(cwd, sizeof cwd) ? cwd : "?") + "\n" + shellJoin(toolArgs) +
                    "\n";
  return key + sourceText;
}

bool lookupWithHeaders(const KernelCache &cache, const std::string &key,
                       std::vector<std::string> &parts, size_t count) {
  std::string p;
  if (!cache.lookupBytes(key, p))
    return false;
  size_t pos = 0, nl = p.find('\n');
  if (nl == std::string::npos)
    return false;
  size_t headers = std::strtoull(p.substr(0, nl).c_str(), nullptr, 10);
  pos = nl + 1;
  for (size_t i = 0; i < headers; ++i) {
    // "<hash> <size> <path>\n"
    nl = p.find('\n', pos);
    if (nl == std::string::npos)
      return false;
    std::string line = p.substr(pos, nl - pos);
    pos = nl + 1;
    size_t second = line.find(' ', line.find(' ') + 1);
    if (second == std::string::npos || fileStamp(line.substr(second + 1)) != line.substr(0, second))
      return false;
  }
  parts.assign(count, std::string());
  for (auto &part : parts)
    if (!readCounted(p, pos, part))
      return false;
  return pos == p.size();
}

bool storeWithHeaders(const KernelCache &cache, const std::string &key,
                      const std::vector<std::string> &headers,
                      const std::vector<std::string> &parts) {
  std::string p = std::to_string(headers.size()) + "\n";
  for (const auto &h : headers) {
    std::string stamp = fileStamp(h);
    if (stamp == "missing")
      return false;
    p += stamp + " " + h + "\n";
  }
  for (const auto &part : parts)
    p += std::to_string(part.size()) + "\n" + part;
  return cache.storeBytes(key, p);
}

bool lookupRewrite(const KernelCache &cache, const std::string &key, CachedRewrite &out) {
  std::vector<std::string> parts;
  if (!lookupWithHeaders(cache, key, parts, 2))
    return false;
  out.rewritten = parts[0];
  out.kernels = parts[1];
  return true;
}

bool storeRewrite(const KernelCache &cache, const std::string &key,
                  const std::vector<std::string> &headers, const CachedRewrite &result) {
  return storeWithHeaders(cache, key, headers, {result.rewritten, result.kernels});
}

std::vector<std::string> parseMakeDependencies(const std::string &text) {
  std::vector<std::string> out;
  size_t colon = text.find(": ");
  if (colon == std::string::npos)
    return out;
  std::string cur;
  for (size_t i = colon + 2; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : '\n';
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
      c = ' ';
    } else if (c == '\\' && i + 1 < text.size() && text[i + 1] == ' ') {
      cur += ' ';
      ++i;
      continue;
    }
    if (c == ' ' || c == '\n' || c == '\t') {
      if (!cur.empty())
        out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

} // namespace tempi::driver
