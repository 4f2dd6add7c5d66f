/* Rows padded to the SIMD width the target flags select: -mavx2 (or -march=...) must reach the
 * tool, or its plan strides 10 doubles where the compiled program strides 12. */
#include <mpi.h>
#if defined(__AVX2__)
#define LD 12
#else
#define LD 10
#endif
double grid[8][LD];
int send_column(int peer) {
  MPI_Datatype col;
  MPI_Type_vector(8, 1, LD, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  return MPI_Send(&grid[0][0], 1, col, peer, 0, MPI_COMM_WORLD);
}
