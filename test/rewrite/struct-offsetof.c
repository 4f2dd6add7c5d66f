// MPI_Type_create_struct (and the deprecated MPI_Type_struct) with offsetof displacements.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

struct particle { double x, y, z; int id; };

int main(int argc, char **argv) {
  struct particle p[16];
  int bl[2] = {3, 1};
  MPI_Aint disp[2] = {offsetof(struct particle, x), offsetof(struct particle, id)};
  MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT};
  MPI_Datatype pos, full, old;
  MPI_Init(&argc, &argv);
  MPI_Type_create_struct(1, bl, disp, types, &pos);
  MPI_Type_create_struct(2, bl, disp, types, &full);
  MPI_Type_struct(2, bl, disp, types, &old);
  MPI_Send(p, 1, pos, 1, 0, MPI_COMM_WORLD);
  MPI_Send(p, 1, full, 1, 0, MPI_COMM_WORLD);
  MPI_Send(p, 1, old, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(p, 1, pos, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  tempi_Send(p, 1, full, 1, 0, MPI_COMM_WORLD, &[[P:tempi_gen_plan_[0-9a-f]+]]);
// CHECK-NEXT: {{^}}  tempi_Send(p, 1, old, 1, 0, MPI_COMM_WORLD, &[[P]]);
// REMARK: 'pos' holds struct(1, [3], [0], [MPI_DOUBLE]), canonical strided(start=0, bytes=24, dims=[]
// REMARK: 'full' holds struct(2, [3, 1], [0, 24], [MPI_DOUBLE, MPI_INT]), canonical strided(start=0, bytes=28, dims=[], extent=32
