// A call spelled in a user's header (an inline helper) is not edited: tempi-rewrite edits only the
// file it compiles. --explain says so, once per call, at the header's line; the MPI's own headers
// (their C++ bindings call MPI functions too) are not mentioned. The main file's call is rewritten.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi -I%S/Inputs > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi -I%S/Inputs 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include "halo-helper.h"

double grid[256];

int main(int argc, char **argv) {
  MPI_Datatype row;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(2, 4, 16, MPI_DOUBLE, &row);
  MPI_Type_commit(&row);
  MPI_Send(grid, 1, row, 1, 1, MPI_COMM_WORLD);
  send_column(grid, 1);
  MPI_Type_free(&row);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(grid, 1, row, 1, 1, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// REMARK: halo-helper.h:8:3: remark: MPI_Send is left unchanged: it is in the header 'halo-helper.h', and tempi-rewrite edits only the file it compiles (the runtime serves the call)
// REMARK-NOT: halo-helper.h:8:3: remark: MPI_Send is left unchanged
// REMARK-NOT: mpi.h
