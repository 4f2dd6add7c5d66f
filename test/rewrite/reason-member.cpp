// Datatypes held in class members (set in a constructor, read through `this`) are not tracked:
// left to the runtime (struct-members.c: the members of a struct variable are).
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -std=c++17 -I%mock_mpi > %t.out.cpp
// RUN: grep -v "^// [A-Z]" %t.out.cpp | FileCheck %s
// RUN: %clang -x c++ -std=c++17 -fsyntax-only -I%mock_mpi -I%tempi_include %t.out.cpp
// RUN: tempi-rewrite --explain %t.cpp -- -std=c++17 -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

class Halo {
public:
  Halo() { MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &face_); }
  int send(double *buf) { return MPI_Send(buf, 1, face_, 1, 0, MPI_COMM_WORLD); }

private:
  MPI_Datatype face_;
};

int main(int argc, char **argv) {
  double buf[256];
  MPI_Init(&argc, &argv);
  Halo h;
  h.send(buf);
  MPI_Finalize();
  return 0;
}
// CHECK-NOT: tempi_Send
// REMARK: remark: datatype 'face_' of MPI_Send is left to the runtime: 'face_' is a member of the class, read through 'this'; only the members of a struct variable are tracked
