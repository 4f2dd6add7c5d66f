/* Built with the installed tempi-cc (test/driver/install.test): MPI_Pack of a contiguous type,
 * which tempi-rewrite turns into tempi_Pack with a static plan. Contiguous shapes need no generated
 * kernel, so this end-to-end check of the installed driver runs without nvcc. The packed ints are
 * printed and compared with the output of the same source built by mpicc. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int in[6] = {10, 11, 12, 13, 14, 15}, out[6] = {0}, position = 0;
  MPI_Datatype row;
  MPI_Init(&argc, &argv);
  MPI_Type_contiguous(3, MPI_INT, &row);
  MPI_Type_commit(&row);
  MPI_Pack(in, 2, row, out, (int)sizeof out, &position, MPI_COMM_WORLD);
  printf("position %d packed", position);
  for (int i = 0; i < 6; ++i)
    printf(" %d", out[i]);
  printf("\n");
  MPI_Type_free(&row);
  MPI_Finalize();
  return 0;
}
