/// \file
/// The predefined-type probes (NamedProbe.h): alignment through MPICH's struct padding, and the
/// bytes a strided MPI_Pack writes. PMPI_ calls only.
#include "runtime/mpitypes/NamedProbe.h"

#include "runtime/mpitypes/NamedHandles.h"

#include <cstring>
#include <string>

namespace tempi {
namespace {

/// A derived type built here, freed on scope exit.
struct Owned {
  MPI_Datatype t = MPI_DATATYPE_NULL;
  Owned() = default;
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  ~Owned() {
    if (t != MPI_DATATYPE_NULL) PMPI_Type_free(&t);
  }
};

/// Packs one `t` from `src` into a buffer filled with `fill`; empty on an MPI error.
std::vector<unsigned char> packOver(MPI_Datatype t, const unsigned char *src, int packSize,
                                    unsigned char fill) {
  std::vector<unsigned char> out(static_cast<size_t>(packSize), fill);
  int pos = 0;
  if (PMPI_Pack(src, 1, t, out.data(), packSize, &pos, MPI_COMM_SELF) != MPI_SUCCESS) return {};
  return out;
}

} // namespace

Result<int64_t> measureNamedTypeAlignment(MPI_Datatype t, int64_t extent) {
  using R = Result<int64_t>;
  const int64_t p = (extent / 64 + 1) * 64;
  Owned marker, probe;
  if (PMPI_Type_contiguous(2, MPI_CHAR, &marker.t) != MPI_SUCCESS)
    return R::fail("MPI_Type_contiguous failed");
  int lengths[2] = {1, 1};
  MPI_Aint displs[2] = {0, static_cast<MPI_Aint>(p - 1)};
  MPI_Datatype types[2] = {t, marker.t};
  if (PMPI_Type_create_struct(2, lengths, displs, types, &probe.t) != MPI_SUCCESS)
    return R::fail("MPI_Type_create_struct failed");
  MPI_Count lb = 0, got = 0;
  if (PMPI_Type_get_extent_x(probe.t, &lb, &got) != MPI_SUCCESS)
    return R::fail("MPI_Type_get_extent_x failed");
  const int64_t align = static_cast<int64_t>(got) - p;
  if (lb != 0 || align <= 0 || align > 64 || (align & (align - 1)) != 0)
    return R::fail("the probe struct has lb " + std::to_string(lb) + " and extent " +
                   std::to_string(got) + ", not the first multiple of a power of two past " +
                   std::to_string(p));
  return R::ok(align);
}

std::vector<AlignmentDifference> calibrateNamedTypeAlignments() {
  for (const NamedTypeInfo &info : allNamedTypes()) {
    MPI_Datatype h = namedTypeHandle(info.name);
    if (h == MPI_DATATYPE_NULL) continue;
    if (Result<int64_t> a = measureNamedTypeAlignment(h, info.extent))
      setNamedTypeAlignment(info.name, *a);
  }
  return namedAlignmentDifferences();
}

std::vector<bool> stridedPackWrittenBytes(MPI_Datatype t) {
  MPI_Count size = 0, lb = 0, extent = 0;
  if (PMPI_Type_size_x(t, &size) != MPI_SUCCESS ||
      PMPI_Type_get_extent_x(t, &lb, &extent) != MPI_SUCCESS || size <= 0 || lb != 0 ||
      extent < size)
    return {};
  std::vector<bool> written(static_cast<size_t>(size), true);
  struct Shape { int count, blocklength, stride; };
  for (Shape s : {Shape{2, 1, 2}, Shape{2, 2, 3}}) {
    Owned v;
    if (PMPI_Type_vector(s.count, s.blocklength, s.stride, t, &v.t) != MPI_SUCCESS ||
        PMPI_Type_commit(&v.t) != MPI_SUCCESS)
      return {};
    const int elements = s.count * s.blocklength;
    const int64_t span = ((s.count - 1) * s.stride + s.blocklength) * int64_t(extent);
    std::vector<unsigned char> src(static_cast<size_t>(span));
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 37 + 11);
    int packSize = 0;
    if (PMPI_Pack_size(1, v.t, MPI_COMM_SELF, &packSize) != MPI_SUCCESS ||
        packSize < elements * size)
      return {};
    std::vector<unsigned char> a = packOver(v.t, src.data(), packSize, 0x00);
    std::vector<unsigned char> b = packOver(v.t, src.data(), packSize, 0xff);
    if (a.empty() || b.empty()) return {};
    // A byte left alone keeps its background: a[i] == 0x00 and b[i] == 0xff. A written byte holds
    // the same value in both.
    for (int e = 0; e < elements; ++e)
      for (MPI_Count i = 0; i < size; ++i) {
        size_t at = static_cast<size_t>(e * size + i);
        if (a[at] != b[at]) written[static_cast<size_t>(i)] = false;
      }
  }
  return written;
}

} // namespace tempi
