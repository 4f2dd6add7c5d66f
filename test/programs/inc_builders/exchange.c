/* exchange.c: the halo exchanges, with the datatypes made by halo/types.h's static inline
 * builders. Calls go through CHECK (which stringifies the call) or MPI_CK (which does not). */
#include <mpi.h>

#include "halo/exchange.h"
#include "halo/types.h"

#define MPI_CK(call)                                        \
  do {                                                      \
    if ((call) != MPI_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 3); \
  } while (0)

enum { TAG_XR = 1, TAG_XL = 2, TAG_Y0 = 3, TAG_Y1 = 4, TAG_C = 5 };

/* x is split over the ring: the last interior yz plane goes right, the first goes left. */
int exchange_x(double *field, int left, int right, MPI_Comm comm) {
  MPI_Datatype xf = halo_xface();
  MPI_Status st;
  int n = 0, got = 0;

  CHECK(MPI_Sendrecv(&field[IDX(NG, NG, NX)], 1, xf, right, TAG_XR, &field[IDX(NG, NG, 0)], 1,
                     xf, left, TAG_XR, comm, &st));
  MPI_CK(MPI_Get_count(&st, xf, &n));
  got += n;
  MPI_CK(MPI_Sendrecv(&field[IDX(NG, NG, NG)], 1, xf, left, TAG_XL, &field[IDX(NG, NG, NX + NG)],
                      1, xf, right, TAG_XL, comm, &st));
  MPI_CK(MPI_Get_count(&st, xf, &n));
  got += n;
  CHECK(MPI_Type_free(&xf));
  return got == 2 ? 0 : 1;
}

/* y is periodic inside each rank: the two xz planes go to this rank's own ghost planes. */
int exchange_y(double *field, MPI_Comm comm) {
  MPI_Datatype yf;
  MPI_Request req[4];
  MPI_Status st[4];
  int me;

  MPI_Comm_rank(comm, &me);
  halo_yface(&yf);
  MPI_CK(MPI_Irecv(&field[IDX(NG, 0, NG)], 1, yf, me, TAG_Y0, comm, &req[0]));
  MPI_CK(MPI_Irecv(&field[IDX(NG, NY + NG, NG)], 1, yf, me, TAG_Y1, comm, &req[1]));
  MPI_CK(MPI_Isend(&field[IDX(NG, NY, NG)], 1, yf, me, TAG_Y0, comm, &req[2]));
  CHECK(MPI_Isend(&field[IDX(NG, NG, NG)], 1, yf, me, TAG_Y1, comm, &req[3]));
  CHECK(MPI_Waitall(4, req, st));
  CHECK(MPI_Type_free(&yf));
  return 0;
}

/* The two z lines at the y ghosts of the last interior x column go right, into the x ghost
 * column: an hvector of two vectors, built here from constants. */
int exchange_corners(double *field, int left, int right, MPI_Comm comm) {
  MPI_Datatype zline, pair;
  MPI_Request req[2];
  MPI_Status st[2];
  int i, bad = 0, count = -1;

  CHECK(MPI_Type_vector(NZ, 1, LX * LY, MPI_DOUBLE, &zline));
  CHECK(MPI_Type_create_hvector(2, 1, (MPI_Aint)((NY + NG) * LX * (int)sizeof(double)), zline,
                                &pair));
  CHECK(MPI_Type_commit(&pair));
  MPI_CK(MPI_Irecv(&field[IDX(NG, 0, 0)], 1, pair, left, TAG_C, comm, &req[0]));
  MPI_CK(MPI_Isend(&field[IDX(NG, 0, NX)], 1, pair, right, TAG_C, comm, &req[1]));
  MPI_CK(MPI_Waitall(2, req, st));
  for (i = 0; i < 2; ++i)
    if (st[i].MPI_ERROR != MPI_SUCCESS) ++bad;
  MPI_CK(MPI_Get_count(&st[0], pair, &count));
  CHECK(MPI_Type_free(&zline));
  CHECK(MPI_Type_free(&pair));
  return bad + (count != 1);
}
