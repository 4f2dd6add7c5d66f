/// \file
/// A check that stops the fuzzer with a message: libFuzzer treats abort() as a finding and saves
/// the input. Used instead of assert() so the checks stay on in every build mode.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#define FUZZ_CHECK(cond, what)                                                                     \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s\n  %s\n", __FILE__, __LINE__, #cond,    \
                   std::string(what).c_str());                                                     \
      std::abort();                                                                                \
    }                                                                                              \
  } while (0)
