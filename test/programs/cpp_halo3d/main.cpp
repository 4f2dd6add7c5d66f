// A C++17 3-D halo exchange split over two translation units and a header-only helper
// (halo.hpp): constexpr sizes and functions in a namespace, faces from an inline factory kept in
// a local array and indexed by the dimension, the neighbour list filled through a lambda with
// structured bindings, a std::array of requests, a range-for exchange in a function taking the
// faces as a parameter, and a class template owning datatypes (Ring). Every face cell is
// compared with the value of the global cell it mirrors; edges and corners must stay -1.
// The four `face[d]` calls of part 1 are rewritten (since 2026-11-27: the faces' addresses taken
// in the range-for that frees them, line 144, come after every use). Left to the runtime: the
// parameter's faces (`faces[nb.dim]` through std::vector's operator[]), and Ring's calls, which
// are spelled in the header, which the tool does not edit.
// NP: 4
// CFLAGS: -std=c++17
#include "halo.hpp"
#include <array>
#include <cstdio>
#include <tuple>
#include <utility>
#include <vector>

using namespace halo;

namespace {
struct Neighbour {
  int dim, lo, hi;
};

constexpr double val(int gz, int gy, int gx) { return gz * 1000000.0 + gy * 1000.0 + gx; }

// The same exchange, datatypes by parameter, over the neighbour list.
void exchange_all(std::vector<double> &a, const std::vector<Neighbour> &nbrs,
                  const std::array<MPI_Datatype, 3> &faces, MPI_Comm comm) {
  std::vector<MPI_Request> reqs;
  reqs.reserve(4 * nbrs.size());
  for (const auto &nb : nbrs) {
    const int s = stride(nb.dim), n = extent(nb.dim);
    for (auto [buf, peer, tag] : {std::tuple{a.data(), nb.lo, 10 + 2 * nb.dim},
                                  std::tuple{a.data() + (n + 1) * s, nb.hi, 11 + 2 * nb.dim}}) {
      reqs.emplace_back();
      MPI_Irecv(buf, 1, faces[nb.dim], peer, tag, comm, &reqs.back());
    }
    reqs.emplace_back();
    MPI_Isend(a.data() + s, 1, faces[nb.dim], nb.lo, 11 + 2 * nb.dim, comm, &reqs.back());
    reqs.emplace_back();
    MPI_Isend(a.data() + n * s, 1, faces[nb.dim], nb.hi, 10 + 2 * nb.dim, comm, &reqs.back());
  }
  MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
}
} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::array<int, 3> dims{0, 0, 0}, periods{1, 1, 1}, coords{};
  MPI_Dims_create(size, 3, dims.data());
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims.data(), periods.data(), 0, &cart);
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 3, coords.data());

  auto shift = [&](int dim) {
    int lo, hi;
    MPI_Cart_shift(cart, dim, 1, &lo, &hi);
    return std::pair{lo, hi};
  };
  std::vector<Neighbour> nbrs;
  for (int d = 0; d < 3; ++d) {
    auto [lo, hi] = shift(d);
    nbrs.push_back({d, lo, hi});
  }

  const std::array<int, 3> g{dims[0] * NZ, dims[1] * NY, dims[2] * NX};
  auto global = [&](int d, int l) { return ((coords[d] * extent(d) + l - 1) % g[d] + g[d]) % g[d]; };
  std::vector<double> a(LZ * LY * LX);
  auto fill = [&] {
    for (int z = 0; z < LZ; ++z)
      for (int y = 0; y < LY; ++y)
        for (int x = 0; x < LX; ++x) {
          bool inner = z > 0 && z <= NZ && y > 0 && y <= NY && x > 0 && x <= NX;
          a[at(z, y, x)] = inner ? val(global(0, z), global(1, y), global(2, x)) : -1.0;
        }
  };
  long long sum = 0;
  auto check = [&] {
    int errs = 0;
    for (int z = 0; z < LZ; ++z)
      for (int y = 0; y < LY; ++y)
        for (int x = 0; x < LX; ++x) {
          int halo_dims = (z == 0 || z == LZ - 1) + (y == 0 || y == LY - 1) + (x == 0 || x == LX - 1);
          double want = halo_dims > 1 ? -1.0 : val(global(0, z), global(1, y), global(2, x));
          errs += a[at(z, y, x)] != want;
          sum += static_cast<long long>(a[at(z, y, x)]) % 9973 * ((x + y + z) % 3 + 1);
        }
    return errs;
  };

  // 1. Faces from the header factory, a local array indexed by the dimension.
  MPI_Datatype zface = make_face(0), yface = make_face(1), xface = make_face(2);
  MPI_Datatype face[3] = {zface, yface, xface};
  std::array<MPI_Request, 12> req;
  fill();
  for (int d = 0; d < 3; ++d) {
    const int s = stride(d), n = extent(d);
    MPI_Irecv(a.data(), 1, face[d], nbrs[d].lo, 2 * d, cart, &req[4 * d]);
    MPI_Irecv(a.data() + (n + 1) * s, 1, face[d], nbrs[d].hi, 2 * d + 1, cart, &req[4 * d + 1]);
    MPI_Isend(a.data() + s, 1, face[d], nbrs[d].lo, 2 * d + 1, cart, &req[4 * d + 2]);
    MPI_Isend(a.data() + n * s, 1, face[d], nbrs[d].hi, 2 * d, cart, &req[4 * d + 3]);
  }
  MPI_Waitall(12, req.data(), MPI_STATUSES_IGNORE);
  int errs = check();
  report(cart, "faces by index", sum, errs);

  // 2. The same through a function taking the faces as a parameter.
  sum = 0;
  fill();
  exchange_all(a, nbrs, {zface, yface, xface}, cart);
  errs = check();
  report(cart, "faces by parameter", sum, errs);

  // 3. A ring of 2-D planes through the class template.
  constexpr int R = 6, C = 9;
  auto base = [&](int r, int i, int j) { return (r + size) % size * 1000LL + i * C + j; };
  auto after_columns = [&](int r, int i, int j) {
    return j == 0 ? base(r - 1, i, C - 2) : j == C - 1 ? base(r + 1, i, 1) : base(r, i, j);
  };
  std::vector<long long> p(R * C), q(R * C, -1);
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) p[i * C + j] = (j == 0 || j == C - 1) ? -1 : base(rank, i, j);
  int ring_errs = 0;
  sum = 0;
  {
    Ring<long long, R, C> ring(MPI_COMM_WORLD);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    ring.columns(p, left, right);
    ring.rows(p, q, left, right);
  }
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) {
      ring_errs += p[i * C + j] != after_columns(rank, i, j);
      ring_errs += q[i * C + j] != (i % 2 == 0 ? after_columns(rank - 1, i + 1, j) : -1);
      sum += (p[i * C + j] + 3 * q[i * C + j]) % 9973;
    }
  int total = report(MPI_COMM_WORLD, "ring of planes", sum, ring_errs);

  for (MPI_Datatype *t : {&zface, &yface, &xface}) MPI_Type_free(t);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return total ? 1 : 0;
}
