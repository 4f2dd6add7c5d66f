/// \file
/// Baselines for the 3-D halo exchange (examples/halo3d), on device buffers, same grid, same
/// checking (every halo cell, every exchange), same timing (slowest rank, median):
///   fused     one hand-written kernel packs all 26 faces x 8 quantities into one device buffer,
///             one copy to pinned host memory, 26 Isend/Irecv of contiguous host messages, one copy
///             back, one unpack kernel (what a careful programmer writes by hand without TEMPI)
///   memcpy3d  one cudaMemcpy3DAsync per face and quantity into pinned host memory (208 each way)
///   ideal     the same bytes as one contiguous device buffer: one copy to the host, the 26
///             contiguous messages, one copy back; no packing (not a halo exchange: unchecked)
///   fused-per-q, ideal-per-q
///             the same with one message per face and quantity (208 each way), the message
///             pattern of halo3d's Isend/Irecv variant: what that program costs with perfect
///             packing, since no runtime may merge a program's messages
///   ideal-dev, ideal-dev-per-q   (--device-mpi, bench-halo-tempi only)
///             the same contiguous device buffer handed to MPI_Isend/MPI_Irecv as it is, 26 or
///             208 messages each way: the ideal over whatever transport libtempi picks for
///             contiguous device data (staged, or peer memory with TEMPI_METHOD=ipc), so the
///             compile-time tier's +ipc rows are held against an ideal that also avoids the host
/// The MPIs here are not CUDA-aware, so the other variants stage through pinned host memory.
/// The runtime and compile-time tiers are examples/halo3d built with libtempi / tempi-cc.
///
///   mpiexec -n 4 bench-halo [N ...] [--iters K] [--time-kernels]      (default: 32 64 128)
///   mpiexec -n 4 bench-halo-tempi [N ...] [--iters K] --device-mpi   (the ideal-dev variants)
/// Prints one row per variant and grid; exits 1 on any wrong cell. With --time-kernels, the fused
/// variants also print the median GPU time of the hand-written pack and unpack kernels (a
/// halo-kernels row), timed as libtempi's TEMPI_TIME_KERNELS times its fused launches: the stream
/// is held 100 us, then an event pair goes around the launch, so the pair times the kernel and not
/// the host enqueueing it. The hold delays the exchange: its times are not comparable then.
#include "bench_common.h"
#include "../common/ex_util.h"

extern "C" {
#include "../halo3d/halo.h"
}

#include <vector>

struct Faces {
  int sub[HALO_NDIRS][3];       // z y x
  int start[HALO_NDIRS][3];     // send (pack) or receive (unpack) region
  long long off[HALO_NDIRS + 1]; // element offset of face i in the packed buffer
};

/// Keeps the stream busy for ns nanoseconds (see --time-kernels).
__global__ void hold_kernel(unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

/// One launch for all faces: blockIdx.y is the face; each face is Q x sz x sy x sx elements.
template <bool Pack>
__global__ void faces_kernel(double *base, double *packed, Faces f, long long slab, int px, int wy) {
  int i = blockIdx.y;
  int sz = f.sub[i][0], sy = f.sub[i][1], sx = f.sub[i][2];
  long long n = (long long)HALO_Q * sz * sy * sx;
  double *out = packed + f.off[i];
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n;
       k += (long long)gridDim.x * blockDim.x) {
    long long r = k;
    int x = (int)(r % sx); r /= sx;
    int y = (int)(r % sy); r /= sy;
    int z = (int)(r % sz);
    int q = (int)(r / sz);
    double *cell = base + q * slab +
                   ((long long)(z + f.start[i][0]) * wy + (y + f.start[i][1])) * px + x +
                   f.start[i][2];
    if (Pack) out[k] = *cell;
    else *cell = out[k];
  }
}

static Faces faces(const struct halo *h, bool send) {
  Faces f;
  f.off[0] = 0;
  for (int i = 0; i < HALO_NDIRS; ++i) {
    if (send) halo_send_region(h, i, f.sub[i], f.start[i]);
    else halo_recv_region(h, i, f.sub[i], f.start[i]);
    f.off[i + 1] = f.off[i] + (long long)HALO_Q * f.sub[i][0] * f.sub[i][1] * f.sub[i][2];
  }
  return f;
}

struct Staging {
  double *dsend, *drecv, *hsend, *hrecv;
  Faces fs, fr;
  long long total; // elements
};

/// The contiguous messages (host buffers, or device buffers for ideal-dev): face i goes to nbr[i];
/// the halo on side i comes from nbr[i], which sent its face toward -dir[i] (opp). One message per face (26, tag i), or with perQ one
/// per face and quantity (208, tag i * Q + q; quantity q is the q-th Q-th of the face's part).
static void exchange(const struct halo *h, const Staging &s, double *send, double *recv, bool perQ) {
  const int parts = perQ ? HALO_Q : 1;
  std::vector<MPI_Request> req;
  req.reserve(2 * HALO_NDIRS * parts);
  for (int i = 0; i < HALO_NDIRS; ++i) {
    int opp = HALO_NDIRS - 1 - i;
    long long n = (s.fr.off[i + 1] - s.fr.off[i]) / parts;
    for (int q = 0; q < parts; ++q) {
      req.emplace_back();
      MPI_Irecv(recv + s.fr.off[i] + q * n, (int)n, MPI_DOUBLE, h->nbr[i], opp * parts + q,
                h->cart, &req.back());
    }
  }
  for (int i = 0; i < HALO_NDIRS; ++i) {
    long long n = (s.fs.off[i + 1] - s.fs.off[i]) / parts;
    for (int q = 0; q < parts; ++q) {
      req.emplace_back();
      MPI_Isend(send + s.fs.off[i] + q * n, (int)n, MPI_DOUBLE, h->nbr[i], i * parts + q,
                h->cart, &req.back());
    }
  }
  MPI_Waitall((int)req.size(), req.data(), MPI_STATUSES_IGNORE);
}

static void copy3d(const struct halo *h, double *host_packed, const Faces &f, int i, int q,
                   bool to_host, cudaStream_t st) {
  cudaMemcpy3DParms p = {};
  cudaPitchedPtr dev = make_cudaPitchedPtr(h->base + q * h->slab, (size_t)h->px * sizeof(double),
                                           (size_t)h->px, (size_t)(h->n[1] + 2 * HALO_R));
  size_t sx = f.sub[i][2], sy = f.sub[i][1], sz = f.sub[i][0];
  double *hp = host_packed + f.off[i] + (long long)q * sx * sy * sz;
  cudaPitchedPtr host = make_cudaPitchedPtr(hp, sx * sizeof(double), sx, sy);
  cudaPos dpos = make_cudaPos(f.start[i][2] * sizeof(double), f.start[i][1], f.start[i][0]);
  p.extent = make_cudaExtent(sx * sizeof(double), sy, sz);
  if (to_host) { p.srcPtr = dev; p.srcPos = dpos; p.dstPtr = host; p.kind = cudaMemcpyDeviceToHost; }
  else { p.dstPtr = dev; p.dstPos = dpos; p.srcPtr = host; p.kind = cudaMemcpyHostToDevice; }
  CK(cudaMemcpy3DAsync(&p, st));
}

static long run(struct halo *h, const char *variant, int iters, int warmup, bool time_kernels) {
  Staging s;
  s.fs = faces(h, true);
  s.fr = faces(h, false);
  s.total = s.fs.off[HALO_NDIRS];
  size_t bytes = s.total * sizeof(double);
  CK(cudaMalloc(&s.dsend, bytes));
  CK(cudaMalloc(&s.drecv, bytes));
  CK(cudaMallocHost(&s.hsend, bytes));
  CK(cudaMallocHost(&s.hrecv, bytes));
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  std::vector<double> times(iters);
  long wrong = 0;
  const bool perQ = !strcmp(variant, "fused-per-q") || !strcmp(variant, "ideal-per-q") ||
                    !strcmp(variant, "ideal-dev-per-q");
  const bool deviceMpi = !strcmp(variant, "ideal-dev") || !strcmp(variant, "ideal-dev-per-q");
  const bool ideal = !strcmp(variant, "ideal") || !strcmp(variant, "ideal-per-q");
  const bool fused = !strcmp(variant, "fused") || !strcmp(variant, "fused-per-q");
  int wy = h->n[1] + 2 * HALO_R;
  dim3 grid(64, HALO_NDIRS);
  // GPU time of the hand-written kernels (fused variants, --time-kernels), timed as libtempi's
  // TEMPI_TIME_KERNELS times its fused launches: a hold, events around each launch, median over
  // the timed exchanges.
  const bool timed = time_kernels && fused;
  cudaEvent_t ev[4];
  for (cudaEvent_t &e : ev) CK(cudaEventCreate(&e));
  std::vector<double> pack_us, unpack_us;
  for (int it = -warmup; it < iters; ++it) {
    halo_prepare(h, it + warmup);
    double t0 = halo_clock_start(h);
    if (deviceMpi) {
      exchange(h, s, s.dsend, s.drecv, perQ); // libtempi moves the device bytes
    } else if (fused || ideal) {
      if (!ideal) {
        if (timed) {
          hold_kernel<<<1, 1, 0, st>>>(100000);
          CK(cudaEventRecord(ev[0], st));
        }
        faces_kernel<true><<<grid, 256, 0, st>>>(h->base, s.dsend, s.fs, h->slab, h->px, wy);
        if (timed) CK(cudaEventRecord(ev[1], st));
      }
      CK(cudaMemcpyAsync(s.hsend, s.dsend, bytes, cudaMemcpyDeviceToHost, st));
      CK(cudaStreamSynchronize(st));
      exchange(h, s, s.hsend, s.hrecv, perQ);
      CK(cudaMemcpyAsync(s.drecv, s.hrecv, bytes, cudaMemcpyHostToDevice, st));
      if (!ideal) {
        if (timed) {
          hold_kernel<<<1, 1, 0, st>>>(100000);
          CK(cudaEventRecord(ev[2], st));
        }
        faces_kernel<false><<<grid, 256, 0, st>>>(h->base, s.drecv, s.fr, h->slab, h->px, wy);
        if (timed) CK(cudaEventRecord(ev[3], st));
      }
      CK(cudaStreamSynchronize(st));
      if (timed && it >= 0) {
        float a = 0, b = 0;
        CK(cudaEventElapsedTime(&a, ev[0], ev[1]));
        CK(cudaEventElapsedTime(&b, ev[2], ev[3]));
        pack_us.push_back(a * 1e3);
        unpack_us.push_back(b * 1e3);
      }
    } else { // memcpy3d
      for (int i = 0; i < HALO_NDIRS; ++i)
        for (int q = 0; q < HALO_Q; ++q) copy3d(h, s.hsend, s.fs, i, q, true, st);
      CK(cudaStreamSynchronize(st));
      exchange(h, s, s.hsend, s.hrecv, false);
      for (int i = 0; i < HALO_NDIRS; ++i)
        for (int q = 0; q < HALO_Q; ++q) copy3d(h, s.hrecv, s.fr, i, q, false, st);
      CK(cudaStreamSynchronize(st));
    }
    CK(cudaGetLastError());
    double dt = halo_clock_stop(h, t0);
    if (!ideal && !deviceMpi) wrong += halo_check(h, it + warmup, variant);
    if (it >= 0) times[it] = dt;
  }
  long total = halo_report(h, variant, times.data(), iters, wrong);
  if (timed && h->rank == 0) // rank 0's medians, as libtempi logs rank 0's
    printf("halo-kernels variant=%s grid=%dx%dx%d ranks=%d pack_us=%.2f unpack_us=%.2f timed=%d\n",
           variant, h->n[0], h->n[1], h->n[2], h->size,
           ex_median(pack_us.data(), (int)pack_us.size()),
           ex_median(unpack_us.data(), (int)unpack_us.size()), (int)pack_us.size());
  for (cudaEvent_t &e : ev) cudaEventDestroy(e);
  cudaFree(s.dsend); cudaFree(s.drecv); cudaFreeHost(s.hsend); cudaFreeHost(s.hrecv);
  cudaStreamDestroy(st);
  return total;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<int> grids;
  int iters = 10, warmup = 2;
  bool time_kernels = false, device_mpi = false;
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--iters") && a + 1 < argc) iters = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--time-kernels")) time_kernels = true;
    else if (!strcmp(argv[a], "--device-mpi")) device_mpi = true;
    else if (argv[a][0] != '-' && atoi(argv[a]) >= HALO_R) grids.push_back(atoi(argv[a]));
    else {
      if (rank == 0)
        fprintf(stderr, "usage: bench-halo [N ...] [--iters K] [--time-kernels] [--device-mpi]\n");
      MPI_Finalize();
      return 1;
    }
  }
  if (grids.empty()) grids = {32, 64, 128};
#ifndef BENCH_WITH_TEMPI
  if (device_mpi) { // a non-CUDA-aware MPI would read device memory from the host and crash
    if (rank == 0) fprintf(stderr, "bench-halo: --device-mpi needs libtempi (run bench-halo-tempi)\n");
    MPI_Finalize();
    return 1;
  }
#endif
  bench_require_gpu("bench-halo");
  if (rank == 0) bench_header("bench-halo", "halo-exchange baselines on device buffers");
  long wrong = 0;
  for (int n : grids) {
    struct halo h;
    int dims[3] = {n, n, n};
    if (halo_init(&h, dims, 1, 0)) MPI_Abort(MPI_COMM_WORLD, 1);
    if (device_mpi)
      for (const char *v : {"ideal-dev", "ideal-dev-per-q"}) wrong += run(&h, v, iters, warmup, false);
    else
      for (const char *v : {"ideal", "ideal-per-q", "fused", "fused-per-q", "memcpy3d"})
        wrong += run(&h, v, iters, warmup, time_kernels);
    halo_free(&h);
  }
  MPI_Finalize();
  return wrong ? 1 : 0;
}
