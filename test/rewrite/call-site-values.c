// A parameter of a function whose every call is visible and passes one value has that value:
// `exchange(u, NX, NY)` lets the column type built inside exchange() be proven. The function
// must be static (or the file the whole program), never have its address taken, and be called
// at least once; each call's argument is proven in its caller, which may itself be such a
// function. An MPI_Datatype parameter likewise takes the one chain every call passes. Anything
// else keeps the reason.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
// RUN: tempi-rewrite --whole-program %t.c -- -I%mock_mpi > %t.whole.c
// RUN: grep -v "^// [A-Z]" %t.whole.c | FileCheck --check-prefix=WHOLE %s
#include <mpi.h>

#define NX 64
#define NY 32

static void exchange(double *u, int nx, int ny, int peer) {
  MPI_Datatype column;
  MPI_Type_vector(ny, 1, nx + 2, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  MPI_Send(u, 1, column, peer, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, column, peer, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'column' holds vector(32, 1, 66, MPI_DOUBLE)
  MPI_Type_free(&column);
}

// Passes its own parameter on: proven through its one caller.
static void step(double *u, int n, int peer) { exchange(u, n, NY, peer); }

static void twice(double *u, int n) {
  MPI_Datatype row;
  MPI_Type_contiguous(n, MPI_DOUBLE, &row);
  MPI_Send(u, 1, row, 0, 1, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, row, 0, 1, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'row' of MPI_Send is left to the runtime: count depends on 'n', a parameter of 'twice', which is called with 8 on line 79 and 16 on line 80
}

static void modifies(double *u, int n) {
  MPI_Datatype row;
  n = n + 1;
  MPI_Type_contiguous(n, MPI_DOUBLE, &row);
  MPI_Send(u, 1, row, 0, 2, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, row, 0, 2, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'row' of MPI_Send is left to the runtime: count depends on 'n', a parameter of 'modifies', which is modified on line 43
}

static void pointed(double *u, int n) {
  MPI_Datatype row;
  MPI_Type_contiguous(n, MPI_DOUBLE, &row);
  MPI_Send(u, 1, row, 0, 3, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, row, 0, 3, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'row' of MPI_Send is left to the runtime: count depends on 'n', a parameter of 'pointed', whose address is taken on line 82
}

void external(double *u, int n) {
  MPI_Datatype row;
  MPI_Type_contiguous(n, MPI_DOUBLE, &row);
  MPI_Send(u, 1, row, 0, 4, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, row, 0, 4, MPI_COMM_WORLD);
  // WHOLE: tempi_Send(u, 1, row, 0, 4, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: datatype 'row' of MPI_Send is left to the runtime: count depends on 'n', a parameter of 'external', which another file may call (it is not static)
}

static void from_argc(double *u, int n) {
  MPI_Datatype row;
  MPI_Type_contiguous(n, MPI_DOUBLE, &row);
  MPI_Send(u, 1, row, 0, 5, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, row, 0, 5, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'row' of MPI_Send is left to the runtime: count depends on 'n', a parameter of 'from_argc', whose argument on line 86 depends on 'argc', a parameter of 'main'
}

int main(int argc, char **argv) {
  static double u[(NX + 2) * (NY + 2)];
  MPI_Init(&argc, &argv);
  step(u, NX, 1);
  twice(u, 8);
  twice(u, 16);
  modifies(u, 4);
  void (*fp)(double *, int) = pointed;
  fp(u, 4);
  pointed(u, 4);
  external(u, 5);
  from_argc(u, argc);
  MPI_Finalize();
  return 0;
}

// An MPI_Datatype parameter likewise: the one chain every call passes.
static void send_face(double *u, MPI_Datatype face, int tag) {
  MPI_Send(u, 1, face, 1, tag, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, face, 1, tag, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'face' holds vector(4, 1, 8, MPI_DOUBLE)
}

static void send_any(double *u, MPI_Datatype t) {
  MPI_Send(u, 1, t, 1, 9, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, t, 1, 9, MPI_COMM_WORLD);
  // REMARK: remark: datatype 't' of MPI_Send is left to the runtime: 't' comes from a parameter of 'send_any', which is called with different datatypes on line 112 and line 113
}

static void faces(double *u) {
  MPI_Datatype col, row;
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &col);
  MPI_Type_contiguous(4, MPI_DOUBLE, &row);
  MPI_Type_commit(&col);
  MPI_Type_commit(&row);
  send_face(u, col, 1);
  send_face(u + 1, col, 2);
  send_any(u, col);
  send_any(u, row);
}

void run_faces(double *u) { faces(u); }

// A function with an MPI name (a profiling wrapper, say) may be called by the MPI library
// itself, so even with --whole-program its parameters are not taken from the program's calls.
int MPI_Send_row(double *u, int n) {
  MPI_Datatype row;
  MPI_Type_contiguous(n, MPI_DOUBLE, &row);
  return MPI_Send(u, 1, row, 0, 10, MPI_COMM_WORLD);
  // WHOLE: {{^}}  return MPI_Send(u, 1, row, 0, 10, MPI_COMM_WORLD);
}
void call_send_row(double *u) { MPI_Send_row(u, 3); }
