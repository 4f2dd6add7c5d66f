// A C++17 3-D halo program split over three translation units and a header-only helper file
// (fields.hpp: constexpr sizes in a namespace, inline datatype builders, a Layout class whose
// member functions return new types, a PersistentHalo class owning persistent requests, and a
// C++17 inline variable holding a datatype). main.cpp sets up a periodic 3-D Cartesian grid and
// runs five phases on a ghosted block of doubles: the six faces through exchange.cpp's arrays of
// helper-built types; persistent x/y face exchanges over three steps (exchange.cpp); the z faces
// through the header's PersistentHalo (whose calls are in the header); a z plane and x columns
// through Layout's factory members (MPI_Sendrecv here); each rank's first interior x line to
// rank 0 through the inline variable. Every phase refills the interior from the global
// coordinates and the step, and every ghost cell is compared with the global cell it mirrors
// (edges, corners and faces not exchanged must stay -1). Rank 0 prints each phase's checksum.
// NP: 4
// CFLAGS: -std=c++17
#include "fields.hpp"

#include <cstdio>

using namespace fx;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Topo t{};
  int periods[3] = {1, 1, 1};
  MPI_Comm_size(MPI_COMM_WORLD, &t.size);
  MPI_Dims_create(t.size, 3, t.dims);
  MPI_Cart_create(MPI_COMM_WORLD, 3, t.dims, periods, 0, &t.cart);
  MPI_Comm_rank(t.cart, &t.rank);
  MPI_Cart_coords(t.cart, t.rank, 3, t.coords);
  for (int a = 0; a < 3; ++a) MPI_Cart_shift(t.cart, a, 1, &t.lo[a], &t.hi[a]);
  if (t.rank == 0)
    std::printf("grid %d x %d x %d, blocks %d x %d x %d\n", t.dims[0], t.dims[1], t.dims[2], NZ, NY,
                NX);

  std::vector<double> u(CELLS);
  int failed = 0;
  long long sum = 0;

  // 1. Six faces from arrays of helper-built types (exchange.cpp).
  fill(u, t, 1);
  faces_by_helper(u, t);
  int bad1 = check(u, t, 1, 0x3fu, sum);
  failed += report(t, "faces by helper", bad1, sum);

  // 2. Persistent x/y faces, steps 2..4 (exchange.cpp).
  failed += persistent_steps(u, t, 2, 3);

  // 3. z faces through the header's PersistentHalo, steps 5..6.
  {
    MPI_Datatype zs_lo, zs_hi, zr_lo, zr_hi;
    face(&zs_lo, Z, 1);
    face(&zs_hi, Z, NZ);
    face(&zr_lo, Z, 0);
    face(&zr_hi, Z, NZ + 1);
    std::vector<PersistentHalo::Entry> list{
        {zs_lo, zr_hi, t.lo[Z], t.hi[Z], tag(Z, 0)},
        {zs_hi, zr_lo, t.hi[Z], t.lo[Z], tag(Z, 1)},
    };
    PersistentHalo halo(u.data(), list, t.cart);
    int bad = 0;
    sum = 0;
    for (int s = 5; s <= 6; ++s) {
      fill(u, t, s);
      halo.run();
      bad += check(u, t, s, 0x03u, sum);
    }
    // The same z faces once more by their own names, from this file.
    fill(u, t, 7);
    MPI_Sendrecv(u.data(), 1, zs_lo, t.lo[Z], tag(Z, 0), u.data(), 1, zr_hi, t.hi[Z], tag(Z, 0),
                 t.cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(u.data(), 1, zs_hi, t.hi[Z], tag(Z, 1), u.data(), 1, zr_lo, t.lo[Z], tag(Z, 1),
                 t.cart, MPI_STATUS_IGNORE);
    bad += check(u, t, 7, 0x03u, sum);
    failed += report(t, "z faces in header", bad, sum);
    for (MPI_Datatype *d : {&zs_lo, &zs_hi, &zr_lo, &zr_hi}) MPI_Type_free(d);
  }

  // 4. Layout's factory members: the top interior z plane into the low z ghost, and the low x
  //    interior column of every z plane into the high x ghost.
  {
    const Layout lay(NY);
    MPI_Datatype zp = lay.z_plane();
    MPI_Datatype yc = lay.y_columns();
    fill(u, t, 8);
    MPI_Sendrecv(&u[at(NZ, 1, 1)], 1, zp, t.hi[Z], tag(Z, 1), &u[at(0, 1, 1)], 1, zp, t.lo[Z],
                 tag(Z, 1), t.cart, MPI_STATUS_IGNORE);
    for (int z = 1; z <= NZ; ++z)
      MPI_Sendrecv(&u[at(z, 1, 1)], 1, yc, t.lo[X], tag(X, 0), &u[at(z, 1, NX + 1)], 1, yc,
                   t.hi[X], tag(X, 0), t.cart, MPI_STATUS_IGNORE);
    sum = 0;
    int bad = check(u, t, 8, 0x01u | 0x20u, sum);
    failed += report(t, "layout members", bad, sum);
    MPI_Type_free(&yc);
    MPI_Type_free(&zp);
  }

  // 5. The inline variable, built here, used by exchange.cpp.
  MPI_Type_contiguous(NX, MPI_DOUBLE, &g_xline);
  MPI_Type_commit(&g_xline);
  fill(u, t, 9);
  failed += report(t, "lines to root", lines_to_root(u, t, 9), 0);
  MPI_Type_free(&g_xline);

  MPI_Comm_free(&t.cart);
  MPI_Finalize();
  return failed ? 1 : 0;
}
