/* runtime_large_count_huge: messages over INT_MAX bytes and counts over 2^31 through libtempi's
 * large-count (_c) calls, checked byte for byte. Two ranks: rank 0 sends, rank 1 receives.
 *
 *   runtime_large_count_huge host     MPI_Send_c / MPI_Recv_c of 2^31 + 16 MPI_BYTEs, host buffers
 *   runtime_large_count_huge device   (fake device layer) the same with a device send buffer
 *       (a packed wire of 2^31 + 16 bytes sent as
 *       MPI_PACKED by PMPI_Send_c, received typed on the host), a device receive buffer (Irecv_c,
 *       the request table and the unpack of 2^31 + 16 bytes), a device vector type whose one
 *       element packs to 2^31 + 64 KiB bytes (pack kernel, D->H), and MPI_Pack_c of that element
 *       from device to device memory.
 *
 * Memory stays near 4 GiB at any time: a sender's payload is zero except for a pattern in its first
 * and last MiB and one 4 KiB page every 64 MiB, so its unwritten pages are never backed by memory;
 * receive buffers are filled with 0xAB first, so every byte that the message does not overwrite is
 * caught. Run with TEMPI_METHOD=oneshot in device mode (the pack writes the host staging directly,
 * so no device staging is backed either). Also runs on a GPU with
 * runtime_gpu/runtime_cuda_device_api.cpp in place of the fake layer (any method there).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef LARGE_COUNT_HOST_ONLY /* linked with libtempi, which has no fake device layer */
static void *fake_device_alloc(size_t bytes) { (void)bytes; return NULL; }
static void fake_device_free(void *p) { (void)p; }
static void fake_device_memcpy(void *dst, const void *src, size_t n) { memcpy(dst, src, n); }
static long fake_device_runtime_outstanding(void) { return 0; }
static long fake_device_kernel_launches(void) { return 0; }
#else
#include "runtime_fake_device.h"
#endif

#include "e2e_check.h"

static int size, deviceMode;

static const MPI_Count kBig = ((MPI_Count)1 << 31) + 16; /* > INT_MAX bytes and count */
enum { kBlock = 1 << 16, kStride = 1 << 17, kBlocks = (1 << 15) + 1 }; /* 2^31 + 64 KiB packed */
static const int64_t kMiB = 1 << 20, kPeriod = (int64_t)64 << 20, kPage = 4096;
static const int64_t kChunk = (int64_t)256 << 20; /* few fake-device calls: each remaps all */

static unsigned char val(int64_t i) {
  return (unsigned char)((((uint64_t)i * 0x9E3779B97F4A7C15ull) >> 56) | 1);
}

/* The expected bytes [off, off + len) of a sparse payload of `n` bytes. */
static void expectSrc(int64_t n, int64_t off, unsigned char *out, int64_t len) {
  memset(out, 0, (size_t)len);
  const int64_t end = off + len;
  int64_t lo[2] = {0, n - kMiB}, hi[2] = {kMiB, n};
  for (int r = 0; r < 2; ++r)
    for (int64_t i = lo[r] > off ? lo[r] : off; i < hi[r] && i < end; ++i) out[i - off] = val(i);
  for (int64_t p = off / kPeriod * kPeriod; p < end; p += kPeriod)
    for (int64_t i = p > off ? p : off; i < p + kPage && i < end && i < n; ++i)
      out[i - off] = val(i);
}

static void copyTo(void *dst, const void *src, size_t bytes, int dev) {
  if (dev) fake_device_memcpy(dst, src, bytes);
  else memcpy(dst, src, bytes);
}

/* Writes the pattern regions of a sparse payload of `n` bytes (and nothing else). */
static void fillSparse(unsigned char *buf, int64_t n, int dev) {
  unsigned char *tmp = malloc(kMiB);
  int64_t starts[2] = {0, n - kMiB};
  for (int r = 0; r < 2; ++r) {
    expectSrc(n, starts[r], tmp, kMiB);
    copyTo(buf + starts[r], tmp, kMiB, dev);
  }
  for (int64_t p = kPeriod; p + kPage <= n; p += kPeriod) {
    expectSrc(n, p, tmp, kPage);
    copyTo(buf + p, tmp, kPage, dev);
  }
  free(tmp);
}

static void fillAll(unsigned char *buf, int64_t n, unsigned char v, int dev) {
  unsigned char *tmp = malloc(kChunk);
  memset(tmp, v, kChunk);
  for (int64_t at = 0; at < n; at += kChunk)
    copyTo(buf + at, tmp, (size_t)(n - at < kChunk ? n - at : kChunk), dev);
  free(tmp);
}

static void fillAll(unsigned char *buf, int64_t n, unsigned char v, int dev);

/* Zeroed memory. calloc of this size, and the fake device layer, map fresh zero pages: only what
 * is written gets backed. Real CUDA memory (runtime_cuda_device_api.cpp, which reports kernel
 * launches as -1) is zeroed explicitly. */
static unsigned char *allocBuf(int64_t n, int dev) {
  unsigned char *p = dev ? fake_device_alloc((size_t)n) : calloc((size_t)n, 1);
  if (!p) {
    fprintf(stderr, "rank %d: cannot allocate %lld bytes\n", rank, (long long)n);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (dev && fake_device_kernel_launches() < 0) fillAll(p, n, 0, 1);
  return p;
}
static void freeBuf(unsigned char *p, int dev) {
  if (dev) fake_device_free(p);
  else free(p);
}

/* `n` received bytes equal the expected ones: the sparse payload itself (packedFromVector 0), or
 * the packing of one element of vector(kBlocks, kBlock, kStride) over a sparse payload. */
static void checkReceived(const char *what, const unsigned char *buf, int64_t n, int dev,
                          int packedFromVector) {
  unsigned char *want = malloc(kChunk), *got = dev ? malloc(kChunk) : NULL;
  const int64_t srcBytes = (int64_t)(kBlocks - 1) * kStride + kBlock;
  int64_t bad = -1;
  for (int64_t at = 0; at < n && bad < 0; at += kChunk) {
    const int64_t len = n - at < kChunk ? n - at : kChunk;
    if (packedFromVector) /* kChunk is a multiple of kBlock */
      for (int64_t b = 0; b < len; b += kBlock)
        expectSrc(srcBytes, (at + b) / kBlock * kStride, want + b, kBlock);
    else
      expectSrc(n, at, want, len);
    const unsigned char *g = buf + at;
    if (dev) {
      fake_device_memcpy(got, buf + at, (size_t)len);
      g = got;
    }
    if (memcmp(g, want, (size_t)len))
      for (int64_t i = 0; i < len; ++i)
        if (g[i] != want[i]) { bad = at + i; break; }
  }
  CHECK(bad < 0, "%s: byte %lld differs", what, (long long)bad);
  free(want);
  free(got);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* kBig MPI_BYTEs from rank 0 (device memory when sdev) to rank 1 (device memory when rdev). */
static void contiguous(int sdev, int rdev) {
  char what[64];
  snprintf(what, sizeof what, "%s->%s %lld bytes", sdev ? "device" : "host",
           rdev ? "device" : "host",
           (long long)kBig);
  double t0 = now();
  if (rank == 0) {
    unsigned char *s = allocBuf(kBig, sdev);
    fillSparse(s, kBig, sdev);
    int rc = MPI_Send_c(s, kBig, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "%s: MPI_Send_c returned %d", what, rc);
    freeBuf(s, sdev);
  } else if (rank == 1) {
    unsigned char *r = allocBuf(kBig, rdev);
    fillAll(r, kBig, 0xab, rdev);
    MPI_Status st;
    int rc;
    if (rdev) { /* nonblocking: the request table finishes the large wire */
      MPI_Request req;
      rc = MPI_Irecv_c(r, kBig, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &req);
      if (rc == MPI_SUCCESS) rc = MPI_Wait(&req, &st);
    } else {
      rc = MPI_Recv_c(r, kBig, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &st);
    }
    MPI_Count count = -1;
    MPI_Get_count_c(&st, MPI_BYTE, &count);
    CHECK(rc == MPI_SUCCESS && count == kBig && st.MPI_SOURCE == 0 && st.MPI_TAG == 1,
          "%s: rc %d count %lld", what, rc, (long long)count);
    checkReceived(what, r, kBig, rdev, 0);
    freeBuf(r, rdev);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("%s: %.1f s\n", what, now() - t0);
}

/* One element of vector(kBlocks, kBlock, kStride, MPI_BYTE) from device memory: 2^31 + 64 KiB
 * packed bytes, received as MPI_BYTEs on the host; then MPI_Pack_c of it device to device. */
static void vectorElement(void) {
  MPI_Datatype vec;
  MPI_Type_vector(kBlocks, kBlock, kStride, MPI_BYTE, &vec);
  MPI_Type_commit(&vec);
  const int64_t srcBytes = (int64_t)(kBlocks - 1) * kStride + kBlock;
  const MPI_Count packed = (MPI_Count)kBlocks * kBlock;
  double t0 = now();
  if (rank == 0) {
    unsigned char *s = allocBuf(srcBytes, 1);
    fillSparse(s, srcBytes, 1);
    int rc = MPI_Send_c(s, 1, vec, 1, 2, MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "vector send: MPI_Send_c returned %d", rc);
    MPI_Barrier(MPI_COMM_WORLD); /* the receiver freed its buffer */
    unsigned char *d = allocBuf(packed, 1);
    MPI_Count pos = 0;
    rc = MPI_Pack_c(s, 1, vec, d, packed, &pos, MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS && pos == packed, "MPI_Pack_c device->device: rc %d position %lld",
          rc, (long long)pos);
    checkReceived("MPI_Pack_c of the vector element", d, packed, 1, 1);
    freeBuf(d, 1);
    freeBuf(s, 1);
  } else if (rank == 1) {
    unsigned char *r = allocBuf(packed, 0);
    fillAll(r, packed, 0xab, 0);
    MPI_Status st;
    int rc = MPI_Recv_c(r, packed, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &st);
    MPI_Count count = -1;
    MPI_Get_count_c(&st, MPI_BYTE, &count);
    CHECK(rc == MPI_SUCCESS && count == packed, "vector receive: rc %d count %lld", rc,
          (long long)count);
    checkReceived("device vector element -> host bytes", r, packed, 0, 1);
    freeBuf(r, 0);
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("vector element of %lld packed bytes (send + pack): %.1f s\n",
                        (long long)packed, now() - t0);
  MPI_Type_free(&vec);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  deviceMode = argc > 1 && !strcmp(argv[1], "device");
#ifdef LARGE_COUNT_HOST_ONLY
  const int hostOnly = 1;
#else
  const int hostOnly = 0;
#endif
  const int badMode = argc > 1 && !deviceMode && strcmp(argv[1], "host");
  if (size < 2 || badMode || (deviceMode && hostOnly)) {
    if (rank == 0)
      fprintf(stderr, "usage: mpiexec -n 2 %s host|device (device: built with the fake device)\n",
              argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (!deviceMode) contiguous(0, 0);
  if (deviceMode) {
    contiguous(1, 0);
    contiguous(0, 1);
    vectorElement();
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  if (deviceMode) {
    long outstanding = fake_device_runtime_outstanding();
    CHECK(outstanding == 0, "%ld staging allocations not released at MPI_Finalize", outstanding);
    if (rank == 0 && fake_device_kernel_launches() >= 0) /* < 0: real CUDA, not countable */
      CHECK(fake_device_kernel_launches() > 0, "the vector element was not packed by a kernel");
  }
  if (failures) fprintf(stderr, "rank %d: %d failures\n", rank, failures);
  return total || failures ? 1 : 0;
}
