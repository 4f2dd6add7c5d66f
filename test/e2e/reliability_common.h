/* reliability_common.h: what the reliability_* end-to-end tests share.
 *
 * These programs are built twice (tempi_add_mpi_test COMPARE, test/e2e/reliability.cmake): with
 * libtempi over the fake device layer (runtime_fake_device.cpp), and plain (the MPI alone). Each
 * rank writes a transcript (<dir>/rank<r>.txt) of everything it observed: return codes as error
 * CLASSES (MPI_Error_class; the codes themselves may carry different messages), statuses
 * (source, tag, MPI_Get_count, MPI_Get_elements) and every byte of the receive buffers; the two
 * transcripts must be identical (run_compare.sh).
 *
 * "Device" buffers: in the libtempi build, fake device memory (PROT_NONE outside the fake device
 * layer, so a device pointer reaching the MPI faults); in the plain build the fake device layer
 * is absent (weak symbols) and the same steps run on malloc'ed memory. So every device-buffer step
 * is compared with the plain MPI doing the same on host memory.
 */
#ifndef TEMPI_RELIABILITY_COMMON_H
#define TEMPI_RELIABILITY_COMMON_H
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *rel_out;
static int rel_rank, rel_size, rel_failures;

#define REL_CHECK(cond, ...)                                                                      \
  do {                                                                                            \
    if (!(cond)) {                                                                                \
      fprintf(stderr, "rank %d: %s:%d: check failed: %s: ", rel_rank, __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                                               \
      fprintf(stderr, "\n");                                                                      \
      ++rel_failures;                                                                             \
    }                                                                                             \
  } while (0)

#ifdef REL_CUDA
/* The GPU build (test/gpu/Reliability*.c): "device" buffers are real cudaMalloc memory. */
#include <cuda_runtime.h>
#define REL_CUDA_CHECK(call)                                                                      \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));     \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                               \
    }                                                                                             \
  } while (0)
static int rel_have_device(void) { return 1; }
/* What "device" memory is in the GPU build, from the environment (docs/reliability.md):
 * REL_MEMORY=device (cudaMalloc, the default) | managed (cudaMallocManaged) | pinned
 * (cudaMallocHost), and REL_MISALIGN=k (0-255) hands out every such buffer k bytes past the start
 * of its allocation, so the user pointer is not aligned to the type's words. */
static const char *rel_memory_kind(void) {
  const char *k = getenv("REL_MEMORY");
  return k && *k ? k : "device";
}
static size_t rel_misalign(void) {
  const char *m = getenv("REL_MISALIGN");
  long k = m ? atol(m) : 0;
  return k > 0 && k < 256 ? (size_t)k : 0;
}
static void *rel_alloc(int dev, size_t bytes) {
  if (bytes == 0) bytes = 1;
  if (!dev) return calloc(bytes, 1);
  const char *kind = rel_memory_kind();
  const size_t skew = rel_misalign();
  char *p = NULL;
  if (!strcmp(kind, "managed")) REL_CUDA_CHECK(cudaMallocManaged((void **)&p, bytes + skew, cudaMemAttachGlobal));
  else if (!strcmp(kind, "pinned")) REL_CUDA_CHECK(cudaMallocHost((void **)&p, bytes + skew));
  else if (!strcmp(kind, "device")) REL_CUDA_CHECK(cudaMalloc((void **)&p, bytes + skew));
  else {
    fprintf(stderr, "REL_MEMORY=%s: expected device, managed or pinned\n", kind);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  REL_CUDA_CHECK(cudaMemset(p, 0, bytes + skew));
  REL_CUDA_CHECK(cudaDeviceSynchronize()); /* managed memory: the host may read it next */
  return p + skew;
}
static void rel_free(int dev, void *p) {
  if (!dev) {
    free(p);
    return;
  }
  char *base = (char *)p - rel_misalign();
  if (!strcmp(rel_memory_kind(), "pinned")) REL_CUDA_CHECK(cudaFreeHost(base));
  else REL_CUDA_CHECK(cudaFree(base));
}
static void rel_copy(void *dst, const void *src, size_t bytes) {
  REL_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault));
}
/* Exits with 77 (ctest: skipped) when no GPU is usable; call before MPI_Init. */
static void rel_skip_without_gpu(const char *program) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    printf("%s: SKIP: no usable CUDA device\n", program);
    exit(77);
  }
}
#else
void *fake_device_alloc(size_t bytes) __attribute__((weak));
void fake_device_free(void *p) __attribute__((weak));
void fake_device_memcpy(void *dst, const void *src, size_t bytes) __attribute__((weak));
long fake_device_kernel_launches(void) __attribute__((weak));
long fake_device_runtime_outstanding(void) __attribute__((weak));

static int rel_have_device(void) { return fake_device_alloc != NULL; }

/* Memory of kind dev (1: fake device, 0: host); zero-filled. */
static void *rel_alloc(int dev, size_t bytes) {
  if (bytes == 0) bytes = 1;
  if (dev && rel_have_device()) {
    void *p = fake_device_alloc(bytes);
    char *zero = calloc(bytes, 1);
    fake_device_memcpy(p, zero, bytes);
    free(zero);
    return p;
  }
  return calloc(bytes, 1);
}
static void rel_free(int dev, void *p) {
  if (dev && rel_have_device()) fake_device_free(p);
  else free(p);
}
/* Copies between any two buffers (either may be fake device memory). */
static void rel_copy(void *dst, const void *src, size_t bytes) {
  if (rel_have_device()) fake_device_memcpy(dst, src, bytes);
  else memmove(dst, src, bytes);
}
#endif

/* Fake device layer counters, -1 where there is none (the plain and the GPU builds). */
static long rel_kernel_launches(void) {
#ifdef REL_CUDA
  return -1;
#else
  return fake_device_kernel_launches ? fake_device_kernel_launches() : -1;
#endif
}
static long rel_runtime_outstanding(void) {
#ifdef REL_CUDA
  return -1;
#else
  return fake_device_runtime_outstanding ? fake_device_runtime_outstanding() : -1;
#endif
}

/* A buffer whose bytes are a function of (seed, offset), so a misplaced byte shows. */
static void rel_fill(int dev, void *p, size_t bytes, int seed) {
  unsigned char *h = malloc(bytes ? bytes : 1);
  for (size_t i = 0; i < bytes; ++i) h[i] = (unsigned char)(i * 31 + seed * 7 + 3);
  rel_copy(p, h, bytes);
  free(h);
}

static int rel_class(int rc) {
  int cls = -1;
  if (rc == MPI_SUCCESS) return MPI_SUCCESS;
  MPI_Error_class(rc, &cls);
  return cls;
}

static void rel_print_rc(const char *what, int rc) {
  fprintf(rel_out, "%s: class=%d\n", what, rel_class(rc));
}

static void rel_print_status(const char *what, const MPI_Status *st, MPI_Datatype t) {
  int count = -2, elements = -2, bytes = -2;
  MPI_Get_count(st, t, &count);
  MPI_Get_elements(st, t, &elements);
  MPI_Get_count(st, MPI_BYTE, &bytes);
  fprintf(rel_out, "%s: source=%d tag=%d count=%d elements=%d bytes=%d\n", what, st->MPI_SOURCE,
          st->MPI_TAG, count, elements, bytes);
}

/* Every byte of a buffer (either kind), as hex, 32 bytes a line. */
static void rel_print_bytes(const char *what, const void *p, size_t bytes) {
  unsigned char *h = malloc(bytes ? bytes : 1);
  rel_copy(h, p, bytes);
  fprintf(rel_out, "%s: %zu bytes", what, bytes);
  for (size_t i = 0; i < bytes; ++i) fprintf(rel_out, "%s%02x", i % 32 ? "" : "\n  ", h[i]);
  fprintf(rel_out, "\n");
  free(h);
}

/* Opens <dir>/rank<r>.txt; dir is argv[1]. */
static void rel_open(int argc, char **argv) {
  MPI_Comm_rank(MPI_COMM_WORLD, &rel_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &rel_size);
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUTPUT-DIR\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/rank%d.txt", argv[1], rel_rank);
#ifdef REL_CUDA
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) { /* ctest: skipped */
    if (rel_rank == 0) printf("%s: SKIP: no usable CUDA device\n", argv[0]);
    MPI_Finalize();
    exit(77);
  }
#endif
  rel_out = fopen(path, "w");
  if (!rel_out) {
    perror(path);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  setvbuf(rel_out, NULL, _IOLBF, 0); /* a crash leaves the transcript up to its last step */
}

/* Closes the transcript; returns the exit status (1 when a rank's own checks failed). With
 * kernels set, the libtempi build's ranks 0 and 1 must have run the fake device layer's pack or
 * unpack kernels (so the device-buffer steps really took libtempi's device paths); not with
 * TEMPI_NO_TYPE_CACHE=1, where every device buffer takes the mirror path (copies, no kernel). */
static int rel_close_checked(int kernels) {
  const char *noPlans = getenv("TEMPI_NO_TYPE_CACHE");
  if (noPlans && *noPlans == '1')
    kernels = 0;
  if (kernels && rel_kernel_launches() >= 0 && rel_rank < 2)
    REL_CHECK(rel_kernel_launches() > 0, "no device kernel ran: the device-buffer steps "
              "did not take libtempi's device paths");
  fclose(rel_out);
  int all = 0;
  MPI_Allreduce(&rel_failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return all != 0;
}
static int rel_close(void) { return rel_close_checked(1); }

#endif
