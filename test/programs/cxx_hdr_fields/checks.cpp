// Third source of cxx_hdr_fields: the field's values, the ghost check and the report. No
// communication with derived datatypes here (only MPI_Reduce of plain ints and long longs).
#include "fields.hpp"

#include <cstdio>

namespace fx {
double value(int step, int gz, int gy, int gx) {
  return step * 1000000.0 + gz * 10000.0 + gy * 100.0 + gx;
}

namespace {
int global(const Topo &t, int axis, int local) {
  int n = t.dims[axis] * extent(axis);
  return ((t.coords[axis] * extent(axis) + local - 1) % n + n) % n;
}
} // namespace

void fill(std::vector<double> &u, const Topo &t, int step) {
  for (int z = 0; z < LZ; ++z)
    for (int y = 0; y < LY; ++y)
      for (int x = 0; x < LX; ++x) {
        bool inner = z >= 1 && z <= NZ && y >= 1 && y <= NY && x >= 1 && x <= NX;
        u[at(z, y, x)] =
            inner ? value(step, global(t, Z, z), global(t, Y, y), global(t, X, x)) : -1.0;
      }
}

// A ghost cell of face 2 * axis + side (side 0: the low ghost layer, 1: the high one) mirrors the
// neighbour when that face's bit is in `faces`; edges, corners and other ghosts must be -1.
int check(const std::vector<double> &u, const Topo &t, int step, unsigned faces, long long &sum) {
  int bad = 0;
  const int last[3] = {LZ - 1, LY - 1, LX - 1};
  for (int z = 0; z < LZ; ++z)
    for (int y = 0; y < LY; ++y)
      for (int x = 0; x < LX; ++x) {
        const int c[3] = {z, y, x};
        int nghost = 0, f = -1;
        for (int a = 0; a < 3; ++a)
          if (c[a] == 0 || c[a] == last[a]) {
            ++nghost;
            f = 2 * a + (c[a] == last[a]);
          }
        bool mirrored = nghost == 0 || (nghost == 1 && (faces >> f & 1u));
        double want =
            mirrored ? value(step, global(t, Z, z), global(t, Y, y), global(t, X, x)) : -1.0;
        double got = u[at(z, y, x)];
        if (got != want) {
          if (bad < 2)
            std::fprintf(stderr, "rank %d: (%d,%d,%d) = %.0f, want %.0f\n", t.rank, z, y, x, got,
                         want);
          ++bad;
        }
        sum += static_cast<long long>(got) % 100003 * ((z + 2 * y + 3 * x) % 5 + 1);
      }
  return bad;
}

int report(const Topo &t, const char *what, int errors, long long sum) {
  int all = 0;
  long long total = 0;
  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, t.cart);
  MPI_Reduce(&sum, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, t.cart);
  if (t.rank == 0) std::printf("%-22s %-6s checksum %lld\n", what, all ? "FAILED" : "ok", total);
  int any = 0;
  MPI_Allreduce(&all, &any, 1, MPI_INT, MPI_MAX, t.cart);
  return any != 0;
}
} // namespace fx
