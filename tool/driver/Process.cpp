/// \file
/// Process spawning for tempi-cc (see Process.h). Uses posix_spawnp; captured output goes through
/// a file rather than a pipe so a chatty child can never block on a full pipe.
#include "tool/driver/Process.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace tempi::driver {
namespace {

std::vector<char *> cArgv(const std::vector<std::string> &argv) {
  std::vector<char *> out;
  for (const auto &a : argv)
    out.push_back(const_cast<char *>(a.c_str()));
  out.push_back(nullptr);
  return out;
}

} // namespace

RunResult runProgram(const std::vector<std::string> &argv, bool capture,
                     const std::string &scratchDir, const std::string &stdinPath) {
  RunResult r;
  std::string capturePath;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!stdinPath.empty())
    posix_spawn_file_actions_addopen(&actions, 0, stdinPath.c_str(), O_RDONLY, 0);
  if (capture) {
    static int serial = 0;
    capturePath = (scratchDir.empty() ? std::string("/tmp") : scratchDir) + "/output." +
                  std::to_string(getpid()) + "." + std::to_string(serial++);
    posix_spawn_file_actions_addopen(&actions, 1, capturePath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
  }
  pid_t pid;
  auto args = cArgv(argv);
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    r.exitCode = 127;
    r.error = "cannot run '" + argv[0] + "': " + std::strerror(rc);
    return r;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      r.exitCode = 127;
      r.error = std::string("waitpid: ") + std::strerror(errno);
      return r;
    }
  }
  if (WIFEXITED(status))
    r.exitCode = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.exitCode = 128 + WTERMSIG(status);
  // posix_spawnp reports a missing program as the child exiting with 127 on glibc.
  if (r.exitCode == 127 && findProgram(argv[0]).empty())
    r.error = "cannot run '" + argv[0] + "': not found";
  if (capture) {
    readFile(capturePath, r.output);
    unlink(capturePath.c_str());
  }
  return r;
}

Started startProgram(const std::vector<std::string> &argv, const std::string &capturePath) {
  Started s;
  s.capturePath = capturePath;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, capturePath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  // Its own process group, so abandonProgram reaches the compiler the wrapper script starts.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid;
  auto args = cArgv(argv);
  int rc = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0)
    s.error = "cannot run '" + argv[0] + "': " + std::strerror(rc);
  else
    s.pid = pid;
  return s;
}

RunResult finishProgram(Started &p) {
  RunResult r;
  if (p.pid < 0) {
    r.exitCode = 127;
    r.error = p.error;
    return r;
  }
  int status = 0;
  while (waitpid(p.pid, &status, 0) < 0 && errno == EINTR) {
  }
  p.pid = -1;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  readFile(p.capturePath, r.output);
  unlink(p.capturePath.c_str());
  return r;
}

void abandonProgram(Started &p) {
  if (p.pid >= 0) {
    kill(-p.pid, SIGTERM);
    int status;
    while (waitpid(p.pid, &status, 0) < 0 && errno == EINTR) {
    }
    // Wait (at most 5 s) until every process of the group is gone, so none of them writes a file
    // after the caller removes it.
    for (int i = 0; i < 500 && kill(-p.pid, 0) == 0; ++i)
      usleep(10000);
    p.pid = -1;
  }
  unlink(p.capturePath.c_str());
}

std::string execProgram(const std::vector<std::string> &argv) {
  auto args = cArgv(argv);
  execvp(args[0], args.data());
  return "cannot run '" + argv[0] + "': " + std::strerror(errno);
}

std::string findProgram(const std::string &name) {
  if (name.empty())
    return "";
  if (name.find('/') != std::string::npos)
    return access(name.c_str(), X_OK) == 0 ? name : "";
  const char *path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    struct stat st;
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return "";
}

std::string shellJoin(const std::vector<std::string> &argv) {
  std::string out;
  for (const auto &a : argv) {
    if (!out.empty())
      out += ' ';
    bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS"
                                                   "TUVWXYZ0123456789-_./=:,+@%") ==
                                   std::string::npos;
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) {
      if (c == '\'')
        out += "'\\''";
      else
        out += c;
    }
    out += '\'';
  }
  return out;
}

std::string selfDirectory() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return ".";
  std::string path(buf, static_cast<size_t>(n));
  return path.substr(0, path.rfind('/'));
}

bool readFile(const std::string &path, std::string &contents) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  contents = ss.str();
  return true;
}

bool writeFile(const std::string &path, const std::string &contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
  return static_cast<bool>(out);
}

bool fileExists(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

} // namespace tempi::driver
