// C++ ownership and generic-programming idioms around the C datatype API, on a ring of ranks:
//   - mpx::Owned, a move-only RAII wrapper that adopts a handle (commits it in the constructor,
//     frees it in the destructor; moves leave MPI_DATATYPE_NULL behind) and counts the live
//     handles, so the program can print that every type was freed exactly once; kept in a
//     std::vector<Owned> that reallocates while it grows (the moved-from elements free nothing);
//   - a traits struct template mpx::traits<T> with specializations for double, float and
//     std::int64_t giving the MPI element type both as a function (traits<T>::type()) and as a
//     C++17 inline static const member (traits<T>::value), used as the oldtype of types built in
//     function templates instantiated for two element types (double and float: the shapes
//     differ between the instantiations; double and std::int64_t through MPI_BYTE: they agree);
//   - a class template Exchanger<T, N> with a std::array<T, ...> buffer whose member function
//     builds a local type that does not depend on T (a header of ints) and one that does;
//   - a raw handle built locally and adopted by a guard object, then used by the raw name (one
//     guard frees its type in an inner scope while the send that uses it is still pending);
//     lambdas that capture a datatype by reference and by copy and post the sends;
//   - `auto &t = types[i]` and `const MPI_Datatype &` reference variables over a std::array of
//     handles filled by a counted loop, and the same array indexed directly;
//   - persistent requests (MPI_Send_init / MPI_Recv_init on a std::array<MPI_Request, 2>,
//     MPI_Startall over three iterations) and MPI_Sendrecv_replace with constexpr-sized types.
// Every received element is compared with the value its sender computed from (rank, index);
// untouched elements must keep their sentinel. Rank 0 prints one line per part.
// NP: 4
// CFLAGS: -std=c++17 -Wall -Wextra
#include <mpi.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

namespace mpx {

inline int live_types = 0; // handles currently owned by Owned objects

class Owned {
public:
  Owned() = default;
  explicit Owned(MPI_Datatype t) : t_(t) {
    MPI_Type_commit(&t_);
    ++live_types;
  }
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  Owned(Owned &&o) noexcept : t_(std::exchange(o.t_, MPI_DATATYPE_NULL)) {}
  Owned &operator=(Owned &&o) noexcept {
    if (this != &o) {
      reset();
      t_ = std::exchange(o.t_, MPI_DATATYPE_NULL);
    }
    return *this;
  }
  ~Owned() { reset(); }
  MPI_Datatype get() const { return t_; }
  explicit operator bool() const { return t_ != MPI_DATATYPE_NULL; }
  void reset() {
    if (t_ != MPI_DATATYPE_NULL) {
      MPI_Type_free(&t_);
      --live_types;
    }
  }

private:
  MPI_Datatype t_ = MPI_DATATYPE_NULL;
};

template <typename T> struct traits;
template <> struct traits<double> {
  static MPI_Datatype type() { return MPI_DOUBLE; }
  static inline const MPI_Datatype value = MPI_DOUBLE;
};
template <> struct traits<float> {
  static MPI_Datatype type() { return MPI_FLOAT; }
  static inline const MPI_Datatype value = MPI_FLOAT;
};
template <> struct traits<std::int64_t> {
  static MPI_Datatype type() { return MPI_INT64_T; }
  static inline const MPI_Datatype value = MPI_INT64_T;
};

inline Owned vector_of(int count, int blocklen, int stride, MPI_Datatype base) {
  MPI_Datatype t;
  MPI_Type_vector(count, blocklen, stride, base, &t);
  return Owned(t);
}

} // namespace mpx

namespace {
constexpr int NR = 5, LD = 7; // a NR x LD row-major matrix
constexpr int NP_MAX = 64;

struct Ring {
  int rank, size, left, right;
};

template <typename T> T value(int rank, int i) { return static_cast<T>(rank * 1000 + i); }

// Column 1 goes right into column LD-1; the oldtype comes from traits<T>::type().
template <typename T> int columns_traits(const Ring &r) {
  std::vector<T> a(NR * LD), b(NR * LD, T(-1));
  for (int i = 0; i < NR * LD; ++i) a[i] = value<T>(r.rank, i);
  MPI_Datatype col;
  MPI_Type_vector(NR, 1, LD, mpx::traits<T>::type(), &col);
  MPI_Type_commit(&col);
  MPI_Sendrecv(a.data() + 1, 1, col, r.right, 10, b.data() + LD - 1, 1, col, r.left, 10,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&col);
  int bad = 0;
  for (int i = 0; i < NR * LD; ++i) {
    T want = i % LD == LD - 1 ? value<T>(r.left, i - LD + 2) : T(-1);
    bad += b[i] != want;
  }
  return bad;
}

// Two leading columns as bytes: the element is sizeof(T) MPI_BYTEs, so double and std::int64_t
// give the same shape. Irecv/Isend/Waitall on a std::array of requests.
template <typename T> int byte_columns(const Ring &r) {
  std::vector<T> a(NR * LD), b(NR * LD, T(-1));
  for (int i = 0; i < NR * LD; ++i) a[i] = value<T>(r.rank, i);
  MPI_Datatype elem, two;
  MPI_Type_contiguous(sizeof(T), MPI_BYTE, &elem);
  MPI_Type_vector(NR, 2, LD, elem, &two);
  MPI_Type_commit(&two);
  std::array<MPI_Request, 2> rq;
  MPI_Irecv(b.data(), 1, two, r.left, 11, MPI_COMM_WORLD, &rq[0]);
  MPI_Isend(a.data() + 3, 1, two, r.right, 11, MPI_COMM_WORLD, &rq[1]);
  MPI_Waitall(2, rq.data(), MPI_STATUSES_IGNORE);
  MPI_Type_free(&two);
  MPI_Type_free(&elem);
  int bad = 0;
  for (int i = 0; i < NR * LD; ++i) {
    T want = i % LD < 2 ? value<T>(r.left, i + 3) : T(-1);
    bad += b[i] != want;
  }
  return bad;
}

// A class template with a fixed-size buffer: a header of 3 ints (every other int of the first
// six) that does not depend on T, and a diagonal of N elements of T that does.
template <typename T, int N> class Exchanger {
public:
  explicit Exchanger(const Ring &r) : r_(r) {
    for (int i = 0; i < N * N; ++i) buf_[i] = value<T>(r.rank, i);
    for (int i = 0; i < 6; ++i) head_[i] = r.rank * 100 + i;
  }
  int swap_header() {
    MPI_Datatype hdr;
    MPI_Type_vector(3, 1, 2, MPI_INT, &hdr);
    MPI_Type_commit(&hdr);
    std::array<int, 6> in;
    in.fill(-1);
    MPI_Sendrecv(head_.data(), 1, hdr, r_.right, 20 + N, in.data() + 1, 1, hdr, r_.left, 20 + N,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&hdr);
    int bad = 0;
    for (int i = 0; i < 6; ++i) bad += in[i] != (i % 2 == 1 ? r_.left * 100 + i - 1 : -1);
    return bad;
  }
  int swap_diagonal() {
    MPI_Datatype diag;
    MPI_Type_vector(N, 1, N + 1, mpx::traits<T>::value, &diag);
    MPI_Type_commit(&diag);
    std::array<T, N * N> in;
    in.fill(T(-1));
    MPI_Request rq[2];
    MPI_Irecv(in.data(), 1, diag, r_.left, 30 + N, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(buf_.data(), 1, diag, r_.right, 30 + N, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    MPI_Type_free(&diag);
    int bad = 0;
    for (int i = 0; i < N * N; ++i)
      bad += in[i] != (i % (N + 1) == 0 ? value<T>(r_.left, i) : T(-1));
    return bad;
  }

private:
  Ring r_;
  std::array<T, N * N> buf_{};
  std::array<int, 6> head_{};
};

// A raw handle adopted by a guard and used by its raw name (the guard frees it at the end of the
// function); a second one is adopted in an inner scope whose guard frees it while the send is
// still pending (legal: MPI keeps a pending operation's type alive), before MPI_Waitall.
int adopted(const Ring &r) {
  std::vector<double> a(NR * LD), b(NR * LD, -1.0), c(NR * LD, -1.0);
  for (int i = 0; i < NR * LD; ++i) a[i] = value<double>(r.rank, i);
  MPI_Datatype raw;
  MPI_Type_vector(NR, 3, LD, MPI_DOUBLE, &raw);
  mpx::Owned guard(raw);
  std::array<MPI_Request, 4> rq;
  MPI_Irecv(b.data(), 1, guard.get(), r.left, 40, MPI_COMM_WORLD, &rq[0]);
  MPI_Irecv(c.data() + 4, 1, raw, r.left, 41, MPI_COMM_WORLD, &rq[1]);
  MPI_Isend(a.data() + 2, 1, raw, r.right, 40, MPI_COMM_WORLD, &rq[2]);
  {
    MPI_Datatype tmp;
    MPI_Type_vector(NR, 3, LD, MPI_DOUBLE, &tmp);
    mpx::Owned scoped(tmp);
    MPI_Isend(a.data(), 1, tmp, r.right, 41, MPI_COMM_WORLD, &rq[3]);
  } // tmp freed here, its send still pending
  MPI_Waitall(static_cast<int>(rq.size()), rq.data(), MPI_STATUSES_IGNORE);
  int bad = 0;
  for (int i = 0; i < NR * LD; ++i) {
    int col = i % LD;
    bad += b[i] != (col < 3 ? value<double>(r.left, i + 2) : -1.0);
    bad += c[i] != (col >= 4 ? value<double>(r.left, i - 4) : -1.0);
  }
  return bad;
}

// Lambdas that post sends: one captures the datatype by reference, one by copy; the receives
// use the raw name outside the lambdas.
int captured(const Ring &r) {
  std::vector<double> a(NR * LD), b(NR * LD, -1.0), c(NR * LD, -1.0);
  for (int i = 0; i < NR * LD; ++i) a[i] = value<double>(r.rank, i);
  MPI_Datatype pair;
  MPI_Type_vector(NR, 2, LD, MPI_DOUBLE, &pair);
  MPI_Type_commit(&pair);
  std::vector<MPI_Request> reqs;
  auto post = [&](const double *buf, int tag) {
    reqs.emplace_back();
    MPI_Isend(buf, 1, pair, r.right, tag, MPI_COMM_WORLD, &reqs.back());
  };
  auto post_copy = [pair, &r, &reqs](const double *buf, int tag) {
    reqs.emplace_back();
    MPI_Isend(buf, 1, pair, r.right, tag, MPI_COMM_WORLD, &reqs.back());
  };
  reqs.reserve(4);
  reqs.emplace_back();
  MPI_Irecv(b.data(), 1, pair, r.left, 42, MPI_COMM_WORLD, &reqs.back());
  reqs.emplace_back();
  MPI_Irecv(c.data() + 5, 1, pair, r.left, 43, MPI_COMM_WORLD, &reqs.back());
  post(a.data() + 1, 42);
  post_copy(a.data() + 4, 43);
  MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
  MPI_Type_free(&pair);
  int bad = 0;
  for (int i = 0; i < NR * LD; ++i) {
    int col = i % LD;
    bad += b[i] != (col < 2 ? value<double>(r.left, i + 1) : -1.0);
    bad += c[i] != (col >= 5 ? value<double>(r.left, i - 1) : -1.0);
  }
  return bad;
}

// Owned objects in a growing std::vector, read through `auto &t = owned[i]`; raw handles in a
// std::array filled by a counted loop, read through `auto &t = types[i]`, a const reference and
// a direct index.
int containers(const Ring &r) {
  std::vector<double> a(NR * LD), b(NR * LD);
  for (int i = 0; i < NR * LD; ++i) a[i] = value<double>(r.rank, i);
  std::vector<mpx::Owned> owned;
  for (int k = 1; k <= 3; ++k) owned.push_back(mpx::vector_of(NR, k, LD, MPI_DOUBLE));
  int bad = 0;
  for (int i = 0; i < 3; ++i) {
    auto &t = owned[i];
    std::fill(b.begin(), b.end(), -1.0);
    MPI_Sendrecv(a.data(), 1, t.get(), r.right, 50 + i, b.data() + 1, 1, t.get(), r.left, 50 + i,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int e = 0; e < NR * LD; ++e) {
      int col = e % LD;
      bad += b[e] != (col >= 1 && col <= i + 1 ? value<double>(r.left, e - 1) : -1.0);
    }
  }
  std::array<MPI_Datatype, 3> types;
  for (int k = 0; k < 3; ++k) {
    MPI_Type_vector(NR, 1, LD, MPI_DOUBLE, &types[k]);
    MPI_Type_commit(&types[k]);
  }
  for (int i = 0; i < 3; ++i) {
    auto &t = types[i];
    std::fill(b.begin(), b.end(), -1.0);
    MPI_Sendrecv(a.data() + i, 1, t, r.right, 60 + i, b.data() + 2 * i, 1, t, r.left, 60 + i,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int e = 0; e < NR * LD; ++e)
      bad += b[e] != (e % LD == 2 * i ? value<double>(r.left, e - i) : -1.0);
  }
  const MPI_Datatype &mid = types[1];
  std::fill(b.begin(), b.end(), -1.0);
  MPI_Request rq[2];
  MPI_Irecv(b.data() + 6, 1, types[2], r.left, 70, MPI_COMM_WORLD, &rq[0]);
  MPI_Isend(a.data() + 4, 1, mid, r.right, 70, MPI_COMM_WORLD, &rq[1]);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  for (int e = 0; e < NR * LD; ++e)
    bad += b[e] != (e % LD == 6 ? value<double>(r.left, e - 2) : -1.0);
  for (auto &t : types) MPI_Type_free(&t);
  return bad;
}

// Persistent requests over three iterations, then a Sendrecv_replace, with constexpr sizes.
int persistent(const Ring &r) {
  constexpr int ROWS = 4, COLS = 6, ITERS = 3;
  std::array<float, ROWS * COLS> out, in;
  MPI_Datatype edge, block;
  MPI_Type_vector(ROWS, 1, COLS, MPI_FLOAT, &edge);
  MPI_Type_commit(&edge);
  MPI_Type_vector(ROWS / 2, COLS / 2, COLS, MPI_FLOAT, &block);
  MPI_Type_commit(&block);
  std::array<MPI_Request, 2> pr;
  MPI_Recv_init(in.data() + COLS - 1, 1, edge, r.left, 80, MPI_COMM_WORLD, &pr[0]);
  MPI_Send_init(out.data(), 1, edge, r.right, 80, MPI_COMM_WORLD, &pr[1]);
  int bad = 0;
  for (int it = 0; it < ITERS; ++it) {
    for (int i = 0; i < ROWS * COLS; ++i) out[i] = value<float>(r.rank, it * 100 + i);
    in.fill(-1.0f);
    MPI_Startall(static_cast<int>(pr.size()), pr.data());
    MPI_Waitall(static_cast<int>(pr.size()), pr.data(), MPI_STATUSES_IGNORE);
    for (int i = 0; i < ROWS * COLS; ++i)
      bad += in[i] != (i % COLS == COLS - 1 ? value<float>(r.left, it * 100 + i - COLS + 1) : -1.0f);
  }
  for (auto &q : pr) MPI_Request_free(&q);
  for (int i = 0; i < ROWS * COLS; ++i) out[i] = value<float>(r.rank, i);
  MPI_Sendrecv_replace(out.data() + 1, 1, block, r.right, 81, r.left, 81, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE);
  for (int i = 0; i < ROWS * COLS; ++i) {
    int row = i / COLS, col = i % COLS;
    bool in_block = row < ROWS / 2 && col >= 1 && col < 1 + COLS / 2;
    bad += out[i] != (in_block ? value<float>(r.left, i) : value<float>(r.rank, i));
  }
  MPI_Type_free(&block);
  MPI_Type_free(&edge);
  return bad;
}
} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Ring r{};
  MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &r.size);
  r.left = (r.rank + r.size - 1) % r.size;
  r.right = (r.rank + 1) % r.size;

  constexpr int NPART = 12;
  const char *names[NPART] = {"columns<double>",  "columns<float>",     "bytes<double>",
                              "bytes<int64_t>",   "header<double,3>",   "header<float,4>",
                              "diagonal<double,3>", "diagonal<float,4>", "adopted guard",
                              "lambda captures",  "containers",         "persistent"};
  std::array<int, NPART> bad{};
  bad[0] = columns_traits<double>(r);
  bad[1] = columns_traits<float>(r);
  bad[2] = byte_columns<double>(r);
  bad[3] = byte_columns<std::int64_t>(r);
  {
    Exchanger<double, 3> ed(r);
    Exchanger<float, 4> ef(r);
    bad[4] = ed.swap_header();
    bad[5] = ef.swap_header();
    bad[6] = ed.swap_diagonal();
    bad[7] = ef.swap_diagonal();
  }
  bad[8] = adopted(r);
  bad[9] = captured(r);
  bad[10] = containers(r);
  bad[11] = persistent(r);

  std::array<int, NPART> all{};
  MPI_Reduce(bad.data(), all.data(), NPART, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  int live = mpx::live_types, live_max = 0;
  MPI_Reduce(&live, &live_max, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
  int status = 0;
  if (r.rank == 0) {
    static_assert(NPART <= NP_MAX);
    for (int p = 0; p < NPART; ++p) {
      std::printf("%-20s %s\n", names[p], all[p] ? "FAILED" : "ok");
      if (all[p]) status = 1;
    }
    std::printf("types still owned: %d\n", live_max);
    if (live_max != 0) status = 1;
  }
  MPI_Finalize();
  return status;
}
