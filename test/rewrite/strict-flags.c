/* The plans the rewriter inserts compile under any warning flags the user's code compiles
 * under: C89/ANSI with -pedantic-errors and -Wlong-long (no `ULL`/`LL` literal: UINT64_C and
 * INT64_C), and C++11 with -Wzero-as-null-pointer-constant (runtime_slot
 * and null plan-array entries are `nullptr`). This file is itself C89 (no // comments, no
 * declarations after statements) and C++. The extent over 2^31 exercises INT64_C.
 * RUN: cp %s %t.c
 * RUN: tempi-rewrite %t.c -- -std=c89 -I%mpi_include > %t.out.c
 * RUN: FileCheck --input-file=%t.out.c %s
 * RUN: %mpicc -std=c89 -pedantic-errors -Wall -Wextra -Werror -I%tempi_include -c %t.out.c -o /dev/null
 * RUN: %mpicc -ansi -pedantic-errors -Wlong-long -Werror -I%tempi_include -c %t.out.c -o /dev/null
 * RUN: %clang -std=c89 -pedantic-errors -Wlong-long -Werror -I%mpi_include -I%tempi_include -fsyntax-only %t.out.c
 * RUN: cp %s %t.cpp
 * RUN: tempi-rewrite %t.cpp -- -std=c++11 -I%mpi_include > %t.out.cpp
 * RUN: FileCheck --check-prefix=CXX --input-file=%t.out.cpp %s
 * RUN: %mpicxx -std=c++11 -Wall -Wextra -Wzero-as-null-pointer-constant -Werror -I%tempi_include -c %t.out.cpp -o /dev/null
 */
#include <mpi.h>

static double buf[1024];

int main(int argc, char **argv) {
  MPI_Datatype t, far, types[2];
  int counts[2] = {1, 1}, displs[2] = {0, 0};
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Type_create_hvector(2, 1, 4294967296L, MPI_DOUBLE, &far);
  MPI_Type_commit(&far);
  types[0] = t;
  types[1] = MPI_DOUBLE;
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, far, 1, 0, MPI_COMM_WORLD);
  MPI_Alltoallw(buf, counts, displs, types, buf, counts, displs, types, MPI_COMM_WORLD);
  MPI_Type_free(&far);
  MPI_Type_free(&t);
  MPI_Finalize();
  return 0;
}
/* CHECK: static tempi_static_plan tempi_gen_plan_{{[0-9a-f]+}} = {1, UINT64_C(0x{{[0-9a-f]+}}),
 * CHECK-SAME: "strided({{.*}})", 0};
 * CHECK: {{INT64_C\(4294967296\)}}
 * CHECK: static const tempi_static_plan *const tempi_gen_plans_0[2] = {&tempi_gen_plan_{{[0-9a-f]+}}, 0};
 * CHECK-NOT: {{[0-9]U?LL\b}}
 * CXX: static tempi_static_plan tempi_gen_plan_{{[0-9a-f]+}} = {1, UINT64_C(0x{{[0-9a-f]+}}),
 * CXX-SAME: "strided({{.*}})", nullptr};
 * CXX: static const tempi_static_plan *const tempi_gen_plans_0[2] = {&tempi_gen_plan_{{[0-9a-f]+}}, nullptr};
 */
