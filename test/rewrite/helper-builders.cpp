// C++ helpers that return a datatype: a function in a namespace, a static member function, a
// template instance and a default argument are followed; a virtual member function, a helper
// whose result is captured by reference in a lambda and one whose parameter is bound to a
// reference are not.
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -std=c++17 -I%mock_mpi > %t.out.cpp
// RUN: grep -v "^// [A-Z]" %t.out.cpp | FileCheck %s
// RUN: %clang -x c++ -std=c++17 -fsyntax-only -I%mock_mpi -I%tempi_include %t.out.cpp
// RUN: tempi-rewrite --explain %t.cpp -- -std=c++17 -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

namespace grid {
constexpr int kN = 16;
MPI_Datatype column(int stride, int count = kN / 2) {
  MPI_Datatype t;
  MPI_Type_vector(count, 1, stride, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}
} // namespace grid

struct Faces {
  static MPI_Datatype plane(int n) {
    MPI_Datatype t;
    MPI_Type_contiguous(n * n, MPI_FLOAT, &t);
    return t;
  }
  virtual MPI_Datatype face(int n) {
    MPI_Datatype t;
    MPI_Type_contiguous(n, MPI_FLOAT, &t);
    return t;
  }
  virtual ~Faces() = default;
};

template <int W> MPI_Datatype strip() {
  MPI_Datatype t;
  MPI_Type_vector(W, 2, 2 * W, MPI_INT, &t);
  return t;
}

MPI_Datatype lambda_built(int n) {
  MPI_Datatype t;
  auto build = [&t] { MPI_Type_contiguous(4, MPI_DOUBLE, &t); };
  build();
  return t;
}

MPI_Datatype by_reference(const int &n) {
  MPI_Datatype t;
  MPI_Type_contiguous(n, MPI_DOUBLE, &t);
  return t;
}

int main(int argc, char **argv) {
  double buf[4096];
  Faces faces;
  MPI_Init(&argc, &argv);
  MPI_Datatype c = grid::column(grid::kN);
  MPI_Datatype p = Faces::plane(4);
  auto s = strip<3>();
  MPI_Datatype v = faces.face(4);
  MPI_Datatype l = lambda_built(4);
  MPI_Datatype r = by_reference(4);
  MPI_Send(buf, 1, c, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, p, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, s, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, v, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, l, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, r, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(buf, 1, c, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  tempi_Send(buf, 1, p, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  tempi_Send(buf, 1, s, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, v, 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, l, 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, r, 1, 0, MPI_COMM_WORLD);
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'c' holds vector(8, 1, 16, MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'p' holds contiguous(16, MPI_FLOAT)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 's' holds vector(3, 2, 6, MPI_INT)
// REMARK: remark: datatype 'v' of MPI_Send is left to the runtime: the datatype is returned by a call to 'face', which is virtual
// REMARK: remark: datatype 'l' of MPI_Send is left to the runtime: 't' in 'lambda_built' is used as an lvalue on line 45
// REMARK: remark: datatype 'r' of MPI_Send is left to the runtime: 't' in 'by_reference': count depends on 'n', a parameter of 'by_reference' whose argument is not bound: only integer and MPI_Datatype parameters are
