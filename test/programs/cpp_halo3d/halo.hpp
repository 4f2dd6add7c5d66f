// Header-only helpers of the cpp_halo3d program: constexpr sizes in a namespace, a datatype
// factory, a type trait, and a class template that owns datatypes (committed in the
// constructor, freed in the destructor) and exchanges through them.
#pragma once
#include <mpi.h>
#include <type_traits>
#include <vector>

namespace halo {
constexpr int NZ = 4, NY = 6, NX = 8;               // interior cells per rank
constexpr int LZ = NZ + 2, LY = NY + 2, LX = NX + 2; // with one halo layer each side
constexpr int at(int z, int y, int x) { return (z * LY + y) * LX + x; }
constexpr int stride(int dim) { return dim == 0 ? LY * LX : dim == 1 ? LX : 1; }
constexpr int extent(int dim) { return dim == 0 ? NZ : dim == 1 ? NY : NX; }

// The halo layer 0 perpendicular to `dim` (layer L is at offset L * stride(dim)).
inline MPI_Datatype make_face(int dim) {
  MPI_Datatype t;
  int sizes[3] = {LZ, LY, LX}, sub[3] = {NZ, NY, NX}, start[3] = {1, 1, 1};
  sub[dim] = 1;
  start[dim] = 0;
  MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

template <typename T> MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, int>) return MPI_INT;
  else return MPI_LONG_LONG;
}

// A ROWS x COLS plane of T exchanging its first and last interior column around a ring.
template <typename T, int ROWS, int COLS> class Ring {
public:
  explicit Ring(MPI_Comm comm) : comm_(comm) {
    MPI_Type_vector(ROWS, 1, COLS, mpi_type<T>(), &col_);
    MPI_Type_commit(&col_);
    MPI_Type_vector(ROWS / 2, COLS, 2 * COLS, mpi_type<T>(), &odd_rows_);
    MPI_Type_commit(&odd_rows_);
  }
  ~Ring() {
    MPI_Type_free(&col_);
    MPI_Type_free(&odd_rows_);
  }
  Ring(const Ring &) = delete;
  Ring &operator=(const Ring &) = delete;
  // Column 1 goes left into the right neighbour's column COLS-1; column COLS-2 goes right.
  void columns(std::vector<T> &p, int left, int right) const {
    MPI_Sendrecv(&p[1], 1, col_, left, 31, &p[COLS - 1], 1, col_, right, 31, comm_,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&p[COLS - 2], 1, col_, right, 32, &p[0], 1, col_, left, 32, comm_,
                 MPI_STATUS_IGNORE);
  }
  // Odd rows travel right, into the even rows of the receiver.
  void rows(const std::vector<T> &p, std::vector<T> &q, int left, int right) const {
    MPI_Request r[2];
    MPI_Irecv(q.data(), 1, odd_rows_, left, 33, comm_, &r[0]);
    MPI_Isend(p.data() + COLS, 1, odd_rows_, right, 33, comm_, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  }

private:
  MPI_Comm comm_;
  MPI_Datatype col_, odd_rows_;
};

// Defined in report.cpp: gathers the per-rank results and prints them on rank 0.
int report(MPI_Comm comm, const char *what, long long checksum, int errors);
} // namespace halo
