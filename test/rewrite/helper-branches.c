// A helper followed for one call has its parameters bound to the call's constant arguments
// (bindHelper); they hold for the whole call, so a branch on a condition they decide goes one
// way: `if (dim == 0)`, `switch (dim)`, `dim == 1 && g_flag` when dim is not 1, a loop's
// condition. The branches not taken are unreachable code for that call: what they define,
// free or return does not count. A condition on anything else (a global, a parameter the
// helper writes) keeps both ways, as does a struct helper whose arguments are not constants.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

#define NX 16
#define NY 16
#define NZ 16
#define R 2

extern int g_flag;

/* An if/else-if chain on the parameter: only the branch the call's argument takes defines. */
static MPI_Datatype face(int dim) {
  MPI_Datatype t;
  if (dim == 0)
    MPI_Type_vector(NY * NZ, R, NX, MPI_DOUBLE, &t);
  else if (dim == 1)
    MPI_Type_vector(NZ, R * NX, NX * NY, MPI_DOUBLE, &t);
  else
    MPI_Type_contiguous(R * NX * NY, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

/* A switch: the case the value selects (two labels sharing a body), else the default. */
static MPI_Datatype face_switch(int dim) {
  MPI_Datatype t;
  int count, block, stride;
  switch (dim) {
  case 0:
  case 3:
    count = NY * NZ; block = R; stride = NX;
    break;
  case 1: count = NZ; block = R * NX; stride = NX * NY; break;
  default: count = 1; block = R * NX * NY; stride = 1; break;
  }
  MPI_Type_vector(count, block, stride, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

/* A switch with no default: a value no case takes leaves the count undefined. */
static MPI_Datatype face_no_default(int dim) {
  MPI_Datatype t;
  int count;
  switch (dim) {
  case 0: count = NY * NZ; break;
  case 1: count = NZ; break;
  }
  MPI_Type_vector(count, R, NX, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

/* A return in each branch: the one not taken is unreachable for this call. */
static MPI_Datatype face_returns(int dim) {
  MPI_Datatype t;
  if (dim == 0 || dim == 5) {
    MPI_Type_vector(NY * NZ, R, NX, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    return t;
  }
  MPI_Type_contiguous(R * NX * NY, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

/* Subsizes chosen by conditions on the parameter, one of them with a value that is not. */
static MPI_Datatype face_subarray(int dim) {
  MPI_Datatype t;
  int sizes[3] = {NZ, NY, NX}, sub[3] = {NZ, NY, NX}, start[3] = {0, 0, 0};
  if (dim == 0)
    sub[2] = R;
  if (dim == 1 && g_flag)
    sub[1] = R;
  if (!(dim != 2))
    sub[0] = R;
  MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

/* A condition on a value the call does not fix: both branches may run. */
static MPI_Datatype face_flag(int dim) {
  MPI_Datatype t;
  if (g_flag)
    MPI_Type_vector(NY * NZ, R, NX, MPI_DOUBLE, &t);
  else
    MPI_Type_vector(NZ, R * NX, NX * NY, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

/* A parameter the helper writes is not bound: no branch is pruned. */
static MPI_Datatype face_modified(int dim) {
  MPI_Datatype t;
  if (dim < 0)
    dim = 0;
  if (dim == 0)
    MPI_Type_vector(NY * NZ, R, NX, MPI_DOUBLE, &t);
  else
    MPI_Type_contiguous(R * NX * NY, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

/* A return in each branch, of predefined datatypes. */
static MPI_Datatype element_of(int wide) {
  if (wide)
    return MPI_DOUBLE;
  return MPI_FLOAT;
}

struct faces {
  MPI_Datatype x, y;
};

/* A struct built through a pointer: the branches on the index parameter are pruned too. */
static void make_face(struct faces *f, int dim) {
  if (dim == 0)
    MPI_Type_vector(NY * NZ, R, NX, MPI_DOUBLE, &f->x);
  else
    MPI_Type_vector(NZ, R * NX, NX * NY, MPI_DOUBLE, &f->y);
}

int main(int argc, char **argv) {
  static double u[NX * NY * NZ];
  MPI_Init(&argc, &argv);
  MPI_Datatype x = face(0), y = face(1), z = face(2);
  MPI_Datatype s0 = face_switch(0), s3 = face_switch(3), s1 = face_switch(1), s7 = face_switch(7);
  MPI_Datatype n1 = face_no_default(1), n4 = face_no_default(4);
  MPI_Datatype r5 = face_returns(5), r1 = face_returns(1);
  MPI_Datatype c0 = face_subarray(0), c1 = face_subarray(1), c2 = face_subarray(2);
  MPI_Datatype f0 = face_flag(0);
  MPI_Datatype m0 = face_modified(0);
  MPI_Datatype e1;
  MPI_Type_vector(4, 1, 8, element_of(1), &e1);
  MPI_Type_commit(&e1);
  struct faces f;
  make_face(&f, 0);
  make_face(&f, 1);
  MPI_Type_commit(&f.x);
  MPI_Type_commit(&f.y);
  MPI_Send(u, 1, x, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, x, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'x' holds vector(256, 2, 16, MPI_DOUBLE),
  MPI_Send(u, 1, y, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, y, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'y' holds vector(16, 32, 256, MPI_DOUBLE),
  MPI_Send(u, 1, z, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, z, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'z' holds contiguous(512, MPI_DOUBLE),
  MPI_Send(u, 1, s0, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, s0, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 's0' holds vector(256, 2, 16, MPI_DOUBLE),
  MPI_Send(u, 1, s3, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, s3, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 's3' holds vector(256, 2, 16, MPI_DOUBLE),
  MPI_Send(u, 1, s1, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, s1, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 's1' holds vector(16, 32, 256, MPI_DOUBLE),
  MPI_Send(u, 1, s7, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, s7, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 's7' holds vector(1, 512, 1, MPI_DOUBLE),
  MPI_Send(u, 1, n1, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, n1, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'n1' holds vector(16, 2, 16, MPI_DOUBLE),
  MPI_Send(u, 1, n4, 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, n4, 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'n4' of MPI_Send is left to the runtime: 't' in 'face_no_default': count depends on 'count', which is not defined before this use [-Rtempi]
  MPI_Send(u, 1, r5, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, r5, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'r5' holds vector(256, 2, 16, MPI_DOUBLE),
  MPI_Send(u, 1, r1, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, r1, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'r1' holds contiguous(512, MPI_DOUBLE),
  MPI_Send(u, 1, c0, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, c0, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'c0' holds subarray(3, [16, 16, 16], [16, 16, 2], [0, 0, 0], C, MPI_DOUBLE),
  MPI_Send(u, 1, c1, 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, c1, 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'c1' of MPI_Send is left to the runtime: 't' in 'face_subarray': array_of_subsizes[1] depends on 'sub[1]', which is reassigned on line 85 [-Rtempi]
  MPI_Send(u, 1, c2, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, c2, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'c2' holds subarray(3, [16, 16, 16], [2, 16, 16], [0, 0, 0], C, MPI_DOUBLE),
  MPI_Send(u, 1, f0, 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, f0, 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'f0' of MPI_Send is left to the runtime: 't' in 'face_flag' is defined on line 97 or 99, depending on the path taken [-Rtempi]
  MPI_Send(u, 1, m0, 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, m0, 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'm0' of MPI_Send is left to the runtime: the datatype is returned by a call to 'face_modified', whose parameter 'dim' is modified on line 108 [-Rtempi]
  MPI_Send(u, 1, e1, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, e1, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'e1' holds vector(4, 1, 8, MPI_DOUBLE),
  MPI_Send(u, 1, f.x, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, f.x, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'f.x' holds vector(256, 2, 16, MPI_DOUBLE),
  MPI_Send(u, 1, f.y, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, f.y, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'f.y' holds vector(16, 32, 256, MPI_DOUBLE),
  MPI_Finalize();
  return 0;
}
