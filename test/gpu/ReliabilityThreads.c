/* ReliabilityThreads: test/e2e/reliability_threads.c on a real GPU: 4 threads per rank under
 * MPI_THREAD_MULTIPLE sending host and cudaMalloc buffers through libtempi, every message checked
 * against the MPI's own MPI_Pack/MPI_Unpack on host memory. Exit 77 without a GPU.
 *   mpiexec -n 2 tempi-gpu-reliability-threads [ITERS]
 */
#define REL_CUDA 1
#include "../e2e/reliability_threads.c"
