// A C++ 3-D stencil mini-app as object-oriented codes write it: a class template
// Field3D<T, NX, NY, NZ> owns a ghosted block (std::vector<T>) and its face datatypes as members
// (`MPI_Datatype send_[6], recv_[6]`, MPI_Type_create_subarray built in the constructor from
// the constexpr sizes, committed, freed in the destructor; copying is deleted, moving hands the
// types over), an exchange() member posting MPI_Irecv/MPI_Isend/MPI_Waitall to the six
// neighbours of a periodic 3-D Cartesian communicator, and a 7-point stencil step. A member
// gather_plane() sends one z plane of the interior to rank 0 with a type built locally from the
// template sizes (MPI_Type_vector), and a free function template halo_sum() exchanges the x
// faces of any field with a locally built hvector-of-vector type. Instantiated for double and
// int on two block sizes. After every exchange each ghost cell is compared with the global cell
// it mirrors, computed by every rank from a serial run of the same stencil on the whole grid;
// rank 0 prints per-field checksums.
// NP: 4
// CFLAGS: -std=c++17
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

template <typename T> struct mpi_of;
template <> struct mpi_of<double> { static MPI_Datatype type() { return MPI_DOUBLE; } };
template <> struct mpi_of<int> { static MPI_Datatype type() { return MPI_INT; } };

struct Topology {
  MPI_Comm cart;
  int dims[3], coords[3], rank, nb[6]; // nb[2d] = low neighbour in d, nb[2d+1] = high
  Topology() {
    int size, periods[3] = {1, 1, 1};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    dims[0] = dims[1] = dims[2] = 0;
    MPI_Dims_create(size, 3, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_coords(cart, rank, 3, coords);
    for (int d = 0; d < 3; ++d) MPI_Cart_shift(cart, d, 1, &nb[2 * d], &nb[2 * d + 1]);
  }
  ~Topology() { MPI_Comm_free(&cart); }
};

// The value of global cell (x, y, z) of a gx x gy x gz periodic grid after `steps` stencil steps.
static long long serial_value(int steps, int gx, int gy, int gz, int x, int y, int z) {
  std::vector<long long> a(static_cast<size_t>(gx) * gy * gz), b(a.size());
  auto at = [&](int i, int j, int k) {
    return ((static_cast<size_t>((i + gx) % gx) * gy) + (j + gy) % gy) * gz + (k + gz) % gz;
  };
  for (int i = 0; i < gx; ++i)
    for (int j = 0; j < gy; ++j)
      for (int k = 0; k < gz; ++k) a[at(i, j, k)] = (i * 37 + j * 11 + k * 5) % 23;
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < gx; ++i)
      for (int j = 0; j < gy; ++j)
        for (int k = 0; k < gz; ++k)
          b[at(i, j, k)] = (a[at(i, j, k)] + a[at(i - 1, j, k)] + a[at(i + 1, j, k)] +
                            a[at(i, j - 1, k)] + a[at(i, j + 1, k)] + a[at(i, j, k - 1)] +
                            a[at(i, j, k + 1)]) % 1009;
    a.swap(b);
  }
  return a[at(x, y, z)];
}

template <typename T, int NX, int NY, int NZ> class Field3D {
public:
  static constexpr int SX = NX + 2, SY = NY + 2, SZ = NZ + 2;

  explicit Field3D(const Topology &topo) : topo_(topo), data_(SX * SY * SZ, T(-1)) {
    const int sizes[3] = {SX, SY, SZ};
    const int interior[3] = {NX, NY, NZ};
    for (int d = 0; d < 3; ++d) {
      int sub[3] = {interior[0], interior[1], interior[2]};
      int start[3] = {1, 1, 1};
      sub[d] = 1;
      start[d] = 1; // lowest interior layer goes to the low neighbour
      MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, mpi_of<T>::type(), &send_[2 * d]);
      start[d] = interior[d]; // highest interior layer goes to the high neighbour
      MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, mpi_of<T>::type(),
                               &send_[2 * d + 1]);
      start[d] = 0;
      MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, mpi_of<T>::type(), &recv_[2 * d]);
      start[d] = interior[d] + 1;
      MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, mpi_of<T>::type(),
                               &recv_[2 * d + 1]);
    }
    for (int f = 0; f < 6; ++f) {
      MPI_Type_commit(&send_[f]);
      MPI_Type_commit(&recv_[f]);
    }
    for (int i = 1; i <= NX; ++i)
      for (int j = 1; j <= NY; ++j)
        for (int k = 1; k <= NZ; ++k) {
          int gi = topo.coords[0] * NX + i - 1, gj = topo.coords[1] * NY + j - 1,
              gk = topo.coords[2] * NZ + k - 1;
          at(i, j, k) = T((gi * 37 + gj * 11 + gk * 5) % 23);
        }
  }
  Field3D(const Field3D &) = delete;
  Field3D &operator=(const Field3D &) = delete;
  Field3D(Field3D &&o) noexcept : topo_(o.topo_), data_(std::move(o.data_)), steps_(o.steps_) {
    for (int f = 0; f < 6; ++f) {
      send_[f] = o.send_[f];
      recv_[f] = o.recv_[f];
      o.send_[f] = o.recv_[f] = MPI_DATATYPE_NULL;
    }
  }
  ~Field3D() {
    for (int f = 0; f < 6; ++f) {
      if (send_[f] != MPI_DATATYPE_NULL) MPI_Type_free(&send_[f]);
      if (recv_[f] != MPI_DATATYPE_NULL) MPI_Type_free(&recv_[f]);
    }
  }

  T &at(int i, int j, int k) { return data_[(i * SY + j) * SZ + k]; }
  T *data() { return data_.data(); }

  void exchange() {
    MPI_Request req[12];
    for (int f = 0; f < 6; ++f) {
      // face f goes to neighbour f; it arrives there in the ghost layer of the opposite face
      MPI_Irecv(data_.data(), 1, recv_[f], topo_.nb[f], f ^ 1, topo_.cart, &req[2 * f]);
      MPI_Isend(data_.data(), 1, send_[f], topo_.nb[f], f, topo_.cart, &req[2 * f + 1]);
    }
    MPI_Waitall(12, req, MPI_STATUSES_IGNORE);
  }

  void step() {
    std::vector<T> next(data_);
    for (int i = 1; i <= NX; ++i)
      for (int j = 1; j <= NY; ++j)
        for (int k = 1; k <= NZ; ++k)
          next[(i * SY + j) * SZ + k] =
              T(static_cast<long long>(at(i, j, k) + at(i - 1, j, k) + at(i + 1, j, k) +
                                       at(i, j - 1, k) + at(i, j + 1, k) + at(i, j, k - 1) +
                                       at(i, j, k + 1)) % 1009);
    data_.swap(next);
    ++steps_;
  }

  // Every ghost face cell against the serial grid; returns the number of mismatches.
  int check_ghosts() {
    int bad = 0;
    const int g[3] = {topo_.dims[0] * NX, topo_.dims[1] * NY, topo_.dims[2] * NZ};
    for (int i = 0; i < SX; ++i)
      for (int j = 0; j < SY; ++j)
        for (int k = 0; k < SZ; ++k) {
          int outside = (i == 0 || i == SX - 1) + (j == 0 || j == SY - 1) + (k == 0 || k == SZ - 1);
          if (outside != 1) continue; // interior, or an edge / corner nobody sends
          long long want = serial_value(steps_, g[0], g[1], g[2], topo_.coords[0] * NX + i - 1,
                                        topo_.coords[1] * NY + j - 1, topo_.coords[2] * NZ + k - 1);
          if (static_cast<long long>(at(i, j, k)) != want) {
            if (bad < 3)
              std::fprintf(stderr, "rank %d: ghost (%d,%d,%d) = %lld, want %lld\n", topo_.rank, i,
                           j, k, static_cast<long long>(at(i, j, k)), want);
            ++bad;
          }
        }
    return bad;
  }

  // One z plane (k) of the interior of every rank, gathered at rank 0 in rank order.
  long long gather_plane(int k) {
    MPI_Datatype plane;
    MPI_Type_vector(NX, NY, SY * SZ, mpi_of<T>::type(), &plane);
    MPI_Type_commit(&plane);
    long long sum = 0;
    int size;
    MPI_Comm_size(topo_.cart, &size);
    if (topo_.rank == 0) {
      std::vector<T> in(static_cast<size_t>(NX) * NY);
      for (int r = 0; r < size; ++r) {
        if (r == 0)
          MPI_Sendrecv(&at(1, 1, k), 1, plane, 0, 7, in.data(), NX * NY, mpi_of<T>::type(), 0, 7,
                       topo_.cart, MPI_STATUS_IGNORE);
        else
          MPI_Recv(in.data(), NX * NY, mpi_of<T>::type(), r, 7, topo_.cart, MPI_STATUS_IGNORE);
        for (size_t e = 0; e < in.size(); ++e) sum += static_cast<long long>(in[e]) * (e + 1 + r);
      }
    } else {
      MPI_Send(&at(1, 1, k), 1, plane, 0, 7, topo_.cart);
    }
    MPI_Type_free(&plane);
    return sum;
  }

private:
  const Topology &topo_;
  std::vector<T> data_;
  int steps_ = 0;
  MPI_Datatype send_[6], recv_[6];
};

// x faces of any field, through a locally built type: rows of NZ are a vector, NY of them an
// hvector. Sums the received low ghost face (to keep the compiler honest).
template <typename F, typename T, int NX, int NY, int NZ>
long long halo_sum(F &field, const Topology &topo) {
  constexpr int SY = NY + 2, SZ = NZ + 2;
  MPI_Datatype row, face;
  MPI_Type_vector(NY, NZ, SZ, mpi_of<T>::type(), &row);
  MPI_Type_create_hvector(1, 1, 0, row, &face);
  MPI_Type_commit(&face);
  MPI_Sendrecv(&field.at(NX, 1, 1), 1, face, topo.nb[1], 9, &field.at(0, 1, 1), 1, face, topo.nb[0],
               9, topo.cart, MPI_STATUS_IGNORE);
  MPI_Type_free(&face);
  MPI_Type_free(&row);
  long long s = 0;
  for (int j = 1; j <= NY; ++j)
    for (int k = 1; k <= NZ; ++k) s += static_cast<long long>(field.at(0, j, k)) * (j * SZ + k);
  (void)SY;
  return s;
}

template <typename T, int NX, int NY, int NZ>
int run(const Topology &topo, const char *name, int steps) {
  using F = Field3D<T, NX, NY, NZ>;
  std::vector<F> fields;
  fields.reserve(1);
  fields.emplace_back(topo); // moved into place: the vector owns the types now
  F &u = fields[0];
  int bad = 0;
  long long sums[3] = {0, 0, 0};
  for (int s = 0; s <= steps; ++s) {
    u.exchange();
    bad += u.check_ghosts();
    if (s < steps) u.step();
  }
  sums[0] = u.gather_plane(1);
  sums[1] = u.gather_plane(NZ);
  long long hs = halo_sum<F, T, NX, NY, NZ>(u, topo), hall = 0;
  MPI_Reduce(&hs, &hall, 1, MPI_LONG_LONG, MPI_SUM, 0, topo.cart);
  sums[2] = hall;
  int allbad = 0;
  MPI_Allreduce(&bad, &allbad, 1, MPI_INT, MPI_SUM, topo.cart);
  if (topo.rank == 0)
    std::printf("%-22s %s: plane sums %lld %lld, x-halo sum %lld\n", name,
                allbad ? "FAILED" : "ok", sums[0], sums[1], sums[2]);
  return allbad;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int bad = 0;
  {
    Topology topo;
    if (topo.rank == 0)
      std::printf("process grid %d x %d x %d\n", topo.dims[0], topo.dims[1], topo.dims[2]);
    bad += run<double, 4, 5, 6>(topo, "double 4x5x6", 3);
    bad += run<int, 6, 3, 4>(topo, "int 6x3x4", 2);
    bad += run<double, 6, 3, 4>(topo, "double 6x3x4", 1);
  }
  MPI_Finalize();
  return bad ? 1 : 0;
}
