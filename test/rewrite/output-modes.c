// stdout by default (input untouched), -o FILE, and -i in place; a file with nothing to rewrite
// is printed unchanged and -i leaves it alone.
// RUN: cp %s %t.c
// RUN: cp %s %t.orig.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.stdout.c
// RUN: cmp %t.c %t.orig.c
// RUN: tempi-rewrite %t.c -o %t.o.c -- -I%mock_mpi
// RUN: cmp %t.stdout.c %t.o.c
// RUN: tempi-rewrite -i %t.c -- -I%mock_mpi
// RUN: cmp %t.stdout.c %t.c
// RUN: grep -c "^  tempi_Send(" %t.c | FileCheck --check-prefix=ONE %s
// RUN: printf '#include <mpi.h>\nint main(void) { return 0; }\n' > %t.none.c
// RUN: tempi-rewrite %t.none.c -- -I%mock_mpi > %t.none.out.c
// RUN: cmp %t.none.c %t.none.out.c
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// ONE: 1
