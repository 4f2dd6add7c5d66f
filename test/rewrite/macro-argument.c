// A call inside a macro argument (MPI_CHECK(...)) is rewritten where it is spelled.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

#define MPI_CHECK(call) do { if ((call) != MPI_SUCCESS) return 1; } while (0)

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  MPI_CHECK(MPI_Type_commit(&t));
  MPI_CHECK(MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD));
  MPI_CHECK(MPI_Recv(buf, 1, t, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  MPI_CHECK(tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &[[P:tempi_gen_plan_[0-9a-f]+]]));
// CHECK-NEXT: {{^}}  MPI_CHECK(tempi_Recv(buf, 1, t, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &[[P]]));
// REMARK: remark: rewritten: MPI_Send -> tempi_Send
// REMARK: remark: rewritten: MPI_Recv -> tempi_Recv
