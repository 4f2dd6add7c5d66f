// C++ idioms around rewritable calls: an error-checking macro wrapping every call, the global
// scope qualifier (::MPI_Send), a member function building and using a local type, a function
// template whose datatype does not depend on T, calls in a lambda, MPI_Sendrecv with a derived
// type on one side only, and results kept in std::map / std::vector.
// NP: 4
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#define MPI_CHECK(call)                                                         \
  do {                                                                          \
    int mpi_err_ = (call);                                                      \
    if (mpi_err_ != MPI_SUCCESS) {                                              \
      std::fprintf(stderr, "%s:%d: MPI error %d\n", __FILE__, __LINE__, mpi_err_); \
      MPI_Abort(MPI_COMM_WORLD, mpi_err_);                                      \
    }                                                                           \
  } while (0)

namespace grid {
constexpr int NX = 10, NY = 6;

class Field {
public:
  explicit Field(int rank) : v_(NX * NY) {
    for (int i = 0; i < NX * NY; ++i) v_[i] = rank * 1000 + i;
  }
  // Exchange the first column with 'peer' into the last column.
  void swap_edge(int peer) {
    MPI_Datatype col;
    MPI_Type_vector(NY, 1, NX, MPI_INT, &col);
    MPI_Type_commit(&col);
    MPI_CHECK(MPI_Sendrecv(&v_[0], 1, col, peer, 1, &v_[NX - 1], 1, col, peer, 1, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    MPI_Type_free(&col);
  }
  long sum() const {
    long s = 0;
    for (int i = 0; i < NX * NY; ++i) s += static_cast<long>(v_[i]) * (i % 5 + 1);
    return s;
  }
  std::vector<int> v_;
};
}  // namespace grid

template <typename T> T gather_diag(const std::vector<T> &src, int peer, MPI_Datatype base) {
  // The shape is fixed; only the element type varies (passed in as 'base').
  MPI_Datatype every3;
  MPI_Type_vector(4, 1, 3, MPI_FLOAT, &every3);
  MPI_Type_commit(&every3);
  std::vector<float> got(4, -1.0f);
  std::vector<float> f(src.begin(), src.end());
  // Derived on the send side, predefined on the receive side.
  MPI_CHECK(MPI_Sendrecv(f.data(), 1, every3, peer, 2, got.data(), 4, MPI_FLOAT, peer, 2,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  MPI_Type_free(&every3);
  T acc = T();
  for (int i = 0; i < 4; ++i) acc += static_cast<T>(got[i]) * (i + 1);
  (void)base;
  return acc;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int peer = rank ^ 1;
  std::map<std::string, double> results;
  {
    grid::Field f(rank);
    if (peer < size) f.swap_edge(peer);
    results["field"] = static_cast<double>(f.sum());
  }
  std::vector<double> vd(12);
  std::vector<int> vi(12);
  for (int i = 0; i < 12; ++i) {
    vd[i] = rank + 0.25 * i;
    vi[i] = rank * 10 + i;
  }
  if (peer < size) {
    results["diag_d"] = gather_diag(vd, peer, MPI_DOUBLE);
    results["diag_i"] = gather_diag(vi, peer, MPI_INT);
  }

  MPI_Datatype pairs;
  MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &pairs);
  MPI_Type_commit(&pairs);
  std::vector<double> out(12), in(12, 0.0);
  for (int i = 0; i < 12; ++i) out[i] = rank * 100 + i;
  auto ring = [&](int dest, int src) {
    MPI_Request rq[2];
    MPI_Datatype local_pairs;
    MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &local_pairs);
    MPI_Type_commit(&local_pairs);
    MPI_CHECK(MPI_Irecv(in.data(), 1, local_pairs, src, 3, MPI_COMM_WORLD, &rq[0]));
    MPI_CHECK(MPI_Isend(out.data(), 1, local_pairs, dest, 3, MPI_COMM_WORLD, &rq[1]));
    MPI_CHECK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    MPI_Type_free(&local_pairs);
  };
  ring((rank + 1) % size, (rank + size - 1) % size);
  double s = 0.0;
  for (int i = 0; i < 12; ++i) s += in[i] * (i + 1);
  results["ring"] = s;
  if (rank == 0) {
    ::MPI_Send(out.data() + 1, 1, pairs, 1, 4, MPI_COMM_WORLD);
  } else if (rank == 1) {
    std::vector<double> r(12, -1.0);
    MPI_Status st;
    ::MPI_Recv(r.data(), 1, pairs, 0, 4, MPI_COMM_WORLD, &st);
    double t = 0.0;
    for (int i = 0; i < 12; ++i) t += r[i] * (i + 2);
    results["global_scope"] = t;
  }
  MPI_Type_free(&pairs);

  // Gather every rank's results in rank order (same keys on every rank but rank 1's extra one).
  std::vector<double> mine;
  for (const auto &kv : results) mine.push_back(kv.second);
  mine.resize(6, 0.0);
  std::vector<double> all(rank == 0 ? 6 * size : 1);
  MPI_Gather(mine.data(), 6, MPI_DOUBLE, all.data(), 6, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("keys on rank 0:");
    for (const auto &kv : results) std::printf(" %s", kv.first.c_str());
    std::printf("\n");
    for (int r = 0; r < size; ++r) {
      std::printf("rank %d:", r);
      for (int k = 0; k < 6; ++k) std::printf(" %.2f", all[6 * r + k]);
      std::printf("\n");
    }
  }
  MPI_Finalize();
  return 0;
}
