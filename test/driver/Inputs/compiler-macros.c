/* A row padded by what the compiler says it is: gcc 12 defines __GNUC__ as 12, the tool's
 * Clang as 4, so the tool's row would be 12 doubles and the compiled program's 16. With
 * --compiler-macros (tempi-cc passes gcc's listing) the tool sees the difference and leaves the
 * file unchanged; a SIMD width chosen by __AVX2__ agrees once -mavx2 reaches the tool. */
#include <mpi.h>
#if __GNUC__ >= 5
#define ROW 16
#else
#define ROW 12
#endif
double grid[8][ROW];
int send_column(int peer) {
  MPI_Datatype col;
  MPI_Type_vector(8, 1, ROW, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  return MPI_Send(&grid[0][0], 1, col, peer, 0, MPI_COMM_WORLD);
}
