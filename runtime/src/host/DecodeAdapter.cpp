/// \file
/// decodeType and calibrateNamedTypes (DecodeAdapter.h): runtime/mpitypes when built, else a
/// refusal and nothing.
#include "DecodeAdapter.h"

#if defined(TEMPI_HAVE_MPITYPES)
#include "runtime/mpitypes/NamedProbe.h"
#include "runtime/mpitypes/TypeDecode.h"
#endif

namespace tempi {

Result<TypeExprPtr> decodeType(MPI_Datatype type) {
#if defined(TEMPI_HAVE_MPITYPES)
  return decodeMpiType(type);
#else
  (void)type;
  return Result<TypeExprPtr>::fail("the runtime decoder (runtime/mpitypes) is not built");
#endif
}

std::vector<AlignmentDifference> calibrateNamedTypes() {
#if defined(TEMPI_HAVE_MPITYPES)
  return calibrateNamedTypeAlignments();
#else
  return {};
#endif
}

} // namespace tempi
