// An integer member of a local struct set by an initializer list (`struct params p = {16, 8};`,
// designators and omitted members, which are 0, too) is a constant where nothing in the function
// writes the struct or a member, takes an address, or uses it other than as a value (since
// session 22; before, "count is not a compile-time constant"). Each refusal below pins one way
// the struct may change: an assignment, ++, its address or a member's passed on, a pointer to it,
// an assignment of the whole struct, a write in a loop, members set one by one.
// RUN: cp %s %t.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --input-file=%t.err %s
#include <mpi.h>
struct params { int nx, ny; };
void read_params(struct params *p);
void read_int(int *v);
static double u[4096];
void f1(void) { struct params p = {16, 8}; MPI_Datatype t; p.nx = 5; MPI_Type_vector(p.ny, 1, p.nx, MPI_DOUBLE, &t); MPI_Type_commit(&t); MPI_Send(u, 1, t, 1, 0, MPI_COMM_WORLD); }
// CHECK: .c:[[@LINE-1]]:{{[0-9]+}}: remark: datatype 't' of MPI_Send is left to the runtime: count depends on 'p.ny', whose struct 'p' is written, or its address taken, on line [[@LINE-1]]
void f2(void) { struct params p = {16, 8}; MPI_Datatype t; p.nx++; MPI_Type_vector(p.ny, 1, p.nx, MPI_DOUBLE, &t); MPI_Type_commit(&t); MPI_Send(u, 1, t, 1, 0, MPI_COMM_WORLD); }
// CHECK: .c:[[@LINE-1]]:{{[0-9]+}}: remark: datatype 't' of MPI_Send is left to the runtime: count depends on 'p.ny', whose struct 'p' is written, or its address taken, on line [[@LINE-1]]
void f3(void) { struct params p = {16, 8}; MPI_Datatype t; read_params(&p); MPI_Type_vector(p.ny, 1, p.nx, MPI_DOUBLE, &t); MPI_Type_commit(&t); MPI_Send(u, 1, t, 1, 0, MPI_COMM_WORLD); }
// CHECK: .c:[[@LINE-1]]:{{[0-9]+}}: remark: datatype 't' of MPI_Send is left to the runtime: count depends on 'p.ny', whose struct 'p' is written, or its address taken, on line [[@LINE-1]]
void f4(void) { struct params p = {16, 8}; MPI_Datatype t; read_int(&p.nx); MPI_Type_vector(p.ny, 1, p.nx, MPI_DOUBLE, &t); MPI_Type_commit(&t); MPI_Send(u, 1, t, 1, 0, MPI_COMM_WORLD); }
// CHECK: .c:[[@LINE-1]]:{{[0-9]+}}: remark: datatype 't' of MPI_Send is left to the runtime: count depends on 'p.ny', whose struct 'p' is written, or its address taken, on line [[@LINE-1]]
void f5(void) { struct params p = {16, 8}; MPI_Datatype t; struct params *pp = &p; pp->nx = 3; MPI_Type_vector(p.ny, 1, p.nx, MPI_DOUBLE, &t); MPI_Type_commit(&t); MPI_Send(u, 1, t, 1, 0, MPI_COMM_WORLD); }
// CHECK: .c:[[@LINE-1]]:{{[0-9]+}}: remark: datatype 't' of MPI_Send is left to the runtime: count depends on 'p.ny', whose struct 'p' is written, or its address taken, on line [[@LINE-1]]
void f6(struct params o) { struct params p = {16, 8}; MPI_Datatype t; p = o; MPI_Type_vector(p.ny, 1, p.nx, MPI_DOUBLE, &t); MPI_Type_commit(&t); MPI_Send(u, 1, t, 1, 0, MPI_COMM_WORLD); }
// CHECK: .c:[[@LINE-1]]:{{[0-9]+}}: remark: datatype 't' of MPI_Send is left to the runtime: count depends on 'p.ny', whose struct 'p' is written, or its address taken, on line [[@LINE-1]]
void f7(void) { struct params p = {16, 8}; MPI_Datatype t; for (int i = 0; i < 2; ++i) { MPI_Type_vector(p.ny, 1, p.nx, MPI_DOUBLE, &t); MPI_Type_commit(&t); MPI_Send(u, 1, t, 1, 0, MPI_COMM_WORLD); p.nx += 1; } }
// CHECK: .c:[[@LINE-1]]:{{[0-9]+}}: remark: datatype 't' of MPI_Send is left to the runtime: count depends on 'p.ny', whose struct 'p' is written, or its address taken, on line [[@LINE-1]]
void f8(void) { struct params p; MPI_Datatype t; p.nx = 4; p.ny = 2; MPI_Type_vector(p.ny, 1, p.nx, MPI_DOUBLE, &t); MPI_Type_commit(&t); MPI_Send(u, 1, t, 1, 0, MPI_COMM_WORLD); }
// CHECK: .c:[[@LINE-1]]:{{[0-9]+}}: remark: datatype 't' of MPI_Send is left to the runtime: count depends on 'p.ny', which is not set by an initializer list
void f10(void) { struct params p = {16}; MPI_Datatype t; MPI_Type_vector(p.ny + 1, 1, p.nx, MPI_DOUBLE, &t); MPI_Type_commit(&t); MPI_Send(u, 1, t, 1, 0, MPI_COMM_WORLD); }
// CHECK: .c:[[@LINE-1]]:{{[0-9]+}}: remark: rewritten: MPI_Send -> tempi_Send: 't' holds vector(1, 1, 16, MPI_DOUBLE),
void f11(void) { struct params p = {16, 8}; struct params q = p; MPI_Datatype t; MPI_Type_vector(q.ny, 1, q.nx, MPI_DOUBLE, &t); MPI_Type_commit(&t); MPI_Send(u, 1, t, 1, 0, MPI_COMM_WORLD); }
// CHECK: .c:[[@LINE-1]]:{{[0-9]+}}: remark: datatype 't' of MPI_Send is left to the runtime: count depends on 'q.ny', which is not set by an initializer list
int main(int argc, char **argv) {
  struct params p = {16, 8};
  struct params q = {.ny = 4, .nx = 12};
  MPI_Datatype a, b;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(p.ny, 1, p.nx, MPI_DOUBLE, &a);
  MPI_Type_vector(q.ny, 1, q.nx, MPI_DOUBLE, &b);
  MPI_Type_commit(&a);
  MPI_Type_commit(&b);
  MPI_Send(u, 1, a, 1, 0, MPI_COMM_WORLD);
// CHECK: .c:[[@LINE-1]]:3: remark: rewritten: MPI_Send -> tempi_Send: 'a' holds vector(8, 1, 16, MPI_DOUBLE),
  MPI_Send(u, 1, b, 1, 0, MPI_COMM_WORLD);
// CHECK: .c:[[@LINE-1]]:3: remark: rewritten: MPI_Send -> tempi_Send: 'b' holds vector(4, 1, 12, MPI_DOUBLE),
  MPI_Finalize();
  return 0;
}
