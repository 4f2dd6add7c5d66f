// A checking macro that takes the function's NAME and its arguments (`MPI_CALL(MPI_Sendrecv,
// ...)` with `fn(__VA_ARGS__)` and `#fn` in its body): the call's parentheses are in the macro's
// body, where no edit reaches, so the call is rewritten through a shadow macro over the lines of
// the invocation (#define MPI_Sendrecv(...) tempi_Sendrecv(__VA_ARGS__, plans) before them,
// #undef after, each followed by #line). The name argument is not followed by `(` at the
// invocation, so only the rescan of the body expands the shadow, and `#fn` still reads
// "MPI_Sendrecv". The name and plans are those the text edit gives (a deferred send included).
// Refused with the reason where a shadow is not safe (the body calls `fn` twice); a name that a
// macro body spells (`#define SEND MPI_Send`) keeps the plain refusal; a call with predefined
// types only has nothing to specialize.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi -I%S/Inputs > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%S/Inputs -I%tempi_include %t.out.c
// RUN: %clang -E -P -I%mock_mpi -I%S/Inputs -I%tempi_include %t.out.c | FileCheck --check-prefix=PP %s
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi -I%S/Inputs 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --implicit-check-not=remark: --input-file=%t.err %s
// RUN: tempi-rewrite --explain %t.c -- -std=c89 -I%mock_mpi -I%S/Inputs 2> %t.c89.err > /dev/null
// RUN: FileCheck --check-prefix=C89 --input-file=%t.c89.err %s
#include <mpi.h>
#include <mpi-more.h>
#include <stdio.h>

#define MPI_CALL(fn, ...) do { int rc_ = fn(__VA_ARGS__); if (rc_ != MPI_SUCCESS) { fprintf(stderr, "%s failed at %d\n", #fn, __LINE__); MPI_Abort(MPI_COMM_WORLD, rc_); } } while (0)
#define TWICE(fn, ...) do { fn(__VA_ARGS__); fn(__VA_ARGS__); } while (0)
#define SEND MPI_Send

int main(int argc, char **argv) {
  double a[64], b[64];
  MPI_Datatype col;
  MPI_Status st;
  MPI_Request req;
  MPI_Comm comm = MPI_COMM_WORLD;
  int up = 1, down = 0;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(8, 1, 8, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_CALL(MPI_Sendrecv, a, 1, col, up, 0, b, 1, col, down, 0, comm, &st);
// REMARK: .c:[[@LINE-1]]:12: remark: rewritten: MPI_Sendrecv -> tempi_Sendrecv: {{.*}}; through a macro that shadows MPI_Sendrecv on the lines of its macro invocation (the name is passed to the macro) [-Rtempi]
// C89: .c:[[@LINE-2]]:12: remark: MPI_Sendrecv is left unchanged: the call is spelled inside the definition of macro 'MPI_CALL' (and it cannot be shadowed by a macro: that needs variadic macros, C99 or C++11)
  MPI_CALL(MPI_Send, a, 8, MPI_DOUBLE, up, 0, comm);
  TWICE(MPI_Send, a, 1, col, up, 0, comm);
// REMARK: .c:[[@LINE-1]]:9: remark: MPI_Send is left unchanged: the call is spelled inside the definition of macro 'TWICE' (and it cannot be shadowed by a macro: another call of MPI_Send is on its lines)
  SEND(a, 1, col, up, 0, comm);
// REMARK: .c:[[@LINE-1]]:3: remark: MPI_Send is left unchanged: the call is spelled inside the definition of macro 'SEND'{{ }}[-Rtempi]
  MPI_CALL(MPI_Send, a, 1, col,
           up, 0, comm); MPI_Send(b, 1, col, up, 0, comm);
// REMARK: .c:[[@LINE-2]]:12: remark: MPI_Send is left unchanged: the call is spelled inside the definition of macro 'MPI_CALL' (and it cannot be shadowed by a macro: another call of MPI_Send is on its lines)
// REMARK: .c:[[@LINE-2]]:26: remark: rewritten: MPI_Send -> tempi_Send: 'col' holds {{.*}}, plan [[PLAN:tempi_gen_plan_[0-9a-f]+]]{{ }}[-Rtempi]
  MPI_CALL(MPI_Send, a, 1, col,
           up, 0, comm);
// REMARK: .c:[[@LINE-2]]:12: remark: rewritten: MPI_Send -> tempi_Send: {{.*}} through a macro that shadows MPI_Send
  // The same deferred entry point as a call edited as text.
  MPI_CALL(MPI_Isend, a, 1, col, up, 1, comm, &req);
// REMARK: .c:[[@LINE-1]]:12: remark: the send is deferred: the next call TEMPI intercepts is MPI_Wait on line [[@LINE+2]]
// REMARK: .c:[[@LINE-2]]:12: remark: rewritten: MPI_Isend -> [[DEFERRED:tempi_Isend[a-z_]*]]: {{.*}} through a macro that shadows MPI_Isend
  MPI_CALL(MPI_Wait, &req, &st);
  MPI_Isend(a, 1, col, up, 2, comm, &req);
// REMARK: .c:[[@LINE-1]]:3: remark: rewritten: MPI_Isend -> [[DEFERRED]]:
// REMARK: .c:[[@LINE-2]]:3: remark: the send is deferred:
  MPI_Wait(&req, &st);
  MPI_Finalize();
  return 0;
}
// CHECK:      {{^}}#define MPI_Sendrecv(...) tempi_Sendrecv(__VA_ARGS__, &[[PLAN:tempi_gen_plan_[0-9a-f]+]], &[[PLAN]]){{$}}
// CHECK-NEXT: {{^}}#line 38 "{{.*}}"
// CHECK-NEXT: {{^}}  MPI_CALL(MPI_Sendrecv, a, 1, col, up, 0, b, 1, col, down, 0, comm, &st);
// CHECK-NEXT: {{^}}#undef MPI_Sendrecv
// CHECK-NEXT: {{^}}#line 39 "{{.*}}"
// CHECK:      {{^}}  MPI_CALL(MPI_Send, a, 8, MPI_DOUBLE, up, 0, comm);
// CHECK-NEXT: {{^}}  TWICE(MPI_Send, a, 1, col, up, 0, comm);
// CHECK:      {{^}}  SEND(a, 1, col, up, 0, comm);
// CHECK:      {{^}}  MPI_CALL(MPI_Send, a, 1, col,
// CHECK-NEXT: {{^}}           up, 0, comm); tempi_Send(b, 1, col, up, 0, comm, &[[PLAN]]);
// CHECK-NEXT: {{^}}#define MPI_Send(...) tempi_Send(__VA_ARGS__, &[[PLAN]]){{$}}
// CHECK-NEXT: {{^}}#line 50 "{{.*}}"
// CHECK-NEXT: {{^}}  MPI_CALL(MPI_Send, a, 1, col,
// CHECK-NEXT: {{^}}           up, 0, comm);
// CHECK-NEXT: {{^}}#undef MPI_Send
// CHECK-NEXT: {{^}}#line 52 "{{.*}}"
// CHECK:      {{^}}#define MPI_Isend(...) [[DEFERRED:tempi_Isend[a-z_]*]](__VA_ARGS__, &[[PLAN]]){{$}}
// CHECK-NEXT: {{^}}#line 54 "{{.*}}"
// CHECK-NEXT: {{^}}  MPI_CALL(MPI_Isend, a, 1, col, up, 1, comm, &req);
// CHECK-NEXT: {{^}}#undef MPI_Isend
// CHECK-NEXT: {{^}}#line 55 "{{.*}}"
// CHECK:      {{^}}  [[DEFERRED]](a, 1, col, up, 2, comm, &req, &[[PLAN]]);

// The preprocessed program: the call reaches TEMPI, `#fn` still prints the MPI name.
// PP: int rc_ = tempi_Sendrecv(a, 1, col, up, 0, b, 1, col, down, 0, comm, &st, &tempi_gen_plan_{{[0-9a-f]+}}, &tempi_gen_plan_{{[0-9a-f]+}}); if (rc_ != 0) { fprintf(stderr, "%s failed at %d\n", "MPI_Sendrecv", 38);
// PP: int rc_ = MPI_Send(a, 8, {{.*}}"MPI_Send", 41);
// PP: int rc_ = tempi_Send(a, 1, col, up, 0, comm, &tempi_gen_plan_{{[0-9a-f]+}}); if (rc_ != 0) { fprintf(stderr, "%s failed at %d\n", "MPI_Send", 51);
