/// \file
/// knownHost(): address ranges that are host memory for the whole life of the process or thread,
/// so that the per-call question "is this buffer device memory?" needs no CUDA call for them
/// (cudaPointerGetAttributes costs about 0.2 us, more than the rest of a call's decision).
///
/// The ranges: the calling thread's stack, the brk heap between its start and the current break
/// (where glibc's malloc puts small blocks), and the writable segments of the main program (its
/// globals and statics). None of them can ever hold device memory: each is a live host mapping
/// the process never unmaps (the brk heap only shrinks from its top, and the current break is
/// read at every question). Memory from mmap (large mallocs, other libraries) is not covered and
/// is asked of CUDA as before.
#pragma once

#include <cstdint>

namespace tempi::device {

bool knownHost(uintptr_t p);

} // namespace tempi::device
