// A datatype from a class's conversion operator is left to the runtime; the remark names the
// operator as the user spelled it. With MPICH, MPI_Datatype is a typedef of int, and Clang's own
// name for the function is 'operator int'.
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite --explain %t.cpp -- -std=c++17 -I%mpi_include 2> %t.err > /dev/null
// RUN: FileCheck --input-file=%t.err %s
#include <mpi.h>

class Datatype {
public:
  explicit Datatype(MPI_Datatype t) : t_(t) {}
  operator MPI_Datatype() const { return t_; }

private:
  MPI_Datatype t_;
};

int main(int argc, char **argv) {
  double buf[64];
  MPI_Init(&argc, &argv);
  MPI_Datatype raw;
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &raw);
  MPI_Type_commit(&raw);
  Datatype col(raw);
  MPI_Send(buf, 1, col, 1, 0, MPI_COMM_WORLD);
// CHECK: .cpp:[[@LINE-1]]:20: remark: datatype 'col' of MPI_Send is left to the runtime: the datatype is returned by a call to 'operator MPI_Datatype' [-Rtempi]
// CHECK-NOT: operator int
  MPI_Type_free(&raw);
  MPI_Finalize();
  return 0;
}
