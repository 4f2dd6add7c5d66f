// C++: a datatype array element read by a loop index (faces[d]) takes its plan by the same index
// also when another argument reads a standard container: v.data(), v.size(), reqs[d] on a
// std::array or std::vector change nothing the index reads. A call to anything else (a user
// function, std::map's operator[], which inserts) still refuses it, with the reason.
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -std=c++17 -I%mock_mpi > %t.out.cpp
// RUN: grep -v "^// [A-Z]" %t.out.cpp | FileCheck %s
// RUN: %clang -x c++ -std=c++17 -fsyntax-only -Wall -I%mock_mpi -I%tempi_include %t.out.cpp
// RUN: tempi-rewrite --explain %t.cpp -- -std=c++17 -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

#include <array>
#include <map>
#include <vector>

int tag(int d);

void exchange(std::vector<double> &a, int peer) {
  MPI_Datatype faces[2];
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &faces[0]);
  MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &faces[1]);
  std::array<MPI_Request, 2> reqs;
  std::vector<int> counts(2, 1);
  std::map<int, int> tags;
  for (int d = 0; d < 2; ++d)
    MPI_Send(a.data(), counts[d], faces[d], peer, d, MPI_COMM_WORLD);
  for (int d = 0; d < 2; ++d)
    MPI_Isend(a.data(), 1, faces[d], peer, d, MPI_COMM_WORLD, &reqs[d]);
  MPI_Waitall(2, reqs.data(), MPI_STATUSES_IGNORE);
  for (int d = 0; d < 2; ++d)
    MPI_Send(a.data(), 1, faces[d], peer, tag(d), MPI_COMM_WORLD);
  for (int d = 0; d < 2; ++d)
    MPI_Send(a.data(), 1, faces[d], peer, tags[d], MPI_COMM_WORLD);
}
// CHECK: {{^}}    tempi_Send(a.data(), counts[d], faces[d], peer, d, MPI_COMM_WORLD, [[P:tempi_gen_plans_[0-9]+]][d]);
// CHECK: {{^}}    tempi_Isend{{(_deferred)?}}(a.data(), 1, faces[d], peer, d, MPI_COMM_WORLD, &reqs[d], [[P]][d]);
// CHECK: {{^}}    MPI_Send(a.data(), 1, faces[d], peer, tag(d), MPI_COMM_WORLD);
// CHECK: {{^}}    MPI_Send(a.data(), 1, faces[d], peer, tags[d], MPI_COMM_WORLD);
// REMARK: datatype 'faces[d]' of MPI_Send is left to the runtime: the index into 'faces' {{.*}}; its plan cannot be chosen by the index either: an argument of the call has side effects
// REMARK: datatype 'faces[d]' of MPI_Send is left to the runtime: the index into 'faces' {{.*}}; its plan cannot be chosen by the index either: an argument of the call has side effects
