// C++ builders that write a datatype into an `MPI_Datatype &` parameter are followed like the C
// ones that take an `MPI_Datatype *` (helper-outputs.c): the reference may only be handed, as
// `&face`, to exactly one constructor (run once per call) as its output and to MPI_Type_commit.
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -I%mock_mpi > %t.out.cpp
// RUN: grep -v "^// [A-Z]" %t.out.cpp | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.cpp
// RUN: tempi-rewrite --explain %t.cpp -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

constexpr int N = 16;

static void make_face(MPI_Datatype &face, int dim) {
  int sizes[3] = {N + 2, N + 2, N + 2}, sub[3] = {N, N, N}, starts[3] = {1, 1, 1};
  sub[dim] = 1;
  MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, &face);
  MPI_Type_commit(&face);
}

static void copies(MPI_Datatype &t) {
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  t = MPI_DOUBLE;
}

static void in_branch(MPI_Datatype &t, int flag) {
  if (flag)
    MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
}

void exchange(double *a, int peer) {
  MPI_Datatype x, y, c, b;
  make_face(x, 0);
  make_face(y, 1);
  MPI_Send(a, 1, x, peer, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(a, 1, x, peer, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'x' holds subarray(3, [18, 18, 18], [1, 16, 16], [1, 1, 1]
  MPI_Send(a, 1, y, peer, 1, MPI_COMM_WORLD);
  // CHECK: tempi_Send(a, 1, y, peer, 1, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'y' holds subarray(3, [18, 18, 18], [16, 1, 16], [1, 1, 1]
  copies(c);
  MPI_Send(a, 1, c, peer, 2, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(a, 1, c, peer, 2, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'c' of MPI_Send is left to the runtime: 'c' is set by 'copies', which uses 't' on line 23 (an output parameter may only be a constructor's output and committed)
  in_branch(b, peer);
  MPI_Send(a, 1, b, peer, 3, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(a, 1, b, peer, 3, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'b' of MPI_Send is left to the runtime: 'b' is set by 'in_branch', whose constructor on line 28 does not run exactly once in every call
}

// The reference form in a loop evaluated iteration by iteration (loop-iterations.c).
void all_faces(double *a, int peer) {
  MPI_Datatype face[3];
  for (int d = 0; d < 3; ++d) {
    make_face(face[d], d);
    MPI_Type_commit(&face[d]);
  }
  MPI_Send(a, 1, face[2], peer, 4, MPI_COMM_WORLD);
  // CHECK: tempi_Send(a, 1, face[2], peer, 4, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'face[2]' holds subarray(3, [18, 18, 18], [16, 16, 1], [1, 1, 1]
}
