// C++ wrapper idioms: an RAII class owning a datatype (constructor commits, destructor frees),
// a traits template mapping C++ types to MPI types, templated exchange functions, std::vector
// buffers, all through the C API. Ranks exchange with their neighbours in a ring.
// NP: 4
#include <mpi.h>
#include <cstdio>
#include <numeric>
#include <vector>

template <typename T> struct mpi_type;
template <> struct mpi_type<double> { static MPI_Datatype get() { return MPI_DOUBLE; } };
template <> struct mpi_type<int> { static MPI_Datatype get() { return MPI_INT; } };
template <> struct mpi_type<float> { static MPI_Datatype get() { return MPI_FLOAT; } };

class Datatype {
public:
  Datatype(int count, int blocklen, int stride, MPI_Datatype base) {
    MPI_Type_vector(count, blocklen, stride, base, &type_);
    MPI_Type_commit(&type_);
  }
  ~Datatype() { MPI_Type_free(&type_); }
  Datatype(const Datatype &) = delete;
  Datatype &operator=(const Datatype &) = delete;
  MPI_Datatype get() const { return type_; }
  operator MPI_Datatype() const { return type_; }

private:
  MPI_Datatype type_;
};

template <typename T> class Matrix {
public:
  Matrix(int r, int c) : rows(r), cols(c), data(static_cast<size_t>(r) * c) {}
  T &operator()(int i, int j) { return data[static_cast<size_t>(i) * cols + j]; }
  T *column(int j) { return &data[j]; }
  int rows, cols;
  std::vector<T> data;
};

// Send column 'j' of a matrix to 'dest' and receive into column 'k' from 'src'.
template <typename T> void shift_column(Matrix<T> &m, int j, int k, int dest, int src) {
  Datatype col(m.rows, 1, m.cols, mpi_type<T>::get());
  MPI_Status st;
  MPI_Sendrecv(m.column(j), 1, col, dest, 1, m.column(k), 1, col, src, 1, MPI_COMM_WORLD, &st);
}

// A fixed-size tile exchanged with a local datatype: the shape is a template argument.
template <int N> double tile_exchange(int dest, int src, int rank) {
  std::vector<double> a(N * N), b(N * N, -1.0);
  std::iota(a.begin(), a.end(), rank * 100.0);
  MPI_Datatype diag;
  MPI_Type_vector(N, 1, N + 1, MPI_DOUBLE, &diag);
  MPI_Type_commit(&diag);
  MPI_Sendrecv(a.data(), 1, diag, dest, N, b.data(), 1, diag, src, N, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Type_free(&diag);
  double s = 0.0;
  for (int i = 0; i < N * N; ++i) s += b[i] * (i % 5 + 1);
  return s;
}

static void run() {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;

  Matrix<double> md(6, 5);
  Matrix<int> mi(4, 7);
  for (int i = 0; i < md.rows; ++i)
    for (int j = 0; j < md.cols; ++j) md(i, j) = rank * 100 + i * 10 + j + 0.5;
  for (int i = 0; i < mi.rows; ++i)
    for (int j = 0; j < mi.cols; ++j) mi(i, j) = -(rank * 100 + i * 10 + j);

  shift_column(md, 0, 4, next, prev);
  shift_column(mi, 6, 0, prev, next);

  // A wrapper object used directly in point-to-point calls.
  Datatype pairs(3, 2, 5, MPI_FLOAT);
  std::vector<float> fs(15), fr(15, 0.0f);
  for (int i = 0; i < 15; ++i) fs[i] = rank + 0.125f * i;
  if (rank % 2 == 0 && next != rank) {
    MPI_Send(fs.data(), 1, pairs, next, 9, MPI_COMM_WORLD);
    MPI_Recv(fr.data(), 1, pairs.get(), next, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank % 2 == 1) {
    MPI_Recv(fr.data(), 1, pairs.get(), prev, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(fs.data(), 1, pairs, prev, 9, MPI_COMM_WORLD);
  }

  double t4 = tile_exchange<4>(next, prev, rank);
  double t7 = tile_exchange<7>(prev, next, rank);

  double sum_d = 0.0, sum_f = 0.0;
  long sum_i = 0;
  for (size_t i = 0; i < md.data.size(); ++i) sum_d += md.data[i] * (i % 7 + 1);
  for (size_t i = 0; i < mi.data.size(); ++i) sum_i += mi.data[i] * static_cast<long>(i % 3 + 1);
  for (size_t i = 0; i < fr.size(); ++i) sum_f += fr[i] * (i + 1);

  std::vector<double> mine = {sum_d, static_cast<double>(sum_i), sum_f, t4, t7};
  std::vector<double> all(rank == 0 ? mine.size() * size : 0);
  MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(),
             static_cast<int>(mine.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int r = 0; r < size; ++r)
      std::printf("rank %d: md %.2f mi %.0f pairs %.3f tile4 %.1f tile7 %.1f\n", r, all[5 * r],
                  all[5 * r + 1], all[5 * r + 2], all[5 * r + 3], all[5 * r + 4]);
    std::printf("md column 4 on rank 0:");
    for (int i = 0; i < md.rows; ++i) std::printf(" %.1f", md(i, 4));
    std::printf("\n");
  }
}  // 'pairs' is freed here, before MPI_Finalize

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  run();
  MPI_Finalize();
  return 0;
}
