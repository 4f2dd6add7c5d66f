/* halo/types.h: the error-checking macro and the datatype builders shared by main.c and
 * exchange.c, as `static inline` functions (each translation unit gets its own copy). */
#ifndef HALO_TYPES_H
#define HALO_TYPES_H

#include <mpi.h>
#include <stdio.h>

#include "halo/config.h"

/* Every MPI call of the library goes through CHECK: prints the failing call and aborts. */
#define CHECK(call)                                                                        \
  do {                                                                                     \
    int e_ = (call);                                                                       \
    if (e_ != MPI_SUCCESS) {                                                               \
      char msg_[MPI_MAX_ERROR_STRING];                                                     \
      int len_ = 0;                                                                        \
      MPI_Error_string(e_, msg_, &len_);                                                   \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, msg_);          \
      MPI_Abort(MPI_COMM_WORLD, e_);                                                       \
    }                                                                                      \
  } while (0)

/* An x face (one yz plane of the interior, x fixed): an hvector of NZ columns. Returned by
 * value, committed. */
static inline MPI_Datatype halo_xface(void) {
  MPI_Datatype col, face;
  CHECK(MPI_Type_vector(NY, 1, LX, MPI_DOUBLE, &col));
  CHECK(MPI_Type_create_hvector(NZ, 1, (MPI_Aint)(LX * LY * sizeof(double)), col, &face));
  CHECK(MPI_Type_free(&col));
  CHECK(MPI_Type_commit(&face));
  return face;
}

/* A y face (one xz plane of the interior, y fixed), written into *out, committed. */
static inline void halo_yface(MPI_Datatype *out) {
  CHECK(MPI_Type_vector(NZ, NX, LX * LY, MPI_DOUBLE, out));
  CHECK(MPI_Type_commit(out));
}

/* One interior z plane as a subarray of the whole block; the caller commits it. */
static inline int halo_zplane(int z, MPI_Datatype *out) {
  const int sizes[3] = {LZ, LY, LX};
  const int sub[3] = {1, NY, NX};
  const int starts[3] = {z, NG, NG};
  return MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, out);
}

#endif /* HALO_TYPES_H */
