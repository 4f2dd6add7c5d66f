/// \file
/// Code generation from canonical shapes (see KernelGen.h for the contract).
///
/// planDefinition prints one tempi_static_plan as a positional initializer in tempi.h's field
/// order; it refuses (returns "") a shape with more than TEMPI_MAX_DIMS outer dimensions.
/// generateKernelSource prints the .cu that instantiates tempi::kernels::packStatic/unpackStatic
/// once per distinct shapeKey, in order of first appearance, and registers each pair from a
/// load-time constructor. It skips shapes that need no kernel or cannot have one: no bytes at all
/// (nothing to pack), a contiguous shape (no outer dimension and a run as long as the extent:
/// packing `count` elements is one copy, which the runtime does without a kernel), and more than
/// TEMPI_MAX_DIMS dimensions (no plan). The second line
/// of the file, "// tempi-kernels: N", says how many pairs it registers; tempi-cc reads it to skip
/// nvcc when N is 0.
#include "tool/codegen/KernelGen.h"

#include "passes/KernelPlan.h"

#include <cinttypes>
#include <cstdio>
#include <limits>
#include <set>

namespace tempi::codegen {
namespace {

/// Mirrors TEMPI_MAX_DIMS and TEMPI_PLAN_ABI_VERSION of runtime/include/tempi/tempi.h (that
/// header includes mpi.h, so it is not included here; test/codegen compiles the output against it).
constexpr size_t kMaxDims = 8;
constexpr int kPlanAbiVersion = 1;

std::string hex16(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}

/// A C/C++ integer constant expression of type long long for any int64 value (INT64_MIN has no
/// literal of its own).
std::string int64Literal(int64_t v) {
  if (v == std::numeric_limits<int64_t>::min())
    return "(-9223372036854775807LL - 1)";
  std::string s = std::to_string(v);
  if (v > std::numeric_limits<int32_t>::max() || v < std::numeric_limits<int32_t>::min())
    s += "LL";
  return s;
}

/// The same value in a plan initializer, which is compiled with the user's flags: no `LL`
/// suffix, which `-std=c89 -pedantic-errors` and `-Wlong-long -Werror` reject ("use of C99 long
/// long integer constant"), but stdint.h's INT64_C (tempi.h includes it; `L` on LP64).
std::string planInt64(int64_t v) {
  if (v == std::numeric_limits<int64_t>::min())
    return "(-INT64_C(9223372036854775807) - 1)";
  if (v > std::numeric_limits<int32_t>::max() || v < std::numeric_limits<int32_t>::min())
    return "INT64_C(" + std::to_string(v) + ")";
  return std::to_string(v);
}

/// A C string literal holding `text` (printStrided output is plain ASCII; escape anyway).
std::string cString(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", static_cast<unsigned char>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string braceList(const std::vector<StridedBlock::Dim> &dims, bool counts) {
  if (dims.empty())
    return "{0}";
  std::string s = "{";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      s += ", ";
    s += planInt64(counts ? dims[i].count : dims[i].stride);
  }
  return s + "}";
}

bool fitsPlan(const StridedBlock &shape) { return shape.dims.size() <= kMaxDims; }

/// Whether a specialized kernel is worth generating for the shape (see the file comment).
bool needsKernel(const StridedBlock &shape) {
  const bool contiguous = shape.dims.empty() && shape.bytes == shape.extent;
  return fitsPlan(shape) && shape.bytes != 0 && !contiguous;
}

/// The template argument list <W, Start, Bytes, Extent, count0, stride0, ...>.
std::string templateArgs(const StridedBlock &shape) {
  std::string s = "<" + std::to_string(makePlan(shape).wordSize) + ", " +
                  int64Literal(shape.start) + ", " + int64Literal(shape.bytes) + ", " +
                  int64Literal(shape.extent);
  for (const auto &d : shape.dims)
    s += ", " + int64Literal(d.count) + ", " + int64Literal(d.stride);
  return s + ">";
}

} // namespace

std::string planSymbol(const StridedBlock &shape) {
  return "tempi_gen_plan_" + hex16(shapeKey(shape));
}

std::string planDefinition(const StridedBlock &shape, std::string_view nullPointer) {
  if (!fitsPlan(shape))
    return "";
  const KernelPlan plan = makePlan(shape);
  std::string s = "static tempi_static_plan " + planSymbol(shape) + " = {";
  s += std::to_string(kPlanAbiVersion) + ", ";
  s += "UINT64_C(0x" + hex16(shapeKey(shape)) + "), ";
  s += planInt64(shape.start) + ", ";
  s += planInt64(shape.bytes) + ", ";
  s += std::to_string(shape.dims.size()) + ", ";
  s += braceList(shape.dims, true) + ", ";
  s += braceList(shape.dims, false) + ", ";
  s += planInt64(shape.extent) + ", ";
  s += planInt64(shape.lb) + ", ";
  s += planInt64(shape.size()) + ", ";
  s += std::to_string(plan.wordSize) + ", ";
  s += cString(printStrided(shape)) + ", ";
  s += std::string(nullPointer) + "};";
  return s;
}

std::string planArrayDefinition(const std::string &symbol,
                                const std::vector<std::string> &planSymbols,
                                std::string_view nullPointer) {
  std::string s = "static const tempi_static_plan *const " + symbol + "[" +
                  std::to_string(planSymbols.size()) + "] = {";
  for (size_t i = 0; i < planSymbols.size(); ++i) {
    s += i ? ", " : "";
    s += planSymbols[i].empty() ? std::string(nullPointer) : "&" + planSymbols[i];
  }
  return s + "};";
}

std::string generateKernelSource(const std::vector<StridedBlock> &shapes,
                                 std::string_view sourceName) {
  std::vector<const StridedBlock *> distinct;
  std::set<uint64_t> seen;
  for (const auto &shape : shapes) {
    if (!needsKernel(shape))
      continue;
    if (seen.insert(shapeKey(shape)).second)
      distinct.push_back(&shape);
  }

  std::string s;
  s += "// generated from " + std::string(sourceName) + ", do not edit\n";
  s += "// tempi-kernels: " + std::to_string(distinct.size()) + "\n";
  s += "#include <tempi/tempi.h>\n";
  s += "#include <tempi/kernels.cuh>\n\n";
  s += "namespace {\n";
  for (const StridedBlock *shape : distinct) {
    const std::string key = hex16(shapeKey(*shape));
    const std::string args = templateArgs(*shape);
    s += "\n// " + printStrided(*shape) + "\n";
    s += "tempi_result tempi_gen_pack_" + key +
         "(void *packed, const void *base, int64_t count, void *stream) {\n";
    s += "  return tempi::kernels::packStatic" + args +
         "(packed, base, count, static_cast<cudaStream_t>(stream));\n}\n";
    s += "tempi_result tempi_gen_unpack_" + key +
         "(void *base, const void *packed, int64_t count, void *stream) {\n";
    s += "  return tempi::kernels::unpackStatic" + args +
         "(base, packed, count, static_cast<cudaStream_t>(stream));\n}\n";
  }
  s += "\n// Registers every pair above with libtempi when the program (or library) is loaded.\n";
  s += "struct tempi_gen_registrar {\n  tempi_gen_registrar() {\n";
  for (const StridedBlock *shape : distinct) {
    const std::string key = hex16(shapeKey(*shape));
    s += "    tempi_register_kernels(0x" + key + "ULL, tempi_gen_pack_" + key +
         ", tempi_gen_unpack_" + key + ");\n";
  }
  s += "  }\n};\ntempi_gen_registrar tempi_gen_registrar_instance;\n\n";
  s += "} // namespace\n";
  return s;
}

} // namespace tempi::codegen
