// In C++ the generated code must compile under the warning flags the user's code compiles
// under, also with the MPI's headers taken as system headers (-isystem, as CMake's imported
// MPI targets do), where the MPI's own macros raise no warning: a datatype argument without a
// plan (the predefined receive type of a Sendrecv) is `nullptr` in C++11 and later and a
// static_cast in C++98, never a C-style cast (-Wold-style-cast) or a bare 0
// (-Wzero-as-null-pointer-constant); the same holds for runtime_slot and null plan-array entries.
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -std=c++17 -I%mpi_include > %t.out17.cpp
// RUN: FileCheck --check-prefix=CXX11 --input-file=%t.out17.cpp %s
// RUN: %mpicxx -std=c++17 -isystem %mpi_include -Wall -Wextra -Wold-style-cast -Wzero-as-null-pointer-constant -Wuseless-cast -Werror -I%tempi_include -c %t.out17.cpp -o /dev/null
// RUN: tempi-rewrite %t.cpp -- -std=c++98 -I%mpi_include > %t.out98.cpp
// RUN: FileCheck --check-prefix=CXX98 --input-file=%t.out98.cpp %s
// RUN: %mpicxx -std=c++98 -isystem %mpi_include -Wall -Wextra -Wold-style-cast -Wzero-as-null-pointer-constant -Wuseless-cast -Werror -I%tempi_include -c %t.out98.cpp -o /dev/null
#include <mpi.h>

static double buf[1024];

int main(int argc, char **argv) {
  MPI_Datatype t, types[2];
  int counts[2] = {1, 1}, displs[2] = {0, 0};
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  types[0] = t;
  types[1] = MPI_DOUBLE;
  MPI_Sendrecv(buf, 1, t, 1, 0, buf + 512, 4, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Alltoallw(buf, counts, displs, types, buf, counts, displs, types, MPI_COMM_WORLD);
  MPI_Type_free(&t);
  MPI_Finalize();
  return 0;
}
// CXX11: static tempi_static_plan tempi_gen_plan_{{[0-9a-f]+}} = {{.*}}, nullptr};
// CXX11: static const tempi_static_plan *const tempi_gen_plans_0[2] = {&tempi_gen_plan_{{[0-9a-f]+}}, nullptr};
// CXX11: tempi_Sendrecv(buf, 1, t, 1, 0, buf + 512, 4, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &tempi_gen_plan_{{[0-9a-f]+}}, nullptr);
// CXX98: static tempi_static_plan tempi_gen_plan_{{[0-9a-f]+}} = {{.*}}, static_cast<void *>(0)};
// CXX98: static const tempi_static_plan *const tempi_gen_plans_0[2] = {&tempi_gen_plan_{{[0-9a-f]+}}, static_cast<const tempi_static_plan *>(0)};
// CXX98: tempi_Sendrecv(buf, 1, t, 1, 0, buf + 512, 4, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &tempi_gen_plan_{{[0-9a-f]+}}, static_cast<const tempi_static_plan *>(0));
