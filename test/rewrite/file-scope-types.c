// Datatypes kept in variables of static storage, set up once and used by other functions: a
// file-scope `static MPI_Datatype` or a function's static local is proven when exactly one
// constructor in the whole file writes it, with arguments proven where that constructor stands,
// and every other reference reads it or commits or frees it. A global of external linkage is
// proven only with --whole-program (tempi-cc passes it when one command compiles and links one
// source); without, another file may write it.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
// RUN: tempi-rewrite --whole-program %t.c -- -I%mock_mpi > %t.whole.c
// RUN: grep -v "^// [A-Z]" %t.whole.c | FileCheck --check-prefix=WHOLE %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.whole.c
#include <mpi.h>

#define NX 64
#define NY 32

static MPI_Datatype column;              // built in setup(), used in exchange()
static MPI_Datatype row = MPI_DATATYPE_NULL;
static MPI_Datatype plane;               // built from column
MPI_Datatype g_halo;                     // external linkage
static MPI_Datatype rebuilt;             // two constructors
static MPI_Datatype sized;               // arguments from a parameter
static MPI_Datatype assigned;            // assigned a copy
static MPI_Datatype leaked;              // address handed to another function
static MPI_Datatype preset = MPI_DOUBLE; // initialized to a datatype

void keep(MPI_Datatype *t);

static void setup(int n) {
  MPI_Type_vector(NY, 1, NX, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  MPI_Type_contiguous(NX, MPI_DOUBLE, &row);
  MPI_Type_commit(&row);
  MPI_Type_create_hvector(4, 1, (MPI_Aint)(NX * NY * sizeof(double)), column, &plane);
  MPI_Type_commit(&plane);
  MPI_Type_vector(NY, 2, NX, MPI_DOUBLE, &g_halo);
  MPI_Type_commit(&g_halo);
  MPI_Type_vector(NY, 1, NX, MPI_FLOAT, &rebuilt);
  MPI_Type_vector(n, 1, NX, MPI_DOUBLE, &sized);
  MPI_Type_vector(NY, 1, NX, MPI_DOUBLE, &assigned);
  MPI_Type_vector(NY, 1, NX, MPI_DOUBLE, &leaked);
  keep(&leaked);
  MPI_Type_vector(NY, 1, NX, MPI_DOUBLE, &preset);
}

static void reset(void) {
  MPI_Type_free(&rebuilt);
  MPI_Type_vector(NY, 2, NX, MPI_FLOAT, &rebuilt);
  assigned = column;
}

// A static local set up on first use: the pattern of a lazily built datatype.
static MPI_Datatype lazy_type(void) {
  static MPI_Datatype t = MPI_DATATYPE_NULL;
  if (t == MPI_DATATYPE_NULL) {
    MPI_Type_vector(8, 1, NX, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
  }
  return t;
}

static void exchange(double *a, int peer) {
  MPI_Send(a, 1, column, peer, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(a, 1, column, peer, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'column' holds vector(32, 1, 64, MPI_DOUBLE)
  MPI_Send(a, 1, row, peer, 1, MPI_COMM_WORLD);
  // CHECK: tempi_Send(a, 1, row, peer, 1, MPI_COMM_WORLD, &tempi_gen_plan_
  MPI_Send(a, 1, plane, peer, 2, MPI_COMM_WORLD);
  // CHECK: tempi_Send(a, 1, plane, peer, 2, MPI_COMM_WORLD, &tempi_gen_plan_
  MPI_Send(a, 1, g_halo, peer, 3, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(a, 1, g_halo, peer, 3, MPI_COMM_WORLD);
  // WHOLE: tempi_Send(a, 1, g_halo, peer, 3, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: datatype 'g_halo' of MPI_Send is left to the runtime: 'g_halo' is a global variable that another file may write (tempi-cc proves one only when it compiles and links the whole program in one command, or when it is static)
  MPI_Send(a, 1, rebuilt, peer, 4, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(a, 1, rebuilt, peer, 4, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'rebuilt' of MPI_Send is left to the runtime: 'rebuilt' is built on line 42 and on line 52
  MPI_Send(a, 1, sized, peer, 5, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(a, 1, sized, peer, 5, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'sized' of MPI_Send is left to the runtime: 'sized' is built on line 43: count depends on 'n', a parameter of 'setup'
  MPI_Send(a, 1, assigned, peer, 6, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(a, 1, assigned, peer, 6, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'assigned' of MPI_Send is left to the runtime: 'assigned' is assigned on line 53
  MPI_Send(a, 1, leaked, peer, 7, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(a, 1, leaked, peer, 7, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'leaked' of MPI_Send is left to the runtime: 'leaked' has its address passed to 'keep' on line 46
  MPI_Send(a, 1, preset, peer, 8, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(a, 1, preset, peer, 8, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'preset' of MPI_Send is left to the runtime: 'preset' is initialized on line 29 and may be written later (only MPI_DATATYPE_NULL is followed)
  MPI_Send(a, 1, lazy_type(), peer, 9, MPI_COMM_WORLD);
  // CHECK: tempi_Send(a, 1, lazy_type(), peer, 9, MPI_COMM_WORLD, &tempi_gen_plan_
}

int main(int argc, char **argv) {
  double a[NX * NY * 4];
  MPI_Init(&argc, &argv);
  setup(argc);
  exchange(a, 1);
  reset();
  MPI_Datatype local = lazy_type();
  MPI_Send(a, 1, local, 1, 10, MPI_COMM_WORLD);
  // CHECK: tempi_Send(a, 1, local, 1, 10, MPI_COMM_WORLD, &tempi_gen_plan_
  MPI_Finalize();
  return 0;
}
