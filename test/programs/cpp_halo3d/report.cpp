// Second translation unit of cpp_halo3d: result reporting, no datatypes.
#include "halo.hpp"
#include <cstdio>
#include <vector>

namespace halo {
int report(MPI_Comm comm, const char *what, long long checksum, int errors) {
  int rank, size, total = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<long long> all(rank == 0 ? size : 1);
  MPI_Gather(&checksum, 1, MPI_LONG_LONG, all.data(), 1, MPI_LONG_LONG, 0, comm);
  MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, comm);
  if (rank == 0) {
    std::printf("%s:", what);
    for (long long c : all) std::printf(" %lld", c);
    std::printf(" errors %d: %s\n", total, total ? "WRONG" : "ok");
  }
  return total;
}
} // namespace halo
