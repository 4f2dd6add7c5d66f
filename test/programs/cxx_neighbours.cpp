// Neighbour lists of structs that hold datatypes, as C++ halo codes drive their exchanges: a
// ghosted NY x NX block of doubles on a periodic 2-D Cartesian grid, whose four edges travel
//   A. over a std::array<Link, 4> of aggregates {peer, tags, datatype, offsets, name} built by
//      brace initialization, in range-for loops (`for (const auto &nb : links)`) posting
//      MPI_Irecv then MPI_Isend, completed by MPI_Waitall on a std::vector of requests;
//   B. over a std::vector<Link> filled by push_back in a loop over the directions (the datatype
//      chosen by `?:`), with MPI_Sendrecv in a range-for over structured bindings;
//   C. through single local Link variables (`Link east = {...}`; `east.type` in the call);
//   D. over a C array `Link arr[4]` indexed by the loop variable (`arr[i].type`);
//   E. through std::for_each with a lambda taking `const Link &`;
//   F. over Face structs holding a send and a receive MPI_Type_create_subarray (the position is
//      in the type, so every call passes the block's base address), returned by value in a
//      std::array from a builder function; the list drives persistent requests
//      (MPI_Send_init / MPI_Recv_init per face, MPI_Startall + MPI_Waitall for three steps).
// constexpr sizes and tags live in a namespace. Each phase fills the interior with values
// computed from the global coordinates and the step and resets the ghosts to -1; afterwards each
// edge ghost must hold the global cell it mirrors and the corners -1. Rank 0 prints one line per
// phase and a checksum; exit 1 on any mismatch.
// NP: 4
// CFLAGS: -std=c++17
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <vector>

namespace halo2d {
constexpr int NX = 6, NY = 5;
constexpr int LX = NX + 2, LY = NY + 2;
constexpr int idx(int y, int x) { return y * LX + x; }
enum Dir { WEST = 0, EAST = 1, SOUTH = 2, NORTH = 3 };
// A message travelling in direction d carries tag TAG0 + d.
constexpr int TAG0 = 100;

struct Link {
  int peer;
  int send_tag, recv_tag;
  MPI_Datatype type;
  std::ptrdiff_t send_off, recv_off;
  const char *name;
};

struct Face {
  int peer;
  MPI_Datatype send, recv;
  int send_tag, recv_tag;
};

struct Grid {
  MPI_Comm cart;
  int coords[2], gy, gx;
  int nb[4]; // by Dir
};

inline double value(int step, int gy, int gx) { return step * 10000.0 + gy * 100.0 + gx; }

void fill(std::vector<double> &u, const Grid &g, int step) {
  for (int y = 0; y < LY; ++y)
    for (int x = 0; x < LX; ++x) {
      bool inner = y >= 1 && y <= NY && x >= 1 && x <= NX;
      u[idx(y, x)] = inner ? value(step, g.coords[0] * NY + y - 1, g.coords[1] * NX + x - 1) : -1.0;
    }
}

// Mismatches: edges in the mask (bit d for Dir d) mirror the neighbours, other ghosts are -1.
int check(const std::vector<double> &u, const Grid &g, int step, unsigned mask, double &sum) {
  int bad = 0;
  for (int y = 0; y < LY; ++y)
    for (int x = 0; x < LX; ++x) {
      unsigned side = (x == 0 ? 1u << WEST : 0u) | (x == NX + 1 ? 1u << EAST : 0u) |
                      (y == 0 ? 1u << SOUTH : 0u) | (y == NY + 1 ? 1u << NORTH : 0u);
      bool corner = (side & 3u) && (side & 12u);
      int gy = ((g.coords[0] * NY + y - 1) % g.gy + g.gy) % g.gy;
      int gx = ((g.coords[1] * NX + x - 1) % g.gx + g.gx) % g.gx;
      double want = side == 0 || (!corner && (side & mask)) ? value(step, gy, gx) : -1.0;
      if (u[idx(y, x)] != want) ++bad;
      sum += u[idx(y, x)] * ((x * 3 + y) % 7 + 1);
    }
  return bad;
}

// The four faces as subarrays: send the first/last interior line, receive into the ghost line.
std::array<Face, 4> make_faces(const Grid &g) {
  const int sizes[2] = {LY, LX};
  std::array<Face, 4> f{};
  for (int d = 0; d < 4; ++d) {
    bool xdir = d == WEST || d == EAST, low = d == WEST || d == SOUTH;
    int sub[2] = {xdir ? NY : 1, xdir ? 1 : NX};
    int ssend[2] = {1, 1}, srecv[2] = {1, 1};
    int k = xdir ? 1 : 0; // the coordinate that picks the line
    ssend[k] = low ? 1 : (xdir ? NX : NY);
    srecv[k] = low ? 0 : (xdir ? NX + 1 : NY + 1);
    MPI_Type_create_subarray(2, sizes, sub, ssend, MPI_ORDER_C, MPI_DOUBLE, &f[d].send);
    MPI_Type_create_subarray(2, sizes, sub, srecv, MPI_ORDER_C, MPI_DOUBLE, &f[d].recv);
    MPI_Type_commit(&f[d].send);
    MPI_Type_commit(&f[d].recv);
    f[d].peer = g.nb[d];
    f[d].send_tag = TAG0 + d;       // travels towards d
    f[d].recv_tag = TAG0 + (d ^ 1); // the neighbour in d sends towards the opposite direction
  }
  return f;
}
} // namespace halo2d

using namespace halo2d;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Grid g{};
  int dims[2] = {0, 0}, periods[2] = {1, 1};
  MPI_Dims_create(size, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &g.cart);
  MPI_Comm_rank(g.cart, &rank);
  MPI_Cart_coords(g.cart, rank, 2, g.coords);
  g.gy = dims[0] * NY;
  g.gx = dims[1] * NX;
  MPI_Cart_shift(g.cart, 0, 1, &g.nb[SOUTH], &g.nb[NORTH]);
  MPI_Cart_shift(g.cart, 1, 1, &g.nb[WEST], &g.nb[EAST]);

  MPI_Datatype col, row;
  MPI_Type_vector(NY, 1, LX, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Type_contiguous(NX, MPI_DOUBLE, &row);
  MPI_Type_commit(&row);

  std::vector<double> u(LX * LY);
  constexpr int NPHASE = 6;
  const char *phase[NPHASE] = {"A array range-for", "B vector bindings", "C local links",
                               "D C array",         "E for_each lambda", "F persistent faces"};
  std::array<int, NPHASE> bad{};
  double sum = 0.0;

  // A. std::array of aggregates, range-for loops.
  {
    fill(u, g, 1);
    const std::array<Link, 4> links{{
        {g.nb[WEST], TAG0 + WEST, TAG0 + EAST, col, idx(1, 1), idx(1, 0), "west"},
        {g.nb[EAST], TAG0 + EAST, TAG0 + WEST, col, idx(1, NX), idx(1, NX + 1), "east"},
        {g.nb[SOUTH], TAG0 + SOUTH, TAG0 + NORTH, row, idx(1, 1), idx(0, 1), "south"},
        {g.nb[NORTH], TAG0 + NORTH, TAG0 + SOUTH, row, idx(NY, 1), idx(NY + 1, 1), "north"},
    }};
    std::vector<MPI_Request> reqs;
    reqs.reserve(2 * links.size());
    for (const auto &nb : links) {
      reqs.emplace_back();
      MPI_Irecv(u.data() + nb.recv_off, 1, nb.type, nb.peer, nb.recv_tag, g.cart, &reqs.back());
    }
    for (const auto &nb : links) {
      reqs.emplace_back();
      MPI_Isend(u.data() + nb.send_off, 1, nb.type, nb.peer, nb.send_tag, g.cart, &reqs.back());
    }
    MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
    bad[0] = check(u, g, 1, 15u, sum);
  }

  // B. std::vector filled in a loop; Sendrecv over structured bindings.
  {
    fill(u, g, 2);
    std::vector<Link> list;
    for (int d = 0; d < 4; ++d) {
      const bool xdir = d == WEST || d == EAST, low = d == WEST || d == SOUTH;
      const std::ptrdiff_t first = xdir ? idx(1, low ? 1 : NX) : idx(low ? 1 : NY, 1);
      const std::ptrdiff_t ghost = xdir ? idx(1, low ? 0 : NX + 1) : idx(low ? 0 : NY + 1, 1);
      list.push_back({g.nb[d], TAG0 + d, TAG0 + (d ^ 1), xdir ? col : row, first, ghost, "edge"});
    }
    // Send towards d, receive from the opposite neighbour into the opposite ghost line.
    for (std::size_t i = 0; i < list.size(); ++i) {
      const auto &[peer, stag, rtag, type, soff, roff, name] = list[i];
      const Link &opp = list[i ^ 1];
      MPI_Sendrecv(u.data() + soff, 1, type, peer, stag, u.data() + opp.recv_off, 1, opp.type,
                   opp.peer, stag, g.cart, MPI_STATUS_IGNORE);
      (void)rtag, (void)roff, (void)name;
    }
    bad[1] = check(u, g, 2, 15u, sum);
  }

  // C. Single local links: the x edges only.
  {
    fill(u, g, 3);
    Link east = {g.nb[EAST], TAG0 + EAST, TAG0 + WEST, col, idx(1, NX), idx(1, NX + 1), "east"};
    Link west = {g.nb[WEST], TAG0 + WEST, TAG0 + EAST, col, idx(1, 1), idx(1, 0), "west"};
    MPI_Sendrecv(u.data() + east.send_off, 1, east.type, east.peer, east.send_tag,
                 u.data() + west.recv_off, 1, west.type, west.peer, west.recv_tag, g.cart,
                 MPI_STATUS_IGNORE);
    MPI_Request rq[2];
    MPI_Irecv(u.data() + east.recv_off, 1, east.type, east.peer, east.recv_tag, g.cart, &rq[0]);
    MPI_Isend(u.data() + west.send_off, 1, west.type, west.peer, west.send_tag, g.cart, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    bad[2] = check(u, g, 3, (1u << WEST) | (1u << EAST), sum);
  }

  // D. A C array of links indexed by the loop variable: the y edges only.
  {
    fill(u, g, 4);
    Link arr[2] = {
        {g.nb[SOUTH], TAG0 + SOUTH, TAG0 + NORTH, row, idx(1, 1), idx(0, 1), "south"},
        {g.nb[NORTH], TAG0 + NORTH, TAG0 + SOUTH, row, idx(NY, 1), idx(NY + 1, 1), "north"},
    };
    MPI_Request rq[4];
    for (int i = 0; i < 2; ++i) {
      MPI_Irecv(u.data() + arr[i].recv_off, 1, arr[i].type, arr[i].peer, arr[i].recv_tag, g.cart,
                &rq[2 * i]);
      MPI_Isend(u.data() + arr[i].send_off, 1, arr[i].type, arr[i].peer, arr[i].send_tag, g.cart,
                &rq[2 * i + 1]);
    }
    MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    bad[3] = check(u, g, 4, (1u << SOUTH) | (1u << NORTH), sum);
  }

  // E. std::for_each with a lambda over the faces of F, blocking calls ordered by parity.
  std::array<Face, 4> faces = make_faces(g);
  {
    fill(u, g, 5);
    std::vector<MPI_Request> reqs;
    std::for_each(faces.begin(), faces.end(), [&](const Face &f) {
      reqs.emplace_back();
      MPI_Irecv(u.data(), 1, f.recv, f.peer, f.recv_tag, g.cart, &reqs.back());
    });
    std::for_each(faces.cbegin(), faces.cend(), [&u, &g](const Face &f) {
      MPI_Send(u.data(), 1, f.send, f.peer, f.send_tag, g.cart);
    });
    MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
    bad[4] = check(u, g, 5, 15u, sum);
  }

  // F. Persistent requests driven by the face list.
  {
    std::vector<MPI_Request> preq;
    for (auto &f : faces) {
      preq.emplace_back();
      MPI_Recv_init(u.data(), 1, f.recv, f.peer, f.recv_tag, g.cart, &preq.back());
    }
    for (auto &f : faces) {
      preq.emplace_back();
      MPI_Send_init(u.data(), 1, f.send, f.peer, f.send_tag, g.cart, &preq.back());
    }
    for (int step = 6; step <= 8; ++step) {
      fill(u, g, step);
      MPI_Startall(static_cast<int>(preq.size()), preq.data());
      MPI_Waitall(static_cast<int>(preq.size()), preq.data(), MPI_STATUSES_IGNORE);
      bad[5] += check(u, g, step, 15u, sum);
    }
    for (auto &r : preq) MPI_Request_free(&r);
  }

  for (auto &f : faces) {
    MPI_Type_free(&f.send);
    MPI_Type_free(&f.recv);
  }
  MPI_Type_free(&row);
  MPI_Type_free(&col);

  std::array<int, NPHASE> all{};
  double total = 0.0;
  MPI_Reduce(bad.data(), all.data(), NPHASE, MPI_INT, MPI_SUM, 0, g.cart);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, g.cart);
  int status = 0;
  if (rank == 0) {
    std::printf("grid %d x %d, blocks %d x %d\n", dims[0], dims[1], NY, NX);
    for (int p = 0; p < NPHASE; ++p) {
      std::printf("%-20s %s\n", phase[p], all[p] ? "FAILED" : "ok");
      status |= all[p] != 0;
    }
    std::printf("checksum %.1f\n", total);
  }
  MPI_Comm_free(&g.cart);
  MPI_Finalize();
  return status;
}
