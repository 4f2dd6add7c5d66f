// A call spelled in a macro argument that the macro also stringifies (#arg) keeps that text:
// the call is rewritten through a shadow macro (#define MPI_Send(...) tempi_Send(__VA_ARGS__,
// &plan) before the invocation's lines, #undef after them, each followed by #line), so `#c`
// still reads "MPI_Send(...)". Where a shadow is not safe the call is left unchanged with a
// remark: the text reaches the stringifying macro through another macro (which would expand the
// shadow first), another call of the same name is on the lines, or the language has no variadic
// macros. A macro that stringifies a different argument gets the plain text edit.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: %clang -E -P -I%mock_mpi -I%tempi_include %t.out.c | FileCheck --check-prefix=PP %s
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
// RUN: tempi-rewrite --explain %t.c -- -std=c89 -I%mock_mpi 2> %t.c89.err > /dev/null
// RUN: FileCheck --check-prefix=C89 --input-file=%t.c89.err %s
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
// REMARK: .c:[[@LINE-1]]:9: remark: rewritten: MPI_Send -> tempi_Send
// C89: .c:[[@LINE-2]]:9: remark: MPI_Send is left unchanged: the call is in the argument 'c' of macro 'TRACE', which stringifies it (#c); rewriting the call would change that text (and it cannot be shadowed by a macro: that needs variadic macros, C99 or C++11)
  CHECKED(MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD));
// REMARK: .c:[[@LINE-1]]:11: remark: MPI_Send is left unchanged: the call is in the argument 'c' of macro 'CHECK', which stringifies it (#c); rewriting the call would change that text (and it cannot be shadowed by a macro: the text reaches the stringifying macro through another macro, which would expand the shadow first)
  SHOW(MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD));
// REMARK: .c:[[@LINE-1]]:8: remark: rewritten: MPI_Send -> tempi_Send
  NAMED(send, MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD));
// REMARK: .c:[[@LINE-1]]:15: remark: rewritten: MPI_Send -> tempi_Send
  TRACE(MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD)); TRACE(MPI_Send(buf, 1, t, 2, 0, MPI_COMM_WORLD));
// REMARK: .c:[[@LINE-1]]:9: remark: MPI_Send is left unchanged: {{.*}} (and it cannot be shadowed by a macro: another call of MPI_Send is on its lines)
// REMARK: .c:[[@LINE-2]]:59: remark: MPI_Send is left unchanged: {{.*}} (and it cannot be shadowed by a macro: another call of MPI_Send is on its lines)
  TRACE(MPI_Send(buf, 1, t, 3,
                 0, MPI_COMM_WORLD));
// REMARK: .c:[[@LINE-2]]:9: remark: rewritten: MPI_Send -> tempi_Send
// A call edited as text at the start of the line after a shadowed invocation (the #undef and
// the edit meet at one offset).
TRACE(MPI_Send(buf, 1, t, 4, 0, MPI_COMM_WORLD));
MPI_Send(buf, 1, t, 5, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK:      {{^}}#define MPI_Send(...) tempi_Send(__VA_ARGS__, &tempi_gen_plan_{{[0-9a-f]+}}){{$}}
// CHECK-NEXT: {{^}}#line 32 "{{.*}}"
// CHECK-NEXT: {{^}}  TRACE(MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD));
// CHECK-NEXT: {{^}}#undef MPI_Send
// CHECK-NEXT: {{^}}#line 33 "{{.*}}"
// CHECK:      {{^}}  CHECKED(MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD));
// CHECK:      {{^}}#define MPI_Send(...) tempi_Send(__VA_ARGS__, &tempi_gen_plan_{{[0-9a-f]+}}){{$}}
// CHECK-NEXT: {{^}}#line 37 "{{.*}}"
// CHECK-NEXT: {{^}}  SHOW(MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD));
// CHECK-NEXT: {{^}}#undef MPI_Send
// CHECK:      {{^}}  NAMED(send, tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}}));
// CHECK:      {{^}}  TRACE(MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD)); TRACE(MPI_Send(buf, 1, t, 2, 0, MPI_COMM_WORLD));
// CHECK:      {{^}}#define MPI_Send(...)
// CHECK-NEXT: {{^}}#line 44 "{{.*}}"
// CHECK-NEXT: {{^}}  TRACE(MPI_Send(buf, 1, t, 3,
// CHECK-NEXT: {{^}}                 0, MPI_COMM_WORLD));
// CHECK-NEXT: {{^}}#undef MPI_Send
// CHECK-NEXT: {{^}}#line 46 "{{.*}}"
// CHECK:      {{^}}#define MPI_Send(...)
// CHECK-NEXT: {{^}}#line 49 "{{.*}}"
// CHECK-NEXT: {{^}}TRACE(MPI_Send(buf, 1, t, 4, 0, MPI_COMM_WORLD));
// CHECK-NEXT: {{^}}#undef MPI_Send
// CHECK-NEXT: {{^}}#line 50 "{{.*}}"
// CHECK-NEXT: {{^}}tempi_Send(buf, 1, t, 5, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});

// The preprocessed program: the stringified text as written, the call to TEMPI.
// PP: printf("calling %s\n", "MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD)"); tempi_Send(buf, 1, t, 1, 0, {{.*}}, &tempi_gen_plan_{{[0-9a-f]+}});
// PP: if ((MPI_Send(buf, 1, t, 1, 0, {{.*}})) != 0) printf("%s failed\n", "MPI_Send(
// PP: puts("MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD)"); tempi_Send(
// PP: puts("send"); tempi_Send(
