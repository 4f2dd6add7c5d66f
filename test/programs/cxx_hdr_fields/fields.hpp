// Header-only helpers of the cxx_hdr_fields program, included by all three sources: constexpr
// sizes of a ghosted 3-D block in a namespace, an output-parameter face builder and a return-value
// factory (inline functions), a header-only Layout class whose member functions build types, a
// header-only PersistentHalo class that owns persistent requests made from a list of entries
// (its MPI calls are spelled here, in the header), a C++17 inline variable holding a datatype
// that main.cpp builds and exchange.cpp uses, and the declarations of the other sources.
#pragma once
#include <mpi.h>

#include <array>
#include <vector>

namespace fx {
constexpr int NZ = 4, NY = 3, NX = 5;               // interior cells per rank
constexpr int LZ = NZ + 2, LY = NY + 2, LX = NX + 2; // with one ghost layer on each side
constexpr int CELLS = LZ * LY * LX;
constexpr int at(int z, int y, int x) { return (z * LY + y) * LX + x; }
enum Axis { Z = 0, Y = 1, X = 2 };
constexpr int extent(int axis) { return axis == Z ? NZ : axis == Y ? NY : NX; }
// A message moving along `axis` towards the high (up = 1) or low (up = 0) neighbour.
constexpr int tag(int axis, int up) { return 10 + 2 * axis + up; }

struct Topo {
  MPI_Comm cart;
  int rank, size, dims[3], coords[3], lo[3], hi[3];
};

// The plane perpendicular to `axis` at index `layer` of that axis (0 and N+1 are ghosts).
inline void face(MPI_Datatype *t, int axis, int layer) {
  int sizes[3] = {LZ, LY, LX}, sub[3] = {NZ, NY, NX}, start[3] = {1, 1, 1};
  sub[axis] = 1;
  start[axis] = layer;
  MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, t);
  MPI_Type_commit(t);
}

// An x-line of the interior as a plain contiguous run (a factory returning the handle).
inline MPI_Datatype x_line() {
  MPI_Datatype t;
  MPI_Type_contiguous(NX, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

// Datatype factories as member functions of a header-only class.
class Layout {
public:
  // The interior part of z plane `z` as a vector relative to the address of cell (z, 1, 1).
  MPI_Datatype z_plane() const {
    MPI_Datatype t;
    MPI_Type_vector(NY, NX, LX, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    return t;
  }
  // `n` interior y columns (x fixed) of one z plane, n from the object.
  explicit Layout(int n) : n_(n) {}
  MPI_Datatype y_columns() const {
    MPI_Datatype t;
    MPI_Type_vector(n_, 1, LX, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    return t;
  }

private:
  int n_;
};

// Persistent halo exchange over a list of entries; the MPI calls are in this header.
class PersistentHalo {
public:
  struct Entry {
    MPI_Datatype send, recv;
    int to, from, tag;
  };
  PersistentHalo(double *base, const std::vector<Entry> &list, MPI_Comm comm) {
    for (const Entry &e : list) {
      reqs_.emplace_back();
      MPI_Recv_init(base, 1, e.recv, e.from, e.tag, comm, &reqs_.back());
      reqs_.emplace_back();
      MPI_Send_init(base, 1, e.send, e.to, e.tag, comm, &reqs_.back());
    }
  }
  PersistentHalo(const PersistentHalo &) = delete;
  PersistentHalo &operator=(const PersistentHalo &) = delete;
  ~PersistentHalo() {
    for (auto &r : reqs_) MPI_Request_free(&r);
  }
  void run() {
    MPI_Startall(static_cast<int>(reqs_.size()), reqs_.data());
    MPI_Waitall(static_cast<int>(reqs_.size()), reqs_.data(), MPI_STATUSES_IGNORE);
  }

private:
  std::vector<MPI_Request> reqs_;
};

// Built by main.cpp, used by exchange.cpp.
inline MPI_Datatype g_xline = MPI_DATATYPE_NULL;

// checks.cpp
double value(int step, int gz, int gy, int gx);
void fill(std::vector<double> &u, const Topo &t, int step);
// faces: bit 2 * axis + side, side 0 the low ghost layer, 1 the high one.
int check(const std::vector<double> &u, const Topo &t, int step, unsigned faces, long long &sum);
int report(const Topo &t, const char *what, int errors, long long sum);
// exchange.cpp
int faces_by_helper(std::vector<double> &u, const Topo &t);
int persistent_steps(std::vector<double> &u, const Topo &t, int first, int nsteps);
int lines_to_root(const std::vector<double> &u, const Topo &t, int step);
} // namespace fx
