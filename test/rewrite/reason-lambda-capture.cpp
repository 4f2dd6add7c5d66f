// A datatype captured by a lambda is not proven inside it; the same variable is outside.
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -std=c++17 -I%mock_mpi > %t.out.cpp
// RUN: grep -v "^// [A-Z]" %t.out.cpp | FileCheck %s
// RUN: %clang -x c++ -std=c++17 -fsyntax-only -I%mock_mpi -I%tempi_include %t.out.cpp
// RUN: tempi-rewrite --explain %t.cpp -- -std=c++17 -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  auto send = [&]() { return MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD); };
  send();
  MPI_Finalize();
  return 0;
}
// CHECK-NOT: tempi_Send
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: 't' is captured from an enclosing function
