// C++ spelling of struct-pointers.c: a C-like struct of datatypes handed by reference (`Halo &h`)
// to functions the file defines. A writer's members are proven as it leaves them, a reader's
// `h.col` as every call's argument holds it (a `const Halo &` is a reader); a reference whose
// address is taken or that is passed on escapes the caller's struct. Local and static structs.
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -I%mock_mpi > %t.out.cpp
// RUN: grep -v "^// [A-Z]" %t.out.cpp | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.cpp
// RUN: tempi-rewrite --explain %t.cpp -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

constexpr int NX = 64, NY = 32;

struct Halo {
  MPI_Datatype col, row;
  MPI_Datatype face[3];
  int left;
};

static Halo shared;

static void setup(Halo &h, int nx) {
  MPI_Comm_rank(MPI_COMM_WORLD, &h.left);
  MPI_Type_vector(NY, 1, nx, MPI_DOUBLE, &h.col);
  MPI_Type_commit(&h.col);
  for (int d = 0; d < 3; ++d)
    MPI_Type_contiguous(d + 1, MPI_DOUBLE, &h.face[d]);
}

static void keep(Halo &h) {
  Halo *p = &h;
  MPI_Type_contiguous(2, MPI_DOUBLE, &p->row);
}

static void exchange(const Halo &h, double *u) {
  // CHECK-LABEL: static void exchange(
  MPI_Send(u, 1, h.col, h.left, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, h.col, h.left, 0, MPI_COMM_WORLD, tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h.col' holds vector(32, 1, 64, MPI_DOUBLE)
  for (int d = 0; d < 3; ++d)
    MPI_Send(u, 1, h.face[d], h.left, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, h.face[d], h.left, 0, MPI_COMM_WORLD, tempi_gen_plans_{{[0-9]+}}[d]);
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h.face[d]' takes its plan by the same index
}

static void send_shared(Halo &h, double *u) {
  // CHECK-LABEL: static void send_shared(
  MPI_Send(u, 1, h.face[1], h.left, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, h.face[1], h.left, 0, MPI_COMM_WORLD, tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h.face[1]' holds contiguous(2, MPI_DOUBLE)
}

int main(int argc, char **argv) {
  // CHECK-LABEL: int main(
  double u[NX * NY];
  Halo h, k;
  MPI_Init(&argc, &argv);
  setup(h, NX);
  setup(shared, NX);
  MPI_Send(u, 1, h.col, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, h.col, 1, 0, MPI_COMM_WORLD, tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h.col' holds vector(32, 1, 64, MPI_DOUBLE)
  MPI_Send(u, 1, shared.face[2], 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, shared.face[2], 1, 0, MPI_COMM_WORLD, tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'shared.face[2]' holds contiguous(3, MPI_DOUBLE)
  exchange(h, u);
  send_shared(shared, u);
  keep(k);
  MPI_Send(u, 1, k.row, 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, k.row, 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'k.row' of MPI_Send is left to the runtime: 'k.row' is in a struct passed by reference to 'keep' (where 'h' is used other than to reach a member ('h.m') on line 32) on line [[@LINE-3]]
  MPI_Finalize();
  return 0;
}
