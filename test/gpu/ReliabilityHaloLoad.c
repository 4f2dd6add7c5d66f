/* ReliabilityHaloLoad: test/e2e/reliability_halo_load.c on a real GPU (cudaMalloc buffers,
 * libtempi with its CUDA device layer): a long 26-neighbour Isend/Irecv exchange through
 * libtempi, every cell checked, host RSS and GPU memory flat after warm-up. Exit 77 without a GPU.
 *   mpiexec -n 8 tempi-gpu-reliability-halo-load [ITERS [NX [SLACK_KIB]]] [--verbose]
 */
#define REL_CUDA 1
#include "../e2e/reliability_halo_load.c"
