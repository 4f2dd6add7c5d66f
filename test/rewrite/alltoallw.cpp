// C++: the plan arrays of MPI_Alltoallw are file-scope arrays (a C99 compound literal would not
// compile as C++); a call in a template is rewritten once when every instantiation proves the same
// elements; members and captured arrays are left to the runtime.
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -std=c++17 -I%mock_mpi > %t.out.cpp
// RUN: grep -v "^// [A-Z]" %t.out.cpp | FileCheck %s
// RUN: %clang -x c++ -std=c++17 -fsyntax-only -Wall -Werror -I%mock_mpi -I%tempi_include %t.out.cpp
// RUN: tempi-rewrite --explain %t.cpp -- -std=c++17 -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

double a[1024], b[1024];
int counts[2] = {1, 1};
int displs[2] = {0, 512};

template <int N> int exchange() {
  MPI_Datatype types[2];
  MPI_Type_vector(N, 1, 8, MPI_DOUBLE, &types[0]);
  types[1] = MPI_DOUBLE;
  return MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
}

template <typename T> int same() {
  MPI_Datatype types[2];
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &types[0]);
  MPI_Type_vector(4, 1, 16, MPI_DOUBLE, &types[1]);
  return MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
}

struct Halo {
  MPI_Datatype types[2];
  int exchange() {
    return MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
  }
};

int captured() {
  MPI_Datatype types[2];
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &types[0]);
  types[1] = types[0];
  auto go = [&]() {
    return MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
  };
  return go();
}

int main() {
  Halo h;
  return exchange<4>() + exchange<2>() + same<int>() + same<double>() + h.exchange() + captured();
}
// REMARK: .cpp:20:10: remark: MPI_Alltoallw is left unchanged: the call's datatypes differ between template instantiations
// REMARK: .cpp:27:10: remark: rewritten: MPI_Alltoallw -> tempi_Alltoallw: 'types' has plans tempi_gen_plans_0 {types[0]: vector(4, 1, 8, MPI_DOUBLE), {{.*}}; types[1]: vector(4, 1, 16, MPI_DOUBLE), {{.*}}}; 'types' has plans tempi_gen_plans_0 (the same array)
// REMARK: .cpp:33:45: remark: datatype 'types' of MPI_Alltoallw is left to the runtime: 'types' is a member of the class, read through 'this'; only the members of a struct variable are tracked
// REMARK: .cpp:42:45: remark: datatype 'types' of MPI_Alltoallw is left to the runtime: 'types' is captured from an enclosing function
// CHECK: {{^}}static const tempi_static_plan *const tempi_gen_plans_0[2] = {&tempi_gen_plan_{{[0-9a-f]+}}, &tempi_gen_plan_{{[0-9a-f]+}}};
// CHECK-NOT: tempi_gen_plans_1
// CHECK: {{^}}  return MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
// CHECK: {{^}}  return tempi_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD, tempi_gen_plans_0, tempi_gen_plans_0);
// CHECK: {{^}}    return MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
// CHECK: {{^}}    return MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
