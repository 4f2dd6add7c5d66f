// The rewritten file keeps the user's line numbers: a warning in the rewritten file points at the
// original line, and the plans sit right after the line that includes mpi.h.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: %clang -fsyntax-only -Wunused-variable -I%mock_mpi -I%tempi_include %t.out.c 2> %t.err
// RUN: FileCheck --check-prefix=WARN --input-file=%t.err %s
// RUN: FileCheck --check-prefix=HEAD --input-file=%t.out.c %s
#include <stdio.h>
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  int unused_here;
  MPI_Finalize();
  return 0;
}
// WARN: line-directives.c.tmp.c:18:7: warning: unused variable 'unused_here'
// HEAD:      {{^}}#include <mpi.h>
// HEAD-NEXT: {{^}}#include <tempi/tempi.h>
// HEAD-NEXT: {{^}}static tempi_static_plan tempi_gen_plan_{{[0-9a-f]+}} = {1,
// HEAD-NEXT: {{^}}#line 10 "{{.*}}line-directives.c.tmp.c"
// HEAD-NEXT: {{^}}#include <stdlib.h>
