/// \file
/// Code generation from canonical shapes (contract between tempi-rewrite and the codegen library).
///
/// tempi-rewrite puts one plan object per canonical shape into the rewritten translation unit
/// (planDefinition) and, when asked, writes a .cu file that instantiates the runtime's kernel
/// templates for those shapes with every count and stride a compile-time constant and registers
/// them by shape key from a load-time constructor (generateKernelSource). Deduplicated by shape:
/// equivalent datatypes share one plan and one kernel. Depends on passes/ only (no Clang).
#pragma once

#include "passes/StridedBlock.h"

#include <string>
#include <string_view>
#include <vector>

namespace tempi::codegen {

/// "tempi_gen_plan_<16 hex digits of shapeKey>"
std::string planSymbol(const StridedBlock &shape);

/// A C/C++ definition of the static tempi_static_plan for `shape`, positional initializer in
/// tempi.h's field order, e.g.
///   static tempi_static_plan tempi_gen_plan_0123... = {1, UINT64_C(0x0123...), 0, 8, 1, {4},
///   {512}, ..., 0};
/// It is compiled with the user's flags, so it must not warn under any of them: 64-bit constants
/// through stdint.h's UINT64_C/INT64_C (no `LL`, which C89 and -Wlong-long reject), and the
/// null runtime_slot spelled `nullPointer` ("nullptr" for C++11 and later, where `0` trips
/// -Wzero-as-null-pointer-constant; "0" for C).
/// Returns an empty string when the shape cannot be expressed (more than TEMPI_MAX_DIMS dims).
std::string planDefinition(const StridedBlock &shape, std::string_view nullPointer = "0");

/// A C/C++ definition of a file-scope array of plan pointers (the per-peer plans argument of
/// tempi_Alltoallw and friends), one entry per symbol, "" for a null entry, e.g.
///   static const tempi_static_plan *const tempi_gen_plans_0[2] = {&tempi_gen_plan_0123..., 0};
/// on one line, a null entry spelled `nullPointer` (as for planDefinition; no cast, which
/// -Wold-style-cast would flag in C++). An initializer of addresses of static objects: valid in
/// C and in C++, where a compound literal would not be.
std::string planArrayDefinition(const std::string &symbol,
                                const std::vector<std::string> &planSymbols,
                                std::string_view nullPointer = "0");

/// The whole generated .cu for one translation unit: banner "generated from <sourceName>, do not
/// edit", one packStatic/unpackStatic instantiation pair per distinct shape, and a constructor
/// that calls tempi_register_kernels for each. Shapes are deduplicated by shapeKey. Shapes that
/// need no kernel (no bytes; contiguous: no dims and bytes == extent, packing is one copy) or
/// cannot have one (more than TEMPI_MAX_DIMS dims) are skipped. The second line is
/// "// tempi-kernels: N", N the number of registered pairs (tempi-cc skips nvcc when it is 0).
std::string generateKernelSource(const std::vector<StridedBlock> &shapes,
                                 std::string_view sourceName);

} // namespace tempi::codegen
