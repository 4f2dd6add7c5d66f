// A call in a C++ template gets one edit whatever the instantiations; shapes that differ per instantiation stay.
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -std=c++17 -I%mock_mpi > %t.out.cpp
// RUN: grep -v "^// [A-Z]" %t.out.cpp | FileCheck %s
// RUN: %clang -x c++ -std=c++17 -fsyntax-only -I%mock_mpi -I%tempi_include %t.out.cpp
// RUN: tempi-rewrite --explain %t.cpp -- -std=c++17 -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

template <typename T> int send_col(T *buf) {
  MPI_Datatype t;
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  return MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
}

template <typename T> int send_sized(T *buf) {
  MPI_Datatype t;
  MPI_Type_vector(4, sizeof(T), 64, MPI_BYTE, &t);
  return MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  double d[256];
  float f[256];
  MPI_Init(&argc, &argv);
  send_col(d);
  send_col(f);
  send_sized(d);
  send_sized(f);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  return tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  return MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
// REMARK: remark: MPI_Send is left unchanged: the call's datatypes differ between template instantiations
