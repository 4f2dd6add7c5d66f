// C++ spellings of datatypes kept in static storage: a variable in an anonymous namespace has
// internal linkage and is proven like a C static; a class's static member is not tracked; a
// constructor inside a lambda or a template is not followed.
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -I%mock_mpi > %t.out.cpp
// RUN: grep -v "^// [A-Z]" %t.out.cpp | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.cpp
// RUN: tempi-rewrite --explain %t.cpp -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

namespace {
MPI_Datatype face;      // internal linkage
MPI_Datatype in_lambda;
MPI_Datatype in_template;
MPI_Datatype cond_a, cond_b; // assigned through `c ? a : b`
} // namespace

struct Grid {
  static MPI_Datatype column;
  static void build() { MPI_Type_vector(8, 1, 16, MPI_DOUBLE, &column); }
};
MPI_Datatype Grid::column;

template <int N> void build_n() { MPI_Type_vector(N, 1, 16, MPI_DOUBLE, &in_template); }

void setup() {
  MPI_Type_vector(8, 2, 16, MPI_DOUBLE, &face);
  MPI_Type_commit(&face);
  auto make = [] { MPI_Type_contiguous(4, MPI_DOUBLE, &in_lambda); };
  make();
  build_n<4>();
  Grid::build();
  MPI_Type_vector(2, 1, 4, MPI_DOUBLE, &cond_a);
  MPI_Type_vector(2, 1, 4, MPI_DOUBLE, &cond_b);
}

void exchange(double *a) {
  MPI_Send(a, 1, face, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(a, 1, face, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  MPI_Send(a, 1, in_lambda, 1, 1, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(a, 1, in_lambda, 1, 1, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'in_lambda' of MPI_Send is left to the runtime: 'in_lambda' is built on line 30 outside a function, or in a lambda or block
  MPI_Send(a, 1, in_template, 1, 2, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(a, 1, in_template, 1, 2, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'in_template' of MPI_Send is left to the runtime: 'in_template' is written inside a template on line 25
  MPI_Send(a, 1, Grid::column, 1, 3, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(a, 1, Grid::column, 1, 3, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'Grid::column' of MPI_Send is left to the runtime: 'column' is a static member of a class; members are not tracked
}

// Reads through an initializer list (whose two forms share the element) and through C++'s
// lvalue conditional are reads; a conditional assigned to writes one of its branches.
void pick(double *a, int flag) {
  MPI_Datatype both[2] = {face, in_lambda};
  MPI_Datatype chosen = flag ? face : both[1];
  (flag ? cond_a : cond_b) = chosen;
  MPI_Send(a, 1, face, 1, 4, MPI_COMM_WORLD);
  // CHECK: tempi_Send(a, 1, face, 1, 4, MPI_COMM_WORLD, &tempi_gen_plan_
  MPI_Datatype local;
  MPI_Type_contiguous(3, MPI_DOUBLE, &local);
  MPI_Datatype either = flag ? local : face; // a read of the local too
  MPI_Send(a, 1, local, 1, 6, MPI_COMM_WORLD);
  // CHECK: tempi_Send(a, 1, local, 1, 6, MPI_COMM_WORLD, &tempi_gen_plan_
  (void)either;
  MPI_Send(a, 1, cond_a, 1, 5, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(a, 1, cond_a, 1, 5, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'cond_a' of MPI_Send is left to the runtime: 'cond_a' is assigned on line 57
}

// Built by a builder helper taking an `MPI_Datatype &` (since session 19).
static MPI_Datatype by_ref;
static void make_column(MPI_Datatype &out, int width) {
  MPI_Type_vector(8, width, 16, MPI_DOUBLE, &out);
}
void setup_by_ref() {
  make_column(by_ref, 2);
  MPI_Type_commit(&by_ref);
}
void send_by_ref(double *a) {
  MPI_Send(a, 1, by_ref, 1, 7, MPI_COMM_WORLD);
  // CHECK: tempi_Send(a, 1, by_ref, 1, 7, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'by_ref' holds vector(8, 2, 16, MPI_DOUBLE)
}
