/// \file
/// runtime_overhead: the per-call host overhead of libtempi's decision for one buffer argument:
/// is it device memory (device::isDevice, by the first byte the type touches), its plan
/// (type-cache lookup), and the method (the model). The budget is 0.3 us per call. Also the
/// host-buffer path (classification only). Prints ns per call; exits 1 over budget.
///
///   mpiexec -n 1 runtime_overhead [iterations]
#include "Model.h"
#include "Runtime.h"
#include "Transfer.h"

#include <cuda_runtime.h>
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace tempi;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const long n = argc > 1 ? atol(argv[1]) : 1000000;
  MPI_Datatype vec;
  MPI_Type_vector(64, 8, 512, MPI_DOUBLE, &vec);
  MPI_Type_commit(&vec);
  void *dev = nullptr;
  cudaMalloc(&dev, 64 * 512 * 8);
  static double host[64 * 512];
  if (!runtime::active()) {
    printf("runtime_overhead: no GPU usable: skipped\n");
    MPI_Finalize();
    return 77;
  }
  long sink = 0;
  auto time = [&](const void *buf, bool full) {
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < n; ++i) {
      bool d = deviceData(buf, 1, vec);
      sink += d;
      if (full) {
        TypePlanPtr p = planFor(vec, nullptr);
        sink += int(chooseMethod(Direction::Send, p->size, runtime::params(),
                                 runtime::mpiCudaAware(), Method::Auto));
      }
    }
    auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::nano>(t1 - t0).count() / double(n);
  };
  time(dev, true); // warm the caches
  const double devNs = time(dev, true), hostNs = time(host, false);
  printf("runtime_overhead: device buffer (classify + plan lookup + method) %.1f ns/call; host "
         "buffer (classify) %.1f ns/call; budget 300 ns (%ld)\n",
         devNs, hostNs, sink % 2);
  cudaFree(dev);
  MPI_Type_free(&vec);
  MPI_Finalize();
  return devNs <= 300 && hostNs <= 300 ? 0 : 1;
}
