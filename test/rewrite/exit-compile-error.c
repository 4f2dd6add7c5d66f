// A file that does not compile: the compiler's diagnostics, exit code 1, no output file written.
// RUN: cp %s %t.c
// RUN: rm -f %t.out.c
// RUN: %python %S/Inputs/expect-exit.py 1 tempi-rewrite %t.c -o %t.out.c -- -I%mock_mpi 2> %t.err
// RUN: FileCheck --input-file=%t.err %s
// RUN: not test -e %t.out.c
// RUN: cp %s %t.keep.c
// RUN: %python %S/Inputs/expect-exit.py 1 tempi-rewrite -i %t.c -- -I%mock_mpi
// RUN: cmp %t.c %t.keep.c
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Datatype t;
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  return undeclared_variable;
}
// CHECK: error: use of undeclared identifier 'undeclared_variable'
// CHECK: tempi-rewrite: error: not rewritten: a source did not compile
