// The C++ form of struct-handed-on.c: a `Halo &` handed on whole to another function of the file
// that takes `Halo &` (a writer) or `const Halo &` (a reader).
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -I%mock_mpi > %t.out.cpp
// RUN: grep -v "^// [A-Z]" %t.out.cpp | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.cpp
// RUN: tempi-rewrite --explain %t.cpp -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
struct Halo { MPI_Datatype col; int right; };
static void build(Halo &h, int n) { MPI_Type_vector(n, 1, 64, MPI_DOUBLE, &h.col); MPI_Type_commit(&h.col); }
static void setup(Halo &h) { build(h, 8); h.right = 1; }
static void send_col(const Halo &h, double *u) { MPI_Send(u, 1, h.col, h.right, 0, MPI_COMM_WORLD); }
static void exchange(Halo &h, double *u) { send_col(h, u); }
int main(int argc, char **argv) {
  static double u[1024];
  MPI_Init(&argc, &argv);
  Halo h;
  setup(h);
  exchange(h, u);
  MPI_Send(u, 1, h.col, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
}
// CHECK: tempi_Send(u, 1, h.col, h.right, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// CHECK: tempi_Send(u, 1, h.col, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h.col' holds vector(8, 1, 64, MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h.col' holds vector(8, 1, 64, MPI_DOUBLE)
