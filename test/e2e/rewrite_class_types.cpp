/* End-to-end (tempi-rewrite): a C++ class that builds its datatypes in its constructor and frees
 * them in its destructor, plus a method that builds a local type. Members are not tracked, so
 * those calls stay for the runtime; the local one is rewritten. Run with 4 ranks on host buffers;
 * the received data must equal the unmodified program's byte for byte.
 *   rewrite_class_types <output-dir> */
#include <mpi.h>
#include <cstdio>
#include <vector>

class Ring {
public:
  explicit Ring(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    MPI_Type_vector(4, 2, 6, MPI_INT, &every_third_pair_);
    MPI_Type_commit(&every_third_pair_);
  }
  ~Ring() { MPI_Type_free(&every_third_pair_); }
  Ring(const Ring &) = delete;
  Ring &operator=(const Ring &) = delete;

  void shift(const std::vector<int> &out, std::vector<int> &in) {
    MPI_Sendrecv(out.data(), 1, every_third_pair_, next(), 1, in.data(), 1, every_third_pair_,
                 prev(), 1, comm_, MPI_STATUS_IGNORE);
  }
  void shiftColumns(const std::vector<double> &out, std::vector<double> &in) {
    MPI_Datatype cols;
    MPI_Type_vector(5, 1, 5, MPI_DOUBLE, &cols);
    MPI_Type_commit(&cols);
    MPI_Sendrecv(out.data(), 1, cols, next(), 2, in.data(), 1, cols, prev(), 2, comm_,
                 MPI_STATUS_IGNORE);
    MPI_Type_free(&cols);
  }
  int rank() const { return rank_; }

private:
  int next() const { return (rank_ + 1) % size_; }
  int prev() const { return (rank_ + size_ - 1) % size_; }
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  MPI_Datatype every_third_pair_;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  {
    Ring ring(MPI_COMM_WORLD);
    std::vector<int> out(24), in(24, -1);
    std::vector<double> dout(25), din(25, -1);
    for (int i = 0; i < 24; ++i)
      out[i] = ring.rank() * 100 + i;
    for (int i = 0; i < 25; ++i)
      dout[i] = ring.rank() + i * 0.5;
    ring.shift(out, in);
    ring.shiftColumns(dout, din);
    char path[4096];
    std::snprintf(path, sizeof path, "%s/rank%d.txt", argc > 1 ? argv[1] : ".", ring.rank());
    std::FILE *f = std::fopen(path, "w");
    if (!f)
      return 1;
    for (int v : in)
      std::fprintf(f, "%d\n", v);
    for (double v : din)
      std::fprintf(f, "%.17g\n", v);
    std::fclose(f);
  }
  MPI_Finalize();
  return 0;
}
