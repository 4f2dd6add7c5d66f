// The standard reserves the MPI_ prefix, but real programs name their own datatypes so
// (`MPI_Datatype MPI_Particle;`). One this file declares is followed like any other global: a
// static one is proven, one of external linkage under --whole-program. A global of that name the
// file only sees from a header is taken for a predefined type the tool does not know.
// RUN: cp %s %t.c
// RUN: tempi-rewrite --whole-program %t.c -- -I%mock_mpi -I%S/Inputs > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%S/Inputs -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi -I%S/Inputs 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#include "mpi-prefixed-extern.h"

MPI_Datatype MPI_Pair;
static MPI_Datatype MPI_Row;

int main(int argc, char **argv) {
  int buf[64];
  MPI_Init(&argc, &argv);
  MPI_Type_contiguous(2, MPI_INT, &MPI_Pair);
  MPI_Type_commit(&MPI_Pair);
  MPI_Type_vector(4, 1, 8, MPI_INT, &MPI_Row);
  MPI_Type_commit(&MPI_Row);
  MPI_Send(buf, 1, MPI_Pair, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, MPI_Row, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, MPI_Elsewhere, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: tempi_Send(buf, 1, MPI_Pair, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// CHECK: tempi_Send(buf, 1, MPI_Row, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// CHECK: {{^}}  MPI_Send(buf, 1, MPI_Elsewhere, 1, 0, MPI_COMM_WORLD);
// Without --whole-program the external one may be written by another file; the static one is
// proven either way.
// REMARK: remark: datatype 'MPI_Pair' of MPI_Send is left to the runtime: 'MPI_Pair' is a global variable that another file may write
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'MPI_Row' holds vector(4, 1, 8, MPI_INT)
// REMARK: remark: datatype 'MPI_Elsewhere' of MPI_Send is left to the runtime: 'MPI_Elsewhere' is not a predefined datatype the tool knows
