// An escape (address taken, passed by reference, ...) from which no path leads to a use cannot
// change the value at that use: the pointer it makes does not exist yet there. So freeing the
// faces through pointers after the exchange (a range-for over their addresses, a helper taking
// MPI_Datatype*) leaves the exchange's calls proven. An escape before the use, or inside a loop
// that also holds the use (the next iteration sees the pointer), still refuses, with its line.
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -std=c++17 -I%mock_mpi > %t.out.cpp
// RUN: grep -v "^// [A-Z]" %t.out.cpp | FileCheck %s
// RUN: %clang -x c++ -std=c++17 -fsyntax-only -Wall -I%mock_mpi -I%tempi_include %t.out.cpp
// RUN: tempi-rewrite --explain %t.cpp -- -std=c++17 -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

#include <initializer_list>

double buf[4096];
void touch(MPI_Datatype *t);

void freed_through_pointers_after(void) {
  MPI_Datatype zface, yface;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &zface);
  MPI_Type_vector(8, 1, 16, MPI_DOUBLE, &yface);
  MPI_Type_commit(&zface);
  MPI_Type_commit(&yface);
  MPI_Send(buf, 1, zface, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, yface, 1, 1, MPI_COMM_WORLD);
  for (MPI_Datatype *t : {&zface, &yface})
    MPI_Type_free(t);
}
// CHECK-LABEL: void freed_through_pointers_after(void) {
// CHECK: {{^}}  tempi_Send(buf, 1, zface, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  tempi_Send(buf, 1, yface, 1, 1, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});

void passed_to_a_helper_after(void) {
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 2, MPI_COMM_WORLD);
  touch(&t);
}
// CHECK-LABEL: void passed_to_a_helper_after(void) {
// CHECK: {{^}}  tempi_Send(buf, 1, t, 1, 2, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});

void passed_to_a_helper_before(void) {
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  touch(&t);
  MPI_Send(buf, 1, t, 1, 3, MPI_COMM_WORLD);
}
// CHECK-LABEL: void passed_to_a_helper_before(void) {
// CHECK: {{^}}  MPI_Send(buf, 1, t, 1, 3, MPI_COMM_WORLD);
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: 't' has its address passed to 'touch' on line [[@LINE-5]]

void escape_later_in_the_same_loop(void) {
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Datatype *alias = nullptr;
  for (int i = 0; i < 2; ++i) {
    MPI_Send(buf, 1, t, 1, 4, MPI_COMM_WORLD);
    alias = &t;
    touch(alias);
  }
}
// CHECK-LABEL: void escape_later_in_the_same_loop(void) {
// CHECK: {{^}}    MPI_Send(buf, 1, t, 1, 4, MPI_COMM_WORLD);
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: 't' has its address taken on line [[@LINE-6]]

void captured_after(void) {
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 5, MPI_COMM_WORLD);
  auto later = [&] { MPI_Type_free(&t); };
  later();
}
// A lambda's capture has no place the tool follows: still refused.
// CHECK-LABEL: void captured_after(void) {
// CHECK: {{^}}  MPI_Send(buf, 1, t, 1, 5, MPI_COMM_WORLD);
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: 't' is captured by a lambda or block
