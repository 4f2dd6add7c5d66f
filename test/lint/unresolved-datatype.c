// A datatype argument the compiler cannot resolve, with the front end's reason; resolved ones
// (a predefined type, a local chain) are not reported.
// RUN: tempi-lint %s -- -I%mock_mpi -Xclang -verify=tempi
#include <mpi.h>

void send_param(double *buf, MPI_Datatype t) {
  MPI_Send(buf, 1, t, 0, 0, MPI_COMM_WORLD); // tempi-warning-re {{datatype 't' of MPI_Send cannot be resolved at compile time: {{.*}}parameter{{.*}} [tempi-unresolved-datatype]}}
}

void send_local(double *buf) {
  MPI_Datatype v;
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &v);
  MPI_Type_commit(&v);
  MPI_Send(buf, 1, v, 0, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 4, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
}
