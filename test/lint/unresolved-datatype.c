// A datatype argument the compiler cannot resolve, with the front end's reason; resolved ones
// (a predefined type, a local chain) are not reported.
// RUN: tempi-lint %s -- -I%mock_mpi -Xclang -verify=tempi
#include <mpi.h>

void send_param(double *buf, MPI_Datatype t) { // tempi-note {{the reason is here}}
  MPI_Send(buf, 1, t, 0, 0, MPI_COMM_WORLD); // tempi-warning-re {{datatype 't' of MPI_Send cannot be resolved at compile time: {{.*}}parameter{{.*}} [tempi-unresolved-datatype]}}
}

void send_local(double *buf) {
  MPI_Datatype v;
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &v);
  MPI_Type_commit(&v);
  MPI_Send(buf, 1, v, 0, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 4, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
}

// MPI_Alltoallw: a datatype array whose every element is proven is not reported; one filled by a
// loop of run-time length is, with the first unproven element.
void alltoallw(double *a, double *b, const int *counts, const int *displs, int n) {
  MPI_Datatype proven[2], looped[2];
  int i;
  MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &proven[0]);
  proven[1] = MPI_DOUBLE;
  MPI_Alltoallw(a, counts, displs, proven, b, counts, displs, proven, MPI_COMM_WORLD);
  for (i = 0; i < n; ++i)
    MPI_Type_vector(4, 3, 8, MPI_DOUBLE, &looped[i]); // tempi-note {{the reason is here}}
  MPI_Alltoallw(a, counts, displs, proven, b, counts, displs, looped, MPI_COMM_WORLD); // tempi-warning {{datatype 'looped' of MPI_Alltoallw cannot be resolved at compile time: 'looped[0]' is written through a non-constant index on line 27 [tempi-unresolved-datatype]}}
}

// A helper that builds a type from its constant arguments is followed; with an argument that is
// not a constant, the reason names the helper's variable and the caller's argument.
static MPI_Datatype make_column(int n) {
  MPI_Datatype t;
  MPI_Type_vector(n, 1, 8, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

void send_helper(double *buf, int n) { // tempi-note {{the reason is here}}
  MPI_Datatype c = make_column(4), d = make_column(n);
  MPI_Send(buf, 1, c, 0, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, d, 0, 0, MPI_COMM_WORLD); // tempi-warning {{datatype 'd' of MPI_Send cannot be resolved at compile time: 't' in 'make_column': count depends on 'n', a parameter of 'make_column' whose argument depends on 'n', a parameter of 'send_helper', which another file may call (it is not static) [tempi-unresolved-datatype]}}
}
