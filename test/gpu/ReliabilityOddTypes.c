/* ReliabilityOddTypes: test/e2e/reliability_odd_types.c on a real GPU. Its "device" buffers are CUDA memory
 * of the kind REL_MEMORY names (device, managed or pinned; REL_MISALIGN=k offsets each by k bytes,
 * reliability_common.h), and its transcript must equal the plain MPI's on host memory
 * (run_compare.sh with reliability_odd_types-plain, test/gpu/reliability.cmake).
 *   mpiexec -n 2 tempi-gpu-reliability-odd-types OUTPUT-DIR
 */
#define REL_CUDA 1
#include "../e2e/reliability_odd_types.c"
