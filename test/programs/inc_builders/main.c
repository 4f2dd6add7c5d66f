/* A two-source program laid out as a small library: the headers live in include/halo/ (found
 * through -Iinclude, and halo/config.h also comes in through `-include halo/config.h`), the
 * datatype builders are `static inline` functions of include/halo/types.h used by both sources
 * (main.c and exchange.c), every MPI call is wrapped in an error-checking macro (CHECK, which
 * stringifies its call, or the plain MPI_CK), and the sizes come from the config header with NZ
 * overridden on the command line (-DNZ=6). main.c includes no <mpi.h> of its own: MPI comes
 * through halo/types.h. The build is -std=c99 -pedantic -Werror at -g -O0 (the last -O wins over
 * the harness's -O2). A 3-D block per rank, the ranks a periodic ring along x, y periodic
 * inside each rank; x faces, y faces and the x-y corner lines are exchanged and every ghost
 * checked against its global value; then one interior z plane of every rank is gathered on rank
 * 0 (subarray sends into a vector slot of the global plane) and checked.
 * NP: 3
 * CFLAGS: -std=c99 -pedantic -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Wdeclaration-after-statement -g -O0 -Iinclude -include halo/config.h -DNZ=6 */
#include <stdio.h>
#include <stdlib.h>

#include "halo/exchange.h"
#include "halo/types.h"

#if NZ != 6
#error "the build passes -DNZ=6"
#endif

static void fill(double *restrict f, int rank) {
  int z, y, x;
  for (z = 0; z < LZ; ++z)
    for (y = 0; y < LY; ++y)
      for (x = 0; x < LX; ++x) {
        int interior = z >= NG && z < NZ + NG && y >= NG && y < NY + NG && x >= NG && x < NX + NG;
        f[IDX(z, y, x)] = interior ? GVAL(z - NG, y - NG, rank * NX + x - NG) : -1.0;
      }
}

/* Value a ghost (or interior) point must hold after the exchanges, -1 where nothing writes. */
static double expected(int z, int y, int x, int rank, int size) {
  int gz = z - NG, gy = y - NG, lx = x - NG, gx;
  if (z < NG || z >= NZ + NG) return -1.0; /* z is not exchanged */
  if (y < NG) gy = NY - 1;
  if (y >= NY + NG) gy = 0;
  gx = rank * NX + lx;
  if (x < NG) gx = ((rank + size - 1) % size) * NX + NX - 1;
  if (x >= NX + NG) gx = ((rank + 1) % size) * NX;
  /* x ghosts at y ghosts: only the corner lines at x = 0 are exchanged */
  if ((y < NG || y >= NY + NG) && x >= NX + NG) return -1.0;
  return GVAL(gz, gy, gx);
}

static int check_block(const double *f, int rank, int size, int *ghosts) {
  int z, y, x, bad = 0;
  *ghosts = 0;
  for (z = 0; z < LZ; ++z)
    for (y = 0; y < LY; ++y)
      for (x = 0; x < LX; ++x) {
        double want = expected(z, y, x, rank, size), got = f[IDX(z, y, x)];
        int ghost = x < NG || x >= NX + NG || y < NG || y >= NY + NG;
        if (ghost && want > -1.0) ++*ghosts;
        if (got < want || got > want) {
          if (bad < 3) printf("rank %d: (%d,%d,%d) = %.1f, want %.1f\n", rank, z, y, x, got, want);
          ++bad;
        }
      }
  return bad;
}

/* Rank 0 receives every rank's interior plane z = zp into its column block of the plane. */
static int gather_plane(const double *f, int rank, int size, int zp) {
  static double plane[NY][NPMAX * NX];
  MPI_Datatype mine, slot;
  int r, y, x, bad = 0;

  CHECK(halo_zplane(zp, &mine));
  CHECK(MPI_Type_commit(&mine));
  CHECK(MPI_Type_vector(NY, NX, NPMAX * NX, MPI_DOUBLE, &slot));
  CHECK(MPI_Type_commit(&slot));
  if (rank == 0) {
    for (y = 0; y < NY; ++y)
      for (x = 0; x < NPMAX * NX; ++x) plane[y][x] = -3.0;
    CHECK(MPI_Sendrecv(f, 1, mine, 0, 9, &plane[0][0], 1, slot, 0, 9, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    for (r = 1; r < size; ++r)
      CHECK(MPI_Recv(&plane[0][r * NX], 1, slot, r, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (y = 0; y < NY; ++y)
      for (x = 0; x < NPMAX * NX; ++x) {
        double want = x < size * NX ? GVAL(zp - NG, y, x) : -3.0;
        if (plane[y][x] < want || plane[y][x] > want) ++bad;
      }
    printf("plane z=%d: plane[%d][%d] = %.1f, %d errors\n", zp - NG, NY - 1, size * NX - 1,
           plane[NY - 1][size * NX - 1], bad);
  } else {
    CHECK(MPI_Send(f, 1, mine, 0, 9, MPI_COMM_WORLD));
  }
  CHECK(MPI_Type_free(&slot));
  CHECK(MPI_Type_free(&mine));
  return bad;
}

int main(int argc, char **argv) {
  int rank, size, left, right, bad = 0, ghosts = 0, total = 0, all_ghosts = 0;
  double *f;

  CHECK(MPI_Init(&argc, &argv));
  CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
  if (size > NPMAX) {
    if (rank == 0) printf("at most %d ranks\n", NPMAX);
    MPI_Finalize();
    return 2;
  }
  left = (rank + size - 1) % size;
  right = (rank + 1) % size;
  f = malloc(sizeof(double) * LZ * LY * LX);
  if (!f) MPI_Abort(MPI_COMM_WORLD, 4);
  fill(f, rank);

  bad += exchange_x(f, left, right, MPI_COMM_WORLD);
  bad += exchange_y(f, MPI_COMM_WORLD);
  bad += exchange_corners(f, left, right, MPI_COMM_WORLD);
  bad += check_block(f, rank, size, &ghosts);
  CHECK(MPI_Reduce(&ghosts, &all_ghosts, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
  CHECK(MPI_Reduce(&bad, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
  if (rank == 0)
    printf("block %d x %d x %d on %d ranks: %d ghost values checked, %d errors\n", NZ, NY, NX,
           size, all_ghosts, total);

  bad = gather_plane(f, rank, size, NG + 2);
  CHECK(MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD));
  total += bad;
  CHECK(MPI_Bcast(&total, 1, MPI_INT, 0, MPI_COMM_WORLD));
  if (rank == 0) printf("%s\n", total == 0 ? "OK" : "FAILED");
  free(f);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
