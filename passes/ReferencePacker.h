/// \file
/// The host reference packer: the slow, obviously correct packer every fast path is checked
/// against. Works from any TypeIR (raw or canonical) and from a StridedBlock.
///
/// `base` is the user's buffer pointer; offsets relative to it may be negative. Returns the number
/// of packed bytes written/read (count * size).
#pragma once

#include "passes/StridedBlock.h"
#include "passes/TypeIR.h"

#include <cstdint>

namespace tempi {

int64_t packReference(const IRNode &type, int64_t count, const unsigned char *base,
                      unsigned char *packed);
int64_t unpackReference(const IRNode &type, int64_t count, const unsigned char *packed,
                        unsigned char *base);
int64_t packStrided(const StridedBlock &b, int64_t count, const unsigned char *base,
                    unsigned char *packed);
int64_t unpackStrided(const StridedBlock &b, int64_t count, const unsigned char *packed,
                      unsigned char *base);

} // namespace tempi
