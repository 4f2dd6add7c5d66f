// Arguments from macros, enumerators, sizeof and arithmetic are evaluated; a call result is not.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

#include <stdlib.h>
#define NX 32
#define HALO 2
enum { NFIELDS = 3 };

int main(int argc, char **argv) {
  char buf[65536];
  MPI_Datatype a, b;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(NX - 2 * HALO, NFIELDS * sizeof(float), (NX + HALO) * 4, MPI_BYTE, &a);
  MPI_Type_vector(atoi(argv[1]), 1, NX, MPI_BYTE, &b);
  MPI_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD);
// REMARK: 'a' holds vector(28, 12, 136, MPI_BYTE)
// REMARK: remark: datatype 'b' of MPI_Send is left to the runtime: count depends on a call to 'atoi'
