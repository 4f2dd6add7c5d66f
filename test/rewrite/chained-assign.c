// A chained assignment's value is its right side: `n = stride = 4` sets both to 4 and
// `bl[0] = bl[1] = 2` both elements to 2, as separate assignments would. A compound one
// (`a = b += 1`) is still refused: its value depends on b's old value.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

void chained(int *buf) {
  int n, stride, bl[2], disp[2] = {0, 4}, a, b = 3;
  short narrow;
  MPI_Datatype t1, t2, t3, t4;
  n = stride = 4;
  MPI_Type_vector(n, 1, stride, MPI_INT, &t1);
  MPI_Send(buf, 1, t1, 1, 0, MPI_COMM_WORLD);
  bl[0] = bl[1] = 2;
  MPI_Type_indexed(2, bl, disp, MPI_INT, &t2);
  MPI_Send(buf, 1, t2, 1, 1, MPI_COMM_WORLD);
  n = (narrow = 70000) + 1; // the inner value is narrow's, 70000 converted to short: 4464
  MPI_Type_contiguous(n, MPI_INT, &t3);
  MPI_Send(buf, 1, t3, 1, 2, MPI_COMM_WORLD);
  a = b += 1;
  MPI_Type_contiguous(a, MPI_INT, &t4);
  MPI_Send(buf, 1, t4, 1, 3, MPI_COMM_WORLD);
}
// CHECK: {{^}}  tempi_Send(buf, 1, t1, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  tempi_Send(buf, 1, t2, 1, 1, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  tempi_Send(buf, 1, t3, 1, 2, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  MPI_Send(buf, 1, t4, 1, 3, MPI_COMM_WORLD);
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 't1' holds vector(4, 1, 4, MPI_INT)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 't2' holds indexed(2, [2, 2], [0, 4], MPI_INT)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 't3' holds contiguous(4465, MPI_INT)
// REMARK: remark: datatype 't4' of MPI_Send is left to the runtime: count has a side effect
