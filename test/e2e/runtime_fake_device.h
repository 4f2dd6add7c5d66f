/* runtime_fake_device.h: the test-only device layer's C API (runtime_fake_device.cpp).
 *
 * "Device" memory is host memory that is PROT_NONE except while the fake device layer itself
 * (pack, unpack, copies) or these helpers touch it: if libtempi ever handed a device pointer to
 * the MPI, the MPI would fault and the test would fail. Pinned host memory is ordinary memory that
 * the layer classifies as pinned. Set TEMPI_FAKE_FAIL=pack|copy|alloc to make that operation
 * fail (TEMPI_ERR_CUDA / nullptr), for the error-path tests.
 */
#ifndef TEMPI_RUNTIME_FAKE_DEVICE_H
#define TEMPI_RUNTIME_FAKE_DEVICE_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
void *fake_device_alloc(size_t bytes);         /* user "device" memory (like cudaMalloc) */
void fake_device_free(void *p);
void fake_device_memcpy(void *dst, const void *src, size_t bytes); /* any direction */
int fake_device_is_device(const void *p);
/* Allocations libtempi made through the device layer and has not released (device + pinned). */
long fake_device_runtime_outstanding(void);
/* How many pack/unpack kernels and block-list kernels ran (to prove the kernel paths ran). */
long fake_device_kernel_launches(void);
/* How many copies the layer made (a batched call counts each of its copies). -1 on a real GPU. */
long fake_device_copies(void);
/* IPC: slabs this process made, and peer slabs it has mapped now. */
long fake_device_ipc_slabs(void);
long fake_device_ipc_mapped(void);
/* Picks the GPU as programs do after MPI_Init (rank % GPUs); nothing on the fake device. */
void fake_device_select(int rank);
#ifdef __cplusplus
}
#endif
#endif
