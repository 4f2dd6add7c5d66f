/// \file
/// Asking the MPI wrapper what it adds to a compile (see WrapperShow.h).
#include "tool/driver/WrapperShow.h"

#include "tool/driver/Hash.h"
#include "tool/driver/Process.h"

#include <cstdint>
#include <cstdio>
#include <sys/stat.h>
#include <unistd.h>

namespace tempi::driver {

WrapperShow askWrapper(const Config &cfg, const std::string &scratchDir) {
  WrapperShow show;
  // The wrapper's answer is remembered in the cache folder, keyed by the wrapper file itself
  // (path, size, mtime), so a build does not ask it again for every source.
  struct stat st {};
  stat(cfg.wrapper.c_str(), &st);
  std::string memo;
  if (!cfg.cacheDir.empty()) {
    char name[40];
    const uint64_t h = fnv1a(cfg.wrapper + "\n" + std::to_string(st.st_size) + "\n" +
                             std::to_string(st.st_mtim.tv_sec) + "." +
                             std::to_string(st.st_mtim.tv_nsec));
    std::snprintf(name, sizeof name, "wrapper-%016llx.show", static_cast<unsigned long long>(h));
    memo = cfg.cacheDir + "/" + name;
  }
  // MPICH (and Intel MPI, MVAPICH) answer -show; Open MPI answers --showme.
  for (const char *query : {"-show", "--showme"}) {
    RunResult r;
    if (!memo.empty() && readFile(memo, r.output) && !r.output.empty()) {
      r.exitCode = 0;
    } else {
      r = runProgram({cfg.wrapper, query}, true, scratchDir);
      if (r.exitCode != 0 || r.output.empty())
        continue;
      if (!memo.empty()) { // written once the cache folder exists
        std::string tmp = memo + ".tmp." + std::to_string(getpid());
        if (writeFile(tmp, r.output))
          std::rename(tmp.c_str(), memo.c_str());
        unlink(tmp.c_str());
      }
    }
    std::vector<std::string> tokens;
    std::string cur;
    for (char c : r.output + " ") {
      if (c == ' ' || c == '\t' || c == '\n') {
        if (!cur.empty())
          tokens.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    if (!tokens.empty())
      show.compiler = tokens[0];
    for (size_t i = 1; i < tokens.size(); ++i) {
      const std::string &t = tokens[i];
      if ((t == "-I" || t == "-isystem") && i + 1 < tokens.size()) {
        show.frontEndFlags.push_back(t);
        show.frontEndFlags.push_back(tokens[++i]);
      } else if (t.rfind("-I", 0) == 0 || t.rfind("-D", 0) == 0 || t.rfind("-isystem", 0) == 0 ||
                 t == "-pthread") {
        show.frontEndFlags.push_back(t);
      }
    }
    break;
  }
  return show;
}

} // namespace tempi::driver
