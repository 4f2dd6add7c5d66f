// C++: a send inside an MPI_CHECK macro that prints and calls MPI_Abort on failure is deferred
// (the macro prints __LINE__, not #call: a stringified call is not rewritten at all, see
// reason-macro-stringified.c).
// One that throws on failure is not (the exception leaves the function before any flush), nor is
// one followed by the destructor of an object whose destructor the tool cannot see.
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -std=c++17 -I%mock_mpi -I%S/Inputs > %t.out.cpp
// RUN: grep -v "^// [A-Z]" %t.out.cpp | FileCheck %s
// RUN: %clang -fsyntax-only -std=c++17 -Wno-deprecated-declarations -I%mock_mpi -I%S/Inputs -I%tempi_include %t.out.cpp
// RUN: tempi-rewrite --explain %t.cpp -- -std=c++17 -I%mock_mpi -I%S/Inputs 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#include <mpi-more.h>
#include <cstdio>

#define MPI_CHECK(call)                                                                            \
  do {                                                                                             \
    int rc_ = (call);                                                                              \
    if (rc_ != MPI_SUCCESS) {                                                                      \
      std::fprintf(stderr, "line %d failed: %d\n", __LINE__, rc_);                                \
      MPI_Abort(MPI_COMM_WORLD, rc_);                                                              \
    }                                                                                              \
  } while (0)

struct mpi_error {
  int code;
};
#define MPI_THROW(call)                                                                            \
  do {                                                                                             \
    if (int rc_ = (call))                                                                          \
      throw mpi_error{rc_};                                                                        \
  } while (0)

struct Timer {
  Timer();
  ~Timer();
};

double buf[4096];

void checked() {
  MPI_Request req;
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_CHECK(MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req));
// REMARK: .cpp:[[@LINE-1]]:13: remark: the send is deferred: the next call TEMPI intercepts is MPI_Waitall on line [[@LINE+1]]
  MPI_CHECK(MPI_Waitall(1, &req, MPI_STATUSES_IGNORE));
  MPI_Type_free(&t);
}

void throwing() {
  MPI_Request req;
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_THROW(MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req));
// REMARK: .cpp:[[@LINE-1]]:13: remark: the send is not deferred: an exception may be thrown on line [[@LINE-1]] before any MPI call TEMPI intercepts
  MPI_THROW(MPI_Waitall(1, &req, MPI_STATUSES_IGNORE));
  MPI_Type_free(&t);
}

void scoped() {
  MPI_Request req;
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  {
    Timer timer;
    MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req);
// REMARK: .cpp:[[@LINE-1]]:5: remark: the send is not deferred: '~Timer' is called on line [[@LINE+1]] before any MPI call TEMPI intercepts
  }
  MPI_Waitall(1, &req, MPI_STATUSES_IGNORE);
  MPI_Type_free(&t);
}
// CHECK-LABEL: void checked() {
// CHECK: {{^}}  MPI_CHECK(tempi_Isend_deferred(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}}));
// CHECK-LABEL: void throwing() {
// CHECK: {{^}}  MPI_THROW(tempi_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}}));
// CHECK-LABEL: void scoped() {
// CHECK: {{^}}    tempi_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});
