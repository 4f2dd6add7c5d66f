// Bad command lines exit with code 2 and say what is wrong; nothing is written.
// RUN: cp %s %t.c
// RUN: cp %s %t2.c
// RUN: %python %S/Inputs/expect-exit.py 2 tempi-rewrite %t.c %t2.c -o %t.out.c -- -I%mock_mpi 2> %t.err
// RUN: FileCheck --check-prefix=TWO --input-file=%t.err %s
// RUN: %python %S/Inputs/expect-exit.py 2 tempi-rewrite --no-such-flag %t.c -- -I%mock_mpi 2> %t.err
// RUN: FileCheck --check-prefix=FLAG --input-file=%t.err %s
// RUN: %python %S/Inputs/expect-exit.py 2 tempi-rewrite %t.missing.c -- -I%mock_mpi 2> %t.err
// RUN: FileCheck --check-prefix=MISSING --input-file=%t.err %s
// RUN: %python %S/Inputs/expect-exit.py 2 tempi-rewrite %t.c -i -o %t.out.c -- -I%mock_mpi 2> %t.err
// RUN: not test -e %t.out.c
#include <mpi.h>
int main(void) { return 0; }
// TWO: error: -o needs exactly one input file
// FLAG: no-such-flag
// MISSING: error: no such file
