/// \file
/// decodeType (DecodeAdapter.h): runtime/mpitypes when built, else a refusal.
#include "DecodeAdapter.h"

#if defined(TEMPI_HAVE_MPITYPES)
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

} // namespace tempi
