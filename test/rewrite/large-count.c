// Large-count calls (MPI_Send_c) are rewritten into tempi.h's tempi_X_c entry points when the MPI
// header is an MPI-4 one (MPI_VERSION >= 4: tempi.h declares them only then); with a header that
// does not say so they stay, with a remark. Large-count constructors (_c) are recognized either way.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi -DMPI_VERSION=4 > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -DMPI_VERSION=4 -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi -DMPI_VERSION=4 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
// RUN: tempi-rewrite %t.c -- -I%mock_mpi -DMPI_VERSION=3 > %t.mpi3.c
// RUN: grep -v "^// [A-Z]" %t.mpi3.c | FileCheck --check-prefix=OLD %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -DMPI_VERSION=3 -I%tempi_include %t.mpi3.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi -DMPI_VERSION=3 2> %t.mpi3.err > /dev/null
// RUN: FileCheck --check-prefix=OLD-REMARK --input-file=%t.mpi3.err %s
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.none.err > /dev/null
// RUN: FileCheck --check-prefix=NONE-REMARK --input-file=%t.none.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[1024];
  MPI_Datatype v;
  MPI_Init(&argc, &argv);
  MPI_Type_vector_c(4, 1, 8, MPI_DOUBLE, &v);
  MPI_Send(buf, 1, v, 1, 0, MPI_COMM_WORLD);
  MPI_Send_c(buf, 1, v, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(buf, 1, v, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_[[PLAN:[0-9a-f]+]]);
// CHECK-NEXT: {{^}}  tempi_Send_c(buf, 1, v, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_[[PLAN]]);
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'v' holds vector(4, 1, 8, MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send_c -> tempi_Send_c: 'v' holds vector(4, 1, 8, MPI_DOUBLE)
// OLD: {{^}}  tempi_Send(buf, 1, v, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// OLD-NEXT: {{^}}  MPI_Send_c(buf, 1, v, 1, 0, MPI_COMM_WORLD);
// OLD-REMARK: remark: MPI_Send_c is left unchanged: tempi.h declares the large-count entry points only for an MPI header with MPI_VERSION >= 4 (this one has 3)
// NONE-REMARK: remark: MPI_Send_c is left unchanged: tempi.h declares the large-count entry points only for an MPI header with MPI_VERSION >= 4 (this one does not define MPI_VERSION)
