// A C++ 2-D halo code whose datatypes are members of a (non-template) class, as object-oriented
// stencil codes keep them: class sim::Slab2D owns a ghosted NY x NX block (std::vector<double>),
// its neighbour ranks on a periodic 2-D Cartesian communicator and four MPI_Datatype members
// (col_, row_, interior_, and a nested `struct { MPI_Datatype lo, hi; } band_`) built and
// committed in the constructor from constexpr sizes of the namespace and from static constexpr
// members of the class, freed in the destructor; the class is move-only (the move constructor
// and move assignment hand the handles over with std::exchange, so the moved-from object frees
// nothing). Member functions use the members both through `this->` and implicitly:
//   - exchange_x(): MPI_Sendrecv of this->col_ to both x neighbours;
//   - exchange_y(): MPI_Irecv/MPI_Isend/MPI_Waitall of row_ to both y neighbours;
//   - the persistent exchange: MPI_Send_init/MPI_Recv_init of all four edges into a
//     std::array<MPI_Request, 8> member, MPI_Startall + MPI_Waitall every step, freed at the end;
//   - gather_interior(): MPI_Send of interior_ to rank 0, which receives contiguous doubles;
//   - send_band(): the two-row band types of the nested member struct, to the y neighbours;
//   - edge_sum(): a local type built in a const member function from static constexpr members.
// A free function reads the column through a getter into a local copy and sends it, and a
// static member function builds and returns a type that main sends. Every step gives each
// interior cell a value computed from its global coordinates and the step; after every exchange
// each edge ghost cell must equal the value of the global cell it mirrors and corners must keep
// the -1 sentinel. Rank 0 prints per-phase results and a checksum; exit 1 on any mismatch.
// NP: 4
// CFLAGS: -std=c++17
#include <mpi.h>

#include <array>
#include <cstdio>
#include <utility>
#include <vector>

namespace sim {
constexpr int NX = 8, NY = 6;            // interior cells per rank
constexpr int LX = NX + 2, LY = NY + 2;  // with one ghost layer
constexpr int idx(int y, int x) { return y * LX + x; }
constexpr int TAG_EAST = 0, TAG_WEST = 1, TAG_NORTH = 2, TAG_SOUTH = 3;

inline double value(int step, int gy, int gx) { return step * 100000.0 + gy * 1000.0 + gx; }

class Slab2D {
public:
  static constexpr int kBand = 2;  // rows in a band
  static constexpr int kEdge = 3;  // columns in the edge strip of edge_sum()

  explicit Slab2D(MPI_Comm cart) : cart_(cart), u_(LX * LY, -1.0) {
    int dims[2], periods[2];
    MPI_Comm_rank(cart_, &rank_);
    MPI_Cart_get(cart_, 2, dims, periods, coords_);
    gy_ = dims[0] * NY;
    gx_ = dims[1] * NX;
    MPI_Cart_shift(cart_, 0, 1, &south_, &north_);
    MPI_Cart_shift(cart_, 1, 1, &west_, &east_);
    MPI_Type_vector(NY, 1, LX, MPI_DOUBLE, &col_);
    MPI_Type_commit(&col_);
    MPI_Type_contiguous(NX, MPI_DOUBLE, &this->row_);
    MPI_Type_commit(&this->row_);
    MPI_Type_vector(NY, NX, LX, MPI_DOUBLE, &interior_);
    MPI_Type_commit(&interior_);
    MPI_Type_vector(kBand, NX, LX, MPI_DOUBLE, &band_.lo);
    MPI_Type_commit(&band_.lo);
    MPI_Type_vector(kBand, NX / 2, LX, MPI_DOUBLE, &band_.hi);
    MPI_Type_commit(&band_.hi);
    preq_.fill(MPI_REQUEST_NULL);
  }
  Slab2D(const Slab2D &) = delete;
  Slab2D &operator=(const Slab2D &) = delete;
  Slab2D(Slab2D &&o) noexcept
      : cart_(o.cart_), u_(std::move(o.u_)), rank_(o.rank_), gy_(o.gy_), gx_(o.gx_),
        north_(o.north_), south_(o.south_), east_(o.east_), west_(o.west_),
        col_(std::exchange(o.col_, MPI_DATATYPE_NULL)),
        row_(std::exchange(o.row_, MPI_DATATYPE_NULL)),
        interior_(std::exchange(o.interior_, MPI_DATATYPE_NULL)) {
    coords_[0] = o.coords_[0];
    coords_[1] = o.coords_[1];
    band_.lo = std::exchange(o.band_.lo, MPI_DATATYPE_NULL);
    band_.hi = std::exchange(o.band_.hi, MPI_DATATYPE_NULL);
    preq_ = o.preq_;
    o.preq_.fill(MPI_REQUEST_NULL);
  }
  Slab2D &operator=(Slab2D &&o) noexcept {
    if (this != &o) {
      release();
      cart_ = o.cart_;
      u_ = std::move(o.u_);
      rank_ = o.rank_;
      gy_ = o.gy_;
      gx_ = o.gx_;
      north_ = o.north_, south_ = o.south_, east_ = o.east_, west_ = o.west_;
      coords_[0] = o.coords_[0];
      coords_[1] = o.coords_[1];
      col_ = std::exchange(o.col_, MPI_DATATYPE_NULL);
      row_ = std::exchange(o.row_, MPI_DATATYPE_NULL);
      interior_ = std::exchange(o.interior_, MPI_DATATYPE_NULL);
      band_.lo = std::exchange(o.band_.lo, MPI_DATATYPE_NULL);
      band_.hi = std::exchange(o.band_.hi, MPI_DATATYPE_NULL);
      preq_ = o.preq_;
      o.preq_.fill(MPI_REQUEST_NULL);
    }
    return *this;
  }
  ~Slab2D() { release(); }

  int rank() const { return rank_; }
  int east() const { return east_; }
  int west() const { return west_; }
  MPI_Datatype column() const { return col_; }
  double *data() { return u_.data(); }
  const std::vector<double> &field() const { return u_; }

  // Interior := the step's global values; ghosts := -1.
  void fill(int step) {
    for (int y = 0; y < LY; ++y)
      for (int x = 0; x < LX; ++x) {
        bool inner = y >= 1 && y <= NY && x >= 1 && x <= NX;
        u_[idx(y, x)] = inner ? value(step, gyOf(y), gxOf(x)) : -1.0;
      }
  }

  void exchange_x() {
    MPI_Sendrecv(&u_[idx(1, NX)], 1, this->col_, this->east_, TAG_EAST, &u_[idx(1, 0)], 1,
                 this->col_, this->west_, TAG_EAST, cart_, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u_[idx(1, 1)], 1, this->col_, west_, TAG_WEST, &u_[idx(1, NX + 1)], 1,
                 this->col_, east_, TAG_WEST, cart_, MPI_STATUS_IGNORE);
  }

  void exchange_y() {
    std::array<MPI_Request, 4> rq;
    MPI_Irecv(&u_[idx(0, 1)], 1, row_, south_, TAG_NORTH, cart_, &rq[0]);
    MPI_Irecv(&u_[idx(NY + 1, 1)], 1, row_, north_, TAG_SOUTH, cart_, &rq[1]);
    MPI_Isend(&u_[idx(NY, 1)], 1, row_, north_, TAG_NORTH, cart_, &rq[2]);
    MPI_Isend(&u_[idx(1, 1)], 1, row_, south_, TAG_SOUTH, cart_, &rq[3]);
    MPI_Waitall(static_cast<int>(rq.size()), rq.data(), MPI_STATUSES_IGNORE);
  }

  void init_persistent() {
    double *u = u_.data();
    MPI_Recv_init(u + idx(1, 0), 1, col_, west_, TAG_EAST, cart_, &preq_[0]);
    MPI_Recv_init(u + idx(1, NX + 1), 1, col_, east_, TAG_WEST, cart_, &preq_[1]);
    MPI_Recv_init(u + idx(0, 1), 1, this->row_, south_, TAG_NORTH, cart_, &preq_[2]);
    MPI_Recv_init(u + idx(NY + 1, 1), 1, this->row_, north_, TAG_SOUTH, cart_, &preq_[3]);
    MPI_Send_init(u + idx(1, NX), 1, col_, east_, TAG_EAST, cart_, &preq_[4]);
    MPI_Send_init(u + idx(1, 1), 1, col_, west_, TAG_WEST, cart_, &preq_[5]);
    MPI_Send_init(u + idx(NY, 1), 1, this->row_, north_, TAG_NORTH, cart_, &preq_[6]);
    MPI_Send_init(u + idx(1, 1), 1, this->row_, south_, TAG_SOUTH, cart_, &preq_[7]);
  }
  void run_persistent() {
    MPI_Startall(static_cast<int>(preq_.size()), preq_.data());
    MPI_Waitall(static_cast<int>(preq_.size()), preq_.data(), MPI_STATUSES_IGNORE);
  }
  void free_persistent() {
    for (auto &r : preq_)
      if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
  }

  // Mismatches of the ghost cells: the edges in `edges` (WEST | EAST | SOUTH | NORTH) must
  // mirror the neighbours, the other ghosts (corners always) must be -1.
  static constexpr int WEST = 1, EAST = 2, SOUTH = 4, NORTH = 8, ALL = 15;
  int check(int step, int edges) const {
    int bad = 0;
    for (int y = 0; y < LY; ++y)
      for (int x = 0; x < LX; ++x) {
        int side = (x == 0 ? WEST : 0) | (x == NX + 1 ? EAST : 0) | (y == 0 ? SOUTH : 0) |
                   (y == NY + 1 ? NORTH : 0);
        bool corner = (side & (WEST | EAST)) && (side & (SOUTH | NORTH));
        double want = side == 0 || (!corner && (side & edges)) ? value(step, gyOf(y), gxOf(x))
                                                               : -1.0;
        if (u_[idx(y, x)] != want) ++bad;
      }
    return bad;
  }

  // Rank 0 receives every rank's interior as contiguous doubles and checks it.
  int gather_interior(int step, int size) const {
    int bad = 0;
    if (rank_ != 0) {
      MPI_Send(&u_[idx(1, 1)], 1, interior_, 0, 40, cart_);
      return 0;
    }
    std::vector<double> in(NX * NY);
    for (int r = 0; r < size; ++r) {
      if (r == 0)
        MPI_Sendrecv(&u_[idx(1, 1)], 1, this->interior_, 0, 40, in.data(), NX * NY, MPI_DOUBLE, 0,
                     40, cart_, MPI_STATUS_IGNORE);
      else
        MPI_Recv(in.data(), NX * NY, MPI_DOUBLE, r, 40, cart_, MPI_STATUS_IGNORE);
      int c[2];
      MPI_Cart_coords(cart_, r, 2, c);
      for (int y = 0; y < NY; ++y)
        for (int x = 0; x < NX; ++x)
          if (in[y * NX + x] != value(step, c[0] * NY + y, c[1] * NX + x)) ++bad;
    }
    return bad;
  }

  // The two bottom rows go south (band_.lo, whole rows), the left half of the two top rows goes
  // north (band_.hi); both arrive in a scratch block of the same shape. Returns mismatches.
  int send_band(int step) {
    std::vector<double> lo(LX * LY, -2.0), hi(LX * LY, -2.0);
    MPI_Request rq[4];
    MPI_Irecv(lo.data() + idx(1, 1), 1, band_.lo, north_, 50, cart_, &rq[0]);
    MPI_Irecv(hi.data() + idx(1, 1), 1, band_.hi, south_, 51, cart_, &rq[1]);
    MPI_Isend(&u_[idx(1, 1)], 1, band_.lo, south_, 50, cart_, &rq[2]);
    MPI_Isend(&u_[idx(NY - kBand + 1, 1)], 1, this->band_.hi, north_, 51, cart_, &rq[3]);
    MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    int c[2], bad = 0;
    for (int y = 0; y < LY; ++y)
      for (int x = 0; x < LX; ++x) {
        bool inLo = y >= 1 && y <= kBand && x >= 1 && x <= NX;
        bool inHi = y >= 1 && y <= kBand && x >= 1 && x <= NX / 2;
        MPI_Cart_coords(cart_, north_, 2, c);
        double wantLo = inLo ? value(step, c[0] * NY + y - 1, c[1] * NX + x - 1) : -2.0;
        MPI_Cart_coords(cart_, south_, 2, c);
        double wantHi = inHi ? value(step, c[0] * NY + NY - kBand + y - 1, c[1] * NX + x - 1) : -2.0;
        if (lo[idx(y, x)] != wantLo) ++bad;
        if (hi[idx(y, x)] != wantHi) ++bad;
      }
    return bad;
  }

  // A local type built in a const member function from the class's static constexpr members:
  // the kEdge leftmost interior columns go west; returns the received strip's mismatches.
  int edge_sum(int step, double &sum) const {
    MPI_Datatype strip;
    MPI_Type_vector(NY, kEdge, LX, MPI_DOUBLE, &strip);
    MPI_Type_commit(&strip);
    std::vector<double> got(LX * LY, -3.0);
    MPI_Sendrecv(&u_[idx(1, 1)], 1, strip, west_, 60, got.data() + idx(1, 1), 1, strip, east_, 60,
                 cart_, MPI_STATUS_IGNORE);
    MPI_Type_free(&strip);
    int c[2], bad = 0;
    MPI_Cart_coords(cart_, east_, 2, c);
    for (int y = 0; y < LY; ++y)
      for (int x = 0; x < LX; ++x) {
        bool in = y >= 1 && y <= NY && x >= 1 && x <= kEdge;
        double want = in ? value(step, c[0] * NY + y - 1, c[1] * NX + x - 1) : -3.0;
        if (got[idx(y, x)] != want) ++bad;
        sum += got[idx(y, x)] * ((x + 2 * y) % 5 + 1);
      }
    return bad;
  }

  // A static member function building a type: every other interior row, whole.
  static MPI_Datatype make_alt_rows() {
    MPI_Datatype t;
    MPI_Type_vector(NY / 2, NX, 2 * LX, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    return t;
  }

private:
  int gyOf(int y) const { return ((coords_[0] * NY + y - 1) % gy_ + gy_) % gy_; }
  int gxOf(int x) const { return ((coords_[1] * NX + x - 1) % gx_ + gx_) % gx_; }
  void release() {
    for (MPI_Datatype *t : {&col_, &row_, &interior_, &band_.lo, &band_.hi})
      if (*t != MPI_DATATYPE_NULL) MPI_Type_free(t);
  }

  MPI_Comm cart_;
  std::vector<double> u_;
  int rank_ = -1, coords_[2] = {0, 0}, gy_ = 1, gx_ = 1;
  int north_ = MPI_PROC_NULL, south_ = MPI_PROC_NULL, east_ = MPI_PROC_NULL, west_ = MPI_PROC_NULL;
  MPI_Datatype col_ = MPI_DATATYPE_NULL, row_ = MPI_DATATYPE_NULL, interior_ = MPI_DATATYPE_NULL;
  struct {
    MPI_Datatype lo = MPI_DATATYPE_NULL, hi = MPI_DATATYPE_NULL;
  } band_;
  std::array<MPI_Request, 8> preq_;
};

// The column through the getter, kept in a local copy: column 1 goes west, into the east ghost.
int column_by_copy(Slab2D &s, int step) {
  MPI_Datatype c = s.column();
  double *u = s.data();
  MPI_Sendrecv(u + idx(1, 1), 1, c, s.west(), 70, u + idx(1, NX + 1), 1, c, s.east(), 70,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  (void)step;
  return 0;
}
} // namespace sim

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {0, 0}, periods[2] = {1, 1};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);

  constexpr int nphase = 8;
  const char *names[nphase] = {"sendrecv x",  "isend y",       "persistent",  "gather",
                               "bands",       "edge strip",    "getter copy", "static member"};
  std::array<int, nphase> bad{};
  double sum = 0.0;
  {
    sim::Slab2D first(cart);
    sim::Slab2D s(std::move(first)); // first now owns nothing; its destructor frees nothing
    int step = 1;
    s.fill(step);
    s.exchange_x();
    bad[0] += s.check(step, sim::Slab2D::WEST | sim::Slab2D::EAST);
    s.exchange_y();
    bad[1] += s.check(step, sim::Slab2D::ALL);

    s.init_persistent();
    for (step = 2; step <= 4; ++step) {
      s.fill(step);
      s.run_persistent();
      bad[2] += s.check(step, sim::Slab2D::ALL);
    }
    s.free_persistent();

    bad[3] += s.gather_interior(step - 1, size);
    bad[4] += s.send_band(step - 1);
    bad[5] += s.edge_sum(step - 1, sum);

    sim::Slab2D t(cart);
    t = std::move(s); // move assignment: t's own types are freed, s's are handed over
    step = 7;
    t.fill(step);
    sim::column_by_copy(t, step);
    bad[6] += t.check(step, sim::Slab2D::EAST);
    t.exchange_x();
    bad[6] += t.check(step, sim::Slab2D::WEST | sim::Slab2D::EAST);

    MPI_Datatype alt = sim::Slab2D::make_alt_rows();
    std::vector<double> got(sim::LX * sim::LY, -4.0);
    MPI_Sendrecv(t.data() + sim::idx(1, 1), 1, alt, t.west(), 80, got.data() + sim::idx(1, 1), 1,
                 alt, t.east(), 80, cart, MPI_STATUS_IGNORE);
    MPI_Type_free(&alt);
    int ec[2];
    MPI_Cart_coords(cart, t.east(), 2, ec);
    for (int y = 0; y < sim::LY; ++y)
      for (int x = 0; x < sim::LX; ++x) {
        bool in = y >= 1 && y <= sim::NY && (y - 1) % 2 == 0 && x >= 1 && x <= sim::NX;
        double want = in ? sim::value(step, ec[0] * sim::NY + y - 1, ec[1] * sim::NX + x - 1) : -4.0;
        if (got[sim::idx(y, x)] != want) ++bad[7];
        sum += got[sim::idx(y, x)] * ((3 * x + y) % 7 + 1);
      }
  }

  std::array<int, nphase> allbad{};
  double total = 0.0;
  MPI_Reduce(bad.data(), allbad.data(), nphase, MPI_INT, MPI_SUM, 0, cart);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, cart);
  int status = 0;
  int rank;
  MPI_Comm_rank(cart, &rank);
  if (rank == 0) {
    std::printf("grid %d x %d of %d x %d blocks\n", dims[0], dims[1], sim::NY, sim::NX);
    for (int p = 0; p < nphase; ++p) {
      std::printf("%-14s %s\n", names[p], allbad[p] ? "FAILED" : "ok");
      if (allbad[p]) status = 1;
    }
    std::printf("checksum %.1f\n", total);
  }
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return status;
}
