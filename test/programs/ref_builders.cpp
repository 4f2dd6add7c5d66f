// C++ builders that fill an MPI_Datatype & (the C++ spelling of an output parameter) and a type
// kept in an anonymous namespace, built by an init function: the x and z faces of a 3-D block
// with ghost cells go around a ring; every received element is checked against the closed form
// of what the left neighbour sent, and the checksum is printed.
// NP: 3
#include <mpi.h>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {
constexpr int N = 6;
constexpr int T = N + 2;
MPI_Datatype yface; // built by init_types(), used by main

double value(int rank, int i) { return rank * 100000.0 + i; }

void make_face(MPI_Datatype &face, int dim) {
  int sizes[3] = {T, T, T}, sub[3] = {N, N, N}, starts[3] = {1, 1, 1};
  sub[dim] = 1;
  MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, &face);
  MPI_Type_commit(&face);
}

void init_types() {
  int sizes[3] = {T, T, T}, sub[3] = {N, 1, N}, starts[3] = {1, 1, 1};
  MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, &yface);
  MPI_Type_commit(&yface);
}

int check(const std::vector<double> &got, int dim, int left, double &sum) {
  int errors = 0;
  for (int z = 0; z < T; ++z)
    for (int y = 0; y < T; ++y)
      for (int x = 0; x < T; ++x) {
        int c[3] = {z, y, x}, i = (z * T + y) * T + x;
        bool inside = true;
        for (int d = 0; d < 3; ++d)
          inside = inside && (d == dim ? c[d] == 1 : c[d] >= 1 && c[d] <= N);
        double want = inside ? value(left, i) : 0.0;
        if (got[i] != want) ++errors;
        sum += got[i];
      }
  return errors;
}
} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  std::vector<double> a(T * T * T), b(T * T * T);
  for (int i = 0; i < T * T * T; ++i) a[i] = value(rank, i);
  init_types();
  MPI_Datatype xface, zface;
  make_face(zface, 0);
  make_face(xface, 2);

  int errors = 0;
  double sum = 0.0;
  MPI_Datatype faces[3] = {zface, yface, xface};
  for (int dim = 0; dim < 3; ++dim) {
    std::fill(b.begin(), b.end(), 0.0);
    MPI_Datatype face = dim == 0 ? zface : dim == 1 ? yface : xface;
    MPI_Sendrecv(a.data(), 1, face, right, dim, b.data(), 1, face, left, dim, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    errors += check(b, dim, left, sum);
  }
  // The same faces sent through their own variables: these are the calls tempi-cc rewrites.
  std::fill(b.begin(), b.end(), 0.0);
  MPI_Sendrecv(a.data(), 1, xface, right, 7, b.data(), 1, xface, left, 7, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  errors += check(b, 2, left, sum);
  std::fill(b.begin(), b.end(), 0.0);
  MPI_Sendrecv(a.data(), 1, yface, right, 8, b.data(), 1, yface, left, 8, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  errors += check(b, 1, left, sum);
  std::fill(b.begin(), b.end(), 0.0);
  MPI_Request reqs[2];
  MPI_Irecv(b.data(), 1, zface, left, 9, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(a.data(), 1, zface, right, 9, MPI_COMM_WORLD, &reqs[1]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  errors += check(b, 0, left, sum);
  (void)faces;

  MPI_Type_free(&xface);
  MPI_Type_free(&zface);
  MPI_Type_free(&yface);
  int all = 0;
  double total = 0.0;
  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("ref_builders: %d wrong elements, checksum %.1f\n", all, total);
  MPI_Finalize();
  return all != 0;
}
