// A call spelled in a macro argument that the macro also stringifies (#arg) is
// left unchanged, with a remark: rewriting it would change the text the program sees
// (TRACE(MPI_Send(...)) would print "tempi_Send(..., &tempi_gen_plan_...)"). Nested macros
// count (the argument reaches a stringifying macro through another one); a macro that
// stringifies a different argument does not.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#include <stdio.h>

#define TRACE(c) do { printf("calling %s\n", #c); c; } while (0)
#define CHECK(c) do { if ((c) != MPI_SUCCESS) printf("%s failed\n", #c); } while (0)
#define CHECKED(c) CHECK(c)
#define SHOW(...) do { puts(#__VA_ARGS__); __VA_ARGS__; } while (0)
#define NAMED(name, c) do { puts(#name); c; } while (0)

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  TRACE(MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD));
// REMARK: .c:[[@LINE-1]]:9: remark: MPI_Send is left unchanged: the call is in the argument 'c' of macro 'TRACE', which stringifies it (#c); rewriting the call would change that text
  CHECKED(MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD));
// REMARK: .c:[[@LINE-1]]:11: remark: MPI_Send is left unchanged: the call is in the argument 'c' of macro 'CHECK', which stringifies it (#c)
  SHOW(MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD));
// REMARK: .c:[[@LINE-1]]:8: remark: MPI_Send is left unchanged: the call is in the argument '__VA_ARGS__' of macro 'SHOW', which stringifies it (#__VA_ARGS__)
  NAMED(send, MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD));
// REMARK: .c:[[@LINE-1]]:15: remark: rewritten: MPI_Send -> tempi_Send
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  TRACE(MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD));
// CHECK: {{^}}  CHECKED(MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD));
// CHECK: {{^}}  SHOW(MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD));
// CHECK: {{^}}  NAMED(send, tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}}));
