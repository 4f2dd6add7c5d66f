// A global MPI_Datatype of external linkage is reported as unresolved, since another file may
// write it; with --whole-program (what tempi-cc assumes when one command compiles and links one
// source) it is proven like a static one, and so are parameters of functions that are not static.
// RUN: tempi-lint %s -- -I%mock_mpi -Xclang -verify=tempi
// RUN: tempi-lint --whole-program %s -- -I%mock_mpi -Xclang -verify=whole
// whole-no-diagnostics
#include <mpi.h>

MPI_Datatype g_column; // tempi-note {{the reason is here}}

void setup(void) {
  MPI_Type_vector(8, 1, 16, MPI_DOUBLE, &g_column);
  MPI_Type_commit(&g_column);
}

void send_column(double *u, int tag) {
  MPI_Send(u, 1, g_column, 1, tag, MPI_COMM_WORLD); // tempi-warning-re {{datatype 'g_column' of MPI_Send cannot be resolved at compile time: 'g_column' is a global variable that another file may write {{.*}} [tempi-unresolved-datatype]}}
}

void send_rows(double *u, int n) { // tempi-note {{the reason is here}}
  MPI_Datatype rows;
  MPI_Type_contiguous(n, MPI_DOUBLE, &rows);
  MPI_Type_commit(&rows);
  MPI_Send(u, 1, rows, 1, 0, MPI_COMM_WORLD); // tempi-warning-re {{datatype 'rows' of MPI_Send cannot be resolved at compile time: count depends on 'n', a parameter of 'send_rows', which another file may call {{.*}} [tempi-unresolved-datatype]}}
  MPI_Type_free(&rows);
}

int main(int argc, char **argv) {
  double u[256];
  MPI_Init(&argc, &argv);
  setup();
  send_column(u, 0);
  send_rows(u, 16);
  MPI_Finalize();
  return 0;
}
