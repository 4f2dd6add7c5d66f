// The C++ part of a mixed project: main, so CMake links with the C++ compiler.
#include <mpi.h>
#include <cstdio>

extern "C" int world_rank(void);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  std::printf("mixed rank %d\n", world_rank());
  MPI_Finalize();
  return 0;
}
