/* An OpenMP program that includes <omp.h> (test/driver/openmp-header.test). */
#include <mpi.h>
#include <omp.h>
double buf[4096];
int main(int argc, char **argv) {
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  if (omp_get_max_threads() > 0)
    MPI_Sendrecv_replace(buf, 1, t, 0, 0, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&t);
  MPI_Finalize();
  return 0;
}
