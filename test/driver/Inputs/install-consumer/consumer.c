/* A program built against an installed TEMPI (test/driver/install.test): it packs every other int
 * of 8 through tempi_Pack with no static plan (the runtime's path) and prints the packed ints, which
 * the test compares with what MPI_Pack's definition gives: 0 2 4 6. */
#include <mpi.h>
#include <stdio.h>
#include <tempi/tempi.h>

int main(int argc, char **argv) {
  int in[8] = {0, 1, 2, 3, 4, 5, 6, 7}, out[4] = {-1, -1, -1, -1}, position = 0;
  MPI_Datatype every_other;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  int rc = tempi_Pack(in, 1, every_other, out, (int)sizeof out, &position, MPI_COMM_WORLD,
                      (const tempi_static_plan *)0);
  printf("rc %d %s position %d packed %d %d %d %d\n", rc, tempi_result_string(TEMPI_SUCCESS),
         position, out[0], out[1], out[2], out[3]);
  MPI_Type_free(&every_other);
  MPI_Finalize();
  return rc == MPI_SUCCESS ? 0 : 1;
}
