// A const number read by a lambda (by reference or by copy) still holds its one value: the
// datatype it sizes is proven (session 25's real programs: `const size_t rows = ...` used in a
// lambda and in MPI_Type_vector). A non-const number captured by reference is not (the lambda
// may write it), nor is a const datatype handle (a copy of it may be freed inside).
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -std=c++17 -I%mock_mpi > %t.out.cpp
// RUN: grep -v "^// [A-Z]" %t.out.cpp | FileCheck %s
// RUN: %clang -x c++ -std=c++17 -fsyntax-only -I%mock_mpi -I%tempi_include %t.out.cpp
// RUN: tempi-rewrite --explain %t.cpp -- -std=c++17 -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int use(int);

int main(int argc, char **argv) {
  double buf[256];
  MPI_Init(&argc, &argv);
  int k = 4;
  const int byRef = k;
  const int byCopy = k + 1;
  int written = 6;
  auto f = [&]() { return use(byRef) + use(written++); };
  auto g = [byCopy]() { return use(byCopy); };
  MPI_Datatype a, b, c;
  MPI_Type_vector(byRef, 1, 8, MPI_DOUBLE, &a);
  MPI_Type_vector(byCopy, 1, 8, MPI_DOUBLE, &b);
  MPI_Type_vector(written, 1, 8, MPI_DOUBLE, &c);
  MPI_Type_commit(&a);
  MPI_Type_commit(&b);
  MPI_Type_commit(&c);
  const MPI_Datatype held = a;
  auto h = [held]() { MPI_Datatype copy = held; return MPI_Type_free(&copy); };
  MPI_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, c, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, held, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return f() + g() + h();
}
// CHECK: tempi_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// CHECK: tempi_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// CHECK: {{^}}  MPI_Send(buf, 1, c, 1, 0, MPI_COMM_WORLD);
// CHECK: {{^}}  MPI_Send(buf, 1, held, 1, 0, MPI_COMM_WORLD);
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'a' holds vector(4, 1, 8, MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'b' holds vector(5, 1, 8, MPI_DOUBLE)
// REMARK: remark: datatype 'c' of MPI_Send is left to the runtime: count depends on 'written', which is captured by a lambda or block
// REMARK: remark: datatype 'held' of MPI_Send is left to the runtime: 'held' is captured by a lambda or block
