// Old C that gcc accepts with warnings and clang 22 rejects by default: the tool downgrades those
// errors (and -Werror) to warnings, since the user's compiler, not the tool, compiles the file,
// and prints none of Clang's warnings either (that compiler prints its own).
// It still analyses and rewrites: implicit function declarations (no <stdlib.h>), implicit int,
// int-to-pointer conversion, `return;` in a non-void function, incompatible function pointers.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -std=gnu17 -Werror -I%mock_mpi > %t.out.c 2> %t.err
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: not grep -E "error|warning" %t.err
#include <mpi.h>

typedef int (*handler)(int);
static long twice(long x) { return 2 * x; }

count_of(n) { return n; }

static int nothing(void) {
  return;
}

int main(int argc, char **argv) {
  int *p = 5;
  handler h = twice;
  double *buf = malloc(256 * sizeof(double));
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  free(buf);
  return count_of(0) + nothing() + (p == 0) + (h == 0);
}
// CHECK: {{^}}  tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
