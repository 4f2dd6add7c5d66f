// Modern C++ around the C API, as a header-only "mpi utilities" layer in a mini-app writes it:
// a variable template / `if constexpr` trait mapping C++ types (std::complex included) to MPI
// types, a move-only RAII `datatype` with named constructors, function templates over the element
// type and over non-type sizes (`template <int Rows, int Cols>`), constexpr helpers for strides,
// std::vector / std::array storage, lambdas that post the sends, std::optional results, a
// struct type built from offsetof with a static_assert on its layout, and a Sendrecv whose
// receive side is a predefined type (its rewrite passes a null plan, which must compile under
// -Werror). Ranks form a ring; every received element is checked against the value the sender
// computes for it.
// NP: 4
// CFLAGS: -std=c++17 -Wall -Wextra -Werror
#include <mpi.h>

#include <array>
#include <complex>
#include <cstddef>
#include <cstdio>
#include <numeric>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace mpiu {

template <typename T> inline constexpr bool dependent_false = false;

template <typename T> MPI_Datatype type_of() {
  if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, int>) return MPI_INT;
  else if constexpr (std::is_same_v<T, long>) return MPI_LONG;
  else if constexpr (std::is_same_v<T, std::complex<double>>) return MPI_C_DOUBLE_COMPLEX;
  else static_assert(dependent_false<T>, "no MPI type for T");
}

class datatype {
public:
  datatype() = default;
  explicit datatype(MPI_Datatype t) : t_(t) { MPI_Type_commit(&t_); }
  datatype(const datatype &) = delete;
  datatype &operator=(const datatype &) = delete;
  datatype(datatype &&o) noexcept : t_(std::exchange(o.t_, MPI_DATATYPE_NULL)) {}
  datatype &operator=(datatype &&o) noexcept {
    if (this != &o) {
      reset();
      t_ = std::exchange(o.t_, MPI_DATATYPE_NULL);
    }
    return *this;
  }
  ~datatype() { reset(); }
  MPI_Datatype get() const { return t_; }
  operator MPI_Datatype() const { return t_; }

  template <typename T> static datatype vector(int count, int blocklen, int stride) {
    MPI_Datatype t;
    MPI_Type_vector(count, blocklen, stride, type_of<T>(), &t);
    return datatype(t);
  }
  static datatype resized(const datatype &base, MPI_Aint extent) {
    MPI_Datatype t;
    MPI_Type_create_resized(base.get(), 0, extent, &t);
    return datatype(t);
  }

private:
  void reset() {
    if (t_ != MPI_DATATYPE_NULL) MPI_Type_free(&t_);
  }
  MPI_Datatype t_ = MPI_DATATYPE_NULL;
};

struct ring {
  int rank, size, left, right;
};

inline ring make_ring(MPI_Comm comm) {
  ring r{};
  MPI_Comm_rank(comm, &r.rank);
  MPI_Comm_size(comm, &r.size);
  r.left = (r.rank + r.size - 1) % r.size;
  r.right = (r.rank + 1) % r.size;
  return r;
}

} // namespace mpiu

constexpr int padded(int n) { return n + 2; }
constexpr int kRows = 6, kCols = 5;
constexpr int kLd = padded(kCols);

struct sample {
  int id;
  float weight;
  double pos[3];
  char tag[4];
};
static_assert(std::is_standard_layout_v<sample>);

template <typename T> T value_of(int rank, int i, int j) {
  return static_cast<T>(rank * 100 + i * 10 + j);
}
template <> std::complex<double> value_of<std::complex<double>>(int rank, int i, int j) {
  return {static_cast<double>(rank * 100 + i), static_cast<double>(j)};
}

// A column of a kRows x kLd matrix of T, as a local type; returns the number of mismatches.
template <typename T> int column_ring(const mpiu::ring &r) {
  std::vector<T> a(kRows * kLd), b(kRows * kLd, T{});
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kLd; ++j) a[i * kLd + j] = value_of<T>(r.rank, i, j);
  MPI_Datatype col;
  MPI_Type_vector(kRows, 1, kLd, mpiu::type_of<T>(), &col);
  MPI_Type_commit(&col);
  MPI_Sendrecv(a.data() + 1, 1, col, r.right, 1, b.data() + 3, 1, col, r.left, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Type_free(&col);
  int bad = 0;
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kLd; ++j) {
      T want = j == 3 ? value_of<T>(r.left, i, 1) : T{};
      if (b[i * kLd + j] != want) ++bad;
    }
  return bad;
}

// A Rows x Cols block at (1, 1) of the padded matrix: the shape is a template argument.
template <int Rows, int Cols> int block_ring(const mpiu::ring &r) {
  static_assert(Rows <= kRows && Cols + 1 <= kLd);
  std::array<double, kRows * kLd> a{}, b{};
  for (int k = 0; k < kRows * kLd; ++k) a[k] = value_of<double>(r.rank, k / kLd, k % kLd);
  MPI_Datatype blk;
  MPI_Type_vector(Rows, Cols, kLd, MPI_DOUBLE, &blk);
  MPI_Type_commit(&blk);
  MPI_Request reqs[2];
  MPI_Irecv(b.data() + kLd + 1, 1, blk, r.left, Rows * 10 + Cols, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(a.data() + kLd + 1, 1, blk, r.right, Rows * 10 + Cols, MPI_COMM_WORLD, &reqs[1]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  MPI_Type_free(&blk);
  int bad = 0;
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kLd; ++j) {
      bool in = i >= 1 && i < 1 + Rows && j >= 1 && j < 1 + Cols;
      double want = in ? value_of<double>(r.left, i, j) : 0.0;
      if (b[i * kLd + j] != want) ++bad;
    }
  return bad;
}

// Columns through the RAII wrapper and a lambda that posts the sends.
static int raii_columns(const mpiu::ring &r) {
  auto col = mpiu::datatype::vector<int>(kRows, 1, kLd);
  auto col1 = mpiu::datatype::resized(col, sizeof(int));
  std::vector<int> a(kRows * kLd), got(kRows * 3, -1);
  std::iota(a.begin(), a.end(), r.rank * 1000);
  std::vector<MPI_Request> reqs;
  auto post = [&](int first_col, int ncols, int tag) {
    MPI_Request q;
    MPI_Isend(a.data() + first_col, ncols, col1, r.right, tag, MPI_COMM_WORLD, &q);
    reqs.push_back(q);
  };
  reqs.reserve(2);
  post(0, 2, 40);
  post(4, 1, 41);
  MPI_Recv(got.data(), 2 * kRows, MPI_INT, r.left, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Recv(got.data() + 2 * kRows, kRows, MPI_INT, r.left, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
  int bad = 0;
  const int cols[3] = {0, 1, 4};
  for (int c = 0; c < 3; ++c)
    for (int i = 0; i < kRows; ++i)
      if (got[c * kRows + i] != r.left * 1000 + i * kLd + cols[c]) ++bad;
  return bad;
}

// Two columns of a std::vector matrix sent as a derived type, received as plain doubles.
static int two_columns(const mpiu::ring &r) {
  std::vector<double> a(kRows * kLd);
  std::vector<double> got(2 * kRows, -1.0);
  for (std::size_t k = 0; k < a.size(); ++k) a[k] = r.rank * 1000.0 + static_cast<double>(k);
  MPI_Datatype cols;
  MPI_Type_vector(kRows, 2, kLd, MPI_DOUBLE, &cols);
  MPI_Type_commit(&cols);
  MPI_Status st;
  MPI_Sendrecv(a.data() + 2, 1, cols, r.right, 60, got.data(), 2 * kRows, MPI_DOUBLE, r.left, 60,
               MPI_COMM_WORLD, &st);
  int n = 0, bad = 0;
  MPI_Get_count(&st, MPI_DOUBLE, &n);
  if (n != 2 * kRows) ++bad;
  for (int i = 0; i < kRows; ++i)
    for (int c = 0; c < 2; ++c)
      if (got[2 * i + c] != r.left * 1000.0 + i * kLd + 2 + c) ++bad;
  MPI_Type_free(&cols);
  return bad;
}

// A struct type, built once; a neighbour's samples arrive through MPI_Sendrecv.
static std::optional<std::vector<sample>> exchange_samples(const mpiu::ring &r, int n) {
  std::array<int, 4> lens{1, 1, 3, 4};
  std::array<MPI_Aint, 4> disps{offsetof(sample, id), offsetof(sample, weight),
                                offsetof(sample, pos), offsetof(sample, tag)};
  std::array<MPI_Datatype, 4> types{MPI_INT, MPI_FLOAT, MPI_DOUBLE, MPI_CHAR};
  MPI_Datatype s0, s;
  MPI_Type_create_struct(4, lens.data(), disps.data(), types.data(), &s0);
  MPI_Type_create_resized(s0, 0, sizeof(sample), &s);
  MPI_Type_commit(&s);
  std::vector<sample> out(n), in(n);
  for (int k = 0; k < n; ++k) {
    out[k] = sample{r.rank * 10 + k, 0.5f * k, {1.0 * r.rank, 2.0 * k, 3.0}, {'a', 'b', 'c', '\0'}};
    out[k].tag[0] = static_cast<char>('a' + r.rank);
  }
  MPI_Status st;
  MPI_Sendrecv(out.data(), n, s, r.right, 50, in.data(), n, s, r.left, 50, MPI_COMM_WORLD, &st);
  int count = 0;
  MPI_Get_count(&st, s, &count);
  MPI_Type_free(&s);
  MPI_Type_free(&s0);
  if (count != n) return std::nullopt;
  return in;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const auto r = mpiu::make_ring(MPI_COMM_WORLD);
  std::array<std::pair<const char *, int>, 9> results{{
      {"column<double>", column_ring<double>(r)},
      {"column<int>", column_ring<int>(r)},
      {"column<complex>", column_ring<std::complex<double>>(r)},
      {"block<2,3>", block_ring<2, 3>(r)},
      {"block<4,5>", block_ring<4, 5>(r)},
      {"raii columns", raii_columns(r)},
      {"samples", 0},
      {"block<2,3> again", block_ring<2, 3>(r)},
      {"two columns", two_columns(r)},
  }};
  if (auto in = exchange_samples(r, 5)) {
    int bad = 0;
    for (int k = 0; k < 5; ++k) {
      const sample &x = (*in)[k];
      if (x.id != r.left * 10 + k || x.weight != 0.5f * k || x.pos[0] != 1.0 * r.left ||
          x.pos[1] != 2.0 * k || x.tag[0] != 'a' + r.left || x.tag[1] != 'b')
        ++bad;
    }
    results[6].second = bad;
  } else {
    results[6].second = -1;
  }
  std::vector<int> mine, all(results.size() * r.size);
  for (const auto &[name, bad] : results) mine.push_back(bad);
  MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_INT, all.data(),
             static_cast<int>(mine.size()), MPI_INT, 0, MPI_COMM_WORLD);
  int status = 0;
  if (r.rank == 0) {
    for (std::size_t t = 0; t < results.size(); ++t) {
      int sum = 0;
      for (int q = 0; q < r.size; ++q) sum += all[q * results.size() + t];
      std::printf("%-18s %s\n", results[t].first, sum == 0 ? "ok" : "FAILED");
      if (sum != 0) status = 1;
    }
  }
  MPI_Finalize();
  return status;
}
