/// \file
/// knownHost() (HostRanges.h).
#include "runtime/src/device/HostRanges.h"

#include <link.h>
#include <pthread.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tempi::device {

namespace {

struct Range {
  uintptr_t begin = 0, end = 0;
  bool has(uintptr_t p) const { return p >= begin && p < end; }
};

/// The calling thread's stack, asked once per thread.
struct ThreadStack {
  Range range;
  bool known = false;
};
thread_local ThreadStack stack;

Range threadStack() {
  if (!stack.known) {
    stack.known = true;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      void *addr = nullptr;
      size_t size = 0;
      if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
        stack.range.begin = reinterpret_cast<uintptr_t>(addr);
        stack.range.end = stack.range.begin + size;
      }
      pthread_attr_destroy(&attr);
    }
  }
  return stack.range;
}

/// Field 47 of /proc/self/stat: where the brk heap starts (Linux 3.5+); 0 when unreadable.
uintptr_t heapStart() {
  FILE *f = std::fopen("/proc/self/stat", "r");
  if (!f) return 0;
  char buf[4096];
  const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[n] = '\0';
  const char *p = std::strrchr(buf, ')'); // the command name may contain spaces
  if (!p) return 0;
  // after ") " comes field 3; start_brk is field 47
  unsigned long long value = 0;
  int field = 2;
  for (const char *q = p + 1; *q && field < 47; ++q)
    if (*q == ' ') {
      ++field;
      if (field == 47) value = std::strtoull(q + 1, nullptr, 10);
    }
  return static_cast<uintptr_t>(value);
}

/// The main program's writable PT_LOAD segments (data, bss), found once.
struct ProgramData {
  Range ranges[4];
  int n = 0;
};

int collect(dl_phdr_info *info, size_t, void *out) {
  auto *data = static_cast<ProgramData *>(out);
  for (int i = 0; i < info->dlpi_phnum && data->n < 4; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_W)) continue;
    const uintptr_t b = info->dlpi_addr + ph.p_vaddr;
    data->ranges[data->n++] = Range{b, b + ph.p_memsz};
  }
  return 1; // the first object is the main program: stop there
}

const ProgramData &programData() {
  static const ProgramData data = [] {
    ProgramData d;
    dl_iterate_phdr(collect, &d);
    return d;
  }();
  return data;
}

} // namespace

bool knownHost(uintptr_t p) {
  if (threadStack().has(p)) return true;
  static const uintptr_t heapBegin = heapStart();
  if (heapBegin && p >= heapBegin && p < reinterpret_cast<uintptr_t>(sbrk(0))) return true;
  const ProgramData &d = programData();
  for (int i = 0; i < d.n; ++i)
    if (d.ranges[i].has(p)) return true;
  return false;
}

} // namespace tempi::device
