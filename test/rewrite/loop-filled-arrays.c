// Constructor arrays filled by a counted loop (`for (i = 0; i < 3; ++i) starts[i] = 0;`) are
// proven element by element: a loop with constant bounds whose body only assigns a[i] = E (E free
// of side effects and of the arrays the loop writes) defines a[lo..hi-1] where it exits, E read
// with i = the element's index. Anything else in the loop, a bound that is not constant, or an
// index other than the loop variable keeps the old refusal.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

#define N 16

void subarray_loop(double *u) {
  MPI_Datatype face;
  int sizes[3], subsizes[3], starts[3], i;
  for (i = 0; i < 3; i++) {
    sizes[i] = N + 2;
    subsizes[i] = N;
    starts[i] = 1;
  }
  subsizes[0] = 1; // a later constant-index write still wins for its element
  MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &face);
  MPI_Type_commit(&face);
  MPI_Send(u, 1, face, 1, 0, MPI_COMM_WORLD);
}

void indexed_from_index(int *buf) {
  MPI_Datatype t;
  int lens[4], displs[4];
  for (int k = 0; k <= 3; ++k)
    lens[k] = 2;
  for (int k = 0; k < 4; k += 1)
    displs[k] = 10 * k;
  MPI_Type_indexed(4, lens, displs, MPI_INT, &t);
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
}

void struct_types(char *buf) {
  MPI_Datatype t, types[2];
  int lens[2] = {1, 1};
  MPI_Aint displs[2] = {0, 16};
  for (int k = 0; k < 2; ++k)
    types[k] = MPI_DOUBLE;
  MPI_Type_create_struct(2, lens, displs, types, &t);
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
}

void runtime_bound(double *u, int n) {
  MPI_Datatype face;
  int sizes[3] = {4, 4, 4}, subsizes[3], starts[3] = {0, 0, 0};
  for (int k = 0; k < n; ++k)
    subsizes[k] = 2;
  MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &face);
  MPI_Type_commit(&face);
  MPI_Send(u, 1, face, 1, 0, MPI_COMM_WORLD);
}

void other_statement(double *u) {
  MPI_Datatype face;
  int sizes[3] = {4, 4, 4}, subsizes[3], starts[3] = {0, 0, 0}, m = 0;
  for (int k = 0; k < 3; ++k) {
    subsizes[k] = 2;
    m++;
  }
  MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &face);
  MPI_Type_commit(&face);
  MPI_Send(u, 1, face, 1, 0, MPI_COMM_WORLD);
}

void recurrence(int *buf) {
  MPI_Datatype t;
  int lens[3] = {1, 1, 1}, displs[3];
  displs[0] = 0;
  for (int k = 1; k < 3; ++k)
    displs[k] = displs[k - 1] + 4;
  MPI_Type_indexed(3, lens, displs, MPI_INT, &t);
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
}

void partly_filled(double *u) {
  MPI_Datatype face;
  int sizes[3] = {4, 4, 4}, subsizes[3], starts[3] = {0, 0, 0};
  for (int k = 0; k < 2; ++k)
    subsizes[k] = 2;
  MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &face);
  MPI_Type_commit(&face);
  MPI_Send(u, 1, face, 1, 0, MPI_COMM_WORLD);
}
// The loop variable read in a definition made before the loop has its value there (6, not the
// element's index): vector(6, 6, 12).
void loop_variable_read_before(double *buf) {
  MPI_Datatype t;
  int i = 5;
  int m = i + 1;
  int counts[3];
  for (i = 0; i < 3; i++)
    counts[i] = m;
  MPI_Type_vector(counts[0], counts[1], counts[2] * 2, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
}
// CHECK-LABEL: void subarray_loop(double *u) {
// CHECK: {{^}}  tempi_Send(u, 1, face, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void indexed_from_index(int *buf) {
// CHECK: {{^}}  tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void struct_types(char *buf) {
// CHECK: {{^}}  tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void runtime_bound(double *u, int n) {
// CHECK: {{^}}  MPI_Send(u, 1, face, 1, 0, MPI_COMM_WORLD);
// CHECK-LABEL: void other_statement(double *u) {
// CHECK: {{^}}  MPI_Send(u, 1, face, 1, 0, MPI_COMM_WORLD);
// CHECK-LABEL: void recurrence(int *buf) {
// CHECK: {{^}}  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
// CHECK-LABEL: void partly_filled(double *u) {
// CHECK: {{^}}  MPI_Send(u, 1, face, 1, 0, MPI_COMM_WORLD);
// CHECK-LABEL: void loop_variable_read_before(double *buf) {
// CHECK: {{^}}  tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'face' holds subarray(3, [18, 18, 18], [1, 16, 16], [1, 1, 1], C, MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 't' holds indexed(4, [2, 2, 2, 2], [0, 10, 20, 30], MPI_INT)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 't' holds struct(2, [1, 1], [0, 16], [MPI_DOUBLE, MPI_DOUBLE])
// REMARK: remark: datatype 'face' of MPI_Send is left to the runtime: array_of_subsizes[0] depends on 'subsizes[0]', which is written through a non-constant index
// REMARK: remark: datatype 'face' of MPI_Send is left to the runtime: array_of_subsizes[0] depends on 'subsizes[0]', which is written through a non-constant index
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: array_of_displacements[0] depends on 'displs[0]', which is written through a non-constant index
// REMARK: remark: datatype 'face' of MPI_Send is left to the runtime: array_of_subsizes[2] depends on 'subsizes[2]', which is not defined before this use
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 't' holds vector(6, 6, 12, MPI_DOUBLE)
