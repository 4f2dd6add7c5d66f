// Sends inside an OpenMP region may run on other threads, and the runtime flushes each thread's
// deferred sends at that thread's next call into TEMPI: a flush after the region (the master's
// MPI_Waitall) would not start them. The proof does not follow threads, so with -fopenmp a send
// in a region stays tempi_Isend (even when, as here, the same thread's MPI_Wait follows: a
// conservative refusal); without -fopenmp the pragma is ignored and the send is deferred.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -fopenmp -I%mock_mpi -I%S/Inputs > %t.omp.c
// RUN: grep -v "^// [A-Z]" %t.omp.c | FileCheck --check-prefix=OMP %s
// RUN: tempi-rewrite --explain %t.c -- -fopenmp -I%mock_mpi -I%S/Inputs 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=OMP-REMARK --input-file=%t.err %s
// RUN: tempi-rewrite %t.c -- -I%mock_mpi -I%S/Inputs > %t.serial.c
// RUN: grep -v "^// [A-Z]" %t.serial.c | FileCheck --check-prefix=SERIAL %s
// RUN: %clang -fsyntax-only -fopenmp -Wno-deprecated-declarations -I%mock_mpi -I%S/Inputs -I%tempi_include %t.omp.c
#include <mpi.h>
#include <mpi-more.h>

double buf[4096];

void threaded(void) {
#pragma omp parallel
  {
    MPI_Request req;
    MPI_Datatype t;
    MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req);
// OMP-REMARK: .c:[[@LINE-1]]:5: remark: the send is not deferred: it is inside an OpenMP region on line [[@LINE-6]], where another thread may run it
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Type_free(&t);
  }
}
// OMP: {{^}}    tempi_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});
// SERIAL: {{^}}    tempi_Isend_deferred(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});
