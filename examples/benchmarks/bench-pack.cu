/// \file
/// Pack/unpack bandwidth of strided objects on device buffers, TEMPI against baselines measured in
/// the same run (one rank; docs/performance.md explains every column):
///   tempi     MPI_Pack / MPI_Unpack with a device buffer (libtempi linked; n/a otherwise)
///   d2d       cudaMemcpyAsync device-to-device of the packed bytes (the ceiling for large blocks),
///             timed in the same rounds as the TEMPI packs, as is the plain kernel
///   ceiling   the 64-byte-granule ceiling: d2d * 2b/(b + bytes read per block)
///   kernel    a plain hand-written grid-stride pack kernel (widest word that fits)
///   memcpy2d  cudaMemcpy2DAsync (one per plane and element)
///   perblock  one cudaMemcpyAsync per contiguous block (at most 8192 timed, then scaled)
///   hostpack  cudaMemcpy of the whole span to the host, then the MPI's own MPI_Pack
/// Bandwidths count bytes read plus bytes written of the packed data (2 x packed / time), so they
/// compare directly with the d2d copy. Times are medians of repeated calls, each call timed from
/// the host call until the data are ready (synchronized). The three descriptions of one shape
/// (vector, hvector, subarray) are timed together, in rounds of one call each, so that a slow
/// spell of the machine cannot make one description look slower than the others.
///
///   mpiexec -n 1 bench-pack [--quick] [--csv FILE]
///   Diagnostics: --only FAMILY and --elem BYTES keep only those shapes, --forms A,B,C sets the
///   order of the descriptions, --repeat N runs the shapes N times (each time starting one
///   description further on), --detail adds '# detail' lines (each pack's samples, the pack timed
///   alone, and the d2d copy, baseline kernel, its GPU time and an empty launch timed next to it),
///   --min-packed BYTES keeps shapes of at least that many packed bytes, --l2-fetch BYTES asks the
///   driver for that L2 maximum fetch granularity (cudaLimitMaxL2FetchGranularity) first.
///
/// Every TEMPI pack is checked byte for byte against the MPI's MPI_Pack of the same data on the
/// host, every TEMPI unpack against the MPI's MPI_Unpack, and the baseline kernel likewise; exits 1
/// if any differs. Shapes whose span exceeds 1.5 GiB are left out (listed as skipped).
#include "bench_common.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace {

struct Shape {
  std::string family; // "2d", "2d-count", "2d-misaligned", "3d-xface", "3d-yface"
  int64_t block, n1, s1, n2, s2; // n1 blocks of `block` bytes s1 apart; n2 such planes s2 apart
  int count;                     // elements, each (n2-1)*s2 + (n1-1)*s1 + block bytes apart
  int offset;                    // bytes added to the (256-byte aligned) base address
  int elem;                      // element bytes (3-D), informational
  int64_t packed() const { return block * n1 * n2 * count; }
  int64_t elemSpan() const { return (n2 - 1) * s2 + (n1 - 1) * s1 + block; }
};

constexpr int64_t kMaxSpan = 3ll << 29; // 1.5 GiB

double g_min_time = 0.02;
int g_max_reps = 50;

/// The samples of the last measure(), in the order taken (for --detail).
std::vector<double> g_last_raw;

/// Median seconds per call of f (which must synchronize), after one warm-up call.
double measure(const std::function<void()> &f, int max_reps = -1) {
  if (max_reps < 0) max_reps = g_max_reps;
  f();
  std::vector<double> t;
  double total = 0;
  while ((int)t.size() < 3 || (total < g_min_time && (int)t.size() < max_reps)) {
    double t0 = bench_now();
    f();
    double dt = bench_now() - t0;
    t.push_back(dt);
    total += dt;
    if (dt > 0.5 && t.size() >= 1) break; // very slow baselines: one timed call is enough
  }
  g_last_raw = t;
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// Median seconds per call of each of fs (each must synchronize), timed in rounds of one call of
/// each, after one warm-up call of each: as measure() gives one f, in the same time per f. A slow
/// spell of the machine (seen on an H100: every launch + synchronize, an empty kernel's too, took
/// twice as long for a fraction of a second while the kernels' GPU time did not change) then
/// falls on every f alike instead of on whichever was being measured alone at the time. The
/// samples of each, in the order taken, go to *samples.
std::vector<double> measure_rounds(const std::vector<std::function<void()>> &fs,
                                   std::vector<std::vector<double>> *samples = nullptr) {
  for (const auto &f : fs) f();
  std::vector<std::vector<double>> t(fs.size());
  double total = 0;
  for (int rounds = 0; !fs.empty() && (rounds < 3 || (total < g_min_time * (double)fs.size() &&
                                                      rounds < g_max_reps));
       ++rounds) {
    bool slow = false;
    for (size_t i = 0; i < fs.size(); ++i) {
      double t0 = bench_now();
      fs[i]();
      double dt = bench_now() - t0;
      t[i].push_back(dt);
      total += dt;
      slow = slow || dt > 0.5; // very slow calls: one round is enough
    }
    if (slow) break;
  }
  std::vector<double> med;
  for (const auto &v : t) {
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    med.push_back(sorted[sorted.size() / 2]);
  }
  if (samples) *samples = std::move(t);
  return med;
}

/// "n=N min/median/max" in microseconds of samples t.
std::string sampleStats(std::vector<double> t) {
  char b[128];
  if (t.empty()) return "0";
  std::sort(t.begin(), t.end());
  snprintf(b, sizeof b, "n=%zu %.1f/%.1f/%.1f", t.size(), t.front() * 1e6, t[t.size() / 2] * 1e6,
           t.back() * 1e6);
  return b;
}

__global__ void fill_kernel(unsigned char *p, int64_t n, uint32_t seed) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    uint32_t x = (uint32_t)i * 2654435761u ^ seed;
    x ^= x >> 15;
    x *= 2246822519u;
    x ^= x >> 13;
    p[i] = (unsigned char)x;
  }
}

__global__ void empty_kernel() {}

/// The plain grid-stride pack kernel a user would write: one W-byte word per thread step.
template <typename W>
__global__ void gridstride_pack(unsigned char *out, const unsigned char *in, int64_t wpb, int64_t n1,
                                int64_t s1, int64_t n2, int64_t s2, int64_t ext, int64_t total) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < total;
       i += (int64_t)gridDim.x * blockDim.x) {
    int64_t w = i % wpb, b = i / wpb;
    int64_t j1 = b % n1, r = b / n1;
    int64_t j2 = r % n2, c = r / n2;
    const W *src = (const W *)(in + c * ext + j2 * s2 + j1 * s1);
    ((W *)out)[i] = src[w];
  }
}

void launch_gridstride(const Shape &s, unsigned char *out, const unsigned char *in, cudaStream_t st) {
  int64_t ext = s.elemSpan();
  uintptr_t a = (uintptr_t)in;
  auto fits = [&](int64_t w) {
    return s.block % w == 0 && s.s1 % w == 0 && s.s2 % w == 0 && ext % w == 0 && a % w == 0;
  };
  int threads = 256, blocks = 132 * 16;
#define GS(T)                                                                                    \
  gridstride_pack<T><<<blocks, threads, 0, st>>>(out, in, s.block / (int64_t)sizeof(T), s.n1,    \
                                                 s.s1, s.n2, s.s2, ext,                          \
                                                 s.packed() / (int64_t)sizeof(T))
  if (fits(16)) GS(uint4);
  else if (fits(8)) GS(uint64_t);
  else if (fits(4)) GS(uint32_t);
  else if (fits(2)) GS(uint16_t);
  else GS(uint8_t);
#undef GS
  CK(cudaGetLastError());
}

/// The datatype of one element in one of three equivalent descriptions.
MPI_Datatype make_type(const Shape &s, const std::string &form) {
  MPI_Datatype t = MPI_DATATYPE_NULL, inner, blk;
  if (form == "vector") {
    MPI_Type_vector((int)s.n1, (int)s.block, (int)s.s1, MPI_BYTE, &inner);
    if (s.n2 > 1) {
      MPI_Type_create_hvector((int)s.n2, 1, s.s2, inner, &t);
      MPI_Type_free(&inner);
    } else {
      t = inner;
    }
  } else if (form == "hvector") {
    MPI_Type_contiguous((int)s.block, MPI_BYTE, &blk);
    MPI_Type_create_hvector((int)s.n1, 1, s.s1, blk, &inner);
    MPI_Type_free(&blk);
    if (s.n2 > 1) {
      MPI_Type_create_hvector((int)s.n2, 1, s.s2, inner, &t);
      MPI_Type_free(&inner);
    } else {
      t = inner;
    }
  } else { // subarray of bytes; the element extent is then the whole array
    if (s.n2 > 1) {
      int sizes[3] = {(int)s.n2, (int)(s.s2 / s.s1), (int)s.s1};
      int sub[3] = {(int)s.n2, (int)s.n1, (int)s.block}, start[3] = {0, 0, 0};
      MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_BYTE, &t);
    } else {
      int sizes[2] = {(int)s.n1, (int)s.s1}, sub[2] = {(int)s.n1, (int)s.block}, start[2] = {0, 0};
      MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_BYTE, &t);
    }
  }
  MPI_Type_commit(&t);
  return t;
}

bool subarray_ok(const Shape &s) { return s.n2 == 1 || (s.s2 % s.s1 == 0 && s.s2 / s.s1 >= s.n1); }

struct Ctx {
  unsigned char *din = nullptr, *dout = nullptr, *dunp = nullptr; // device
  unsigned char *hin = nullptr, *hout = nullptr, *hunp = nullptr, *hchk = nullptr; // pinned host
  int64_t cap_in = 0, cap_out = 0;
  cudaStream_t st;
  double d2d_cache_bytes = -1, d2d_cache = 0;
  long failures = 0;
  FILE *csv = nullptr;
  bool tempi = false;
  double empty_us = 0;
  // Diagnostics (--forms, --repeat, --detail): the order the descriptions are measured in, and
  // '# detail' lines with each TEMPI measurement's samples and baselines re-measured next to it.
  std::vector<int> order = {0, 1, 2};
  bool detail = false;
  int rep = 0;
  double t0 = 0;
  cudaEvent_t ev0 = nullptr, ev1 = nullptr;
};

__global__ void spin_kernel(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/// Spins for `ns` nanoseconds of wall time; thread 0 of block 0 writes the SM clock (cycles per
/// microsecond, i.e. MHz) it saw to *mhz.
__global__ void timed_spin(unsigned long long ns, double *mhz) {
  unsigned long long t0 = global_ns();
  long long c0 = clock64();
  unsigned long long t;
  while ((t = global_ns()) - t0 < ns) {
  }
  long long c1 = clock64();
  if (mhz && blockIdx.x == 0 && threadIdx.x == 0) *mhz = (double)(c1 - c0) * 1e3 / (double)(t - t0);
}

/// The SM clock now (MHz), from a 200-us spin of one thread.
double gpu_mhz(Ctx &c) {
  static double *d = nullptr;
  if (!d) CK(cudaMalloc(&d, sizeof(double)));
  timed_spin<<<1, 1, 0, c.st>>>(200000, d);
  double v = 0;
  CK(cudaMemcpyAsync(&v, d, sizeof v, cudaMemcpyDeviceToHost, c.st));
  CK(cudaStreamSynchronize(c.st));
  return v;
}

/// GPU time (events) of the baseline kernel alone: the stream is held by a spin first so that the
/// event pair brackets the kernel's execution, not its launch.
double kernel_event_us(Ctx &c, const Shape &s, unsigned char *in) {
  std::vector<float> v;
  for (int i = 0; i < 9; ++i) {
    spin_kernel<<<1, 1, 0, c.st>>>(200000); // ~100 us
    CK(cudaEventRecord(c.ev0, c.st));
    launch_gridstride(s, c.dout, in, c.st);
    CK(cudaEventRecord(c.ev1, c.st));
    CK(cudaEventSynchronize(c.ev1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, c.ev0, c.ev1));
    v.push_back(ms * 1e3f);
  }
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void ensure(Ctx &c, int64_t in, int64_t out) {
  if (in > c.cap_in) {
    if (c.din) { cudaFree(c.din); cudaFree(c.dunp); cudaFreeHost(c.hin); cudaFreeHost(c.hunp); }
    CK(cudaMalloc(&c.din, in));
    CK(cudaMalloc(&c.dunp, in));
    CK(cudaMallocHost(&c.hin, in));
    CK(cudaMallocHost(&c.hunp, in));
    c.cap_in = in;
  }
  if (out > c.cap_out) {
    if (c.dout) { cudaFree(c.dout); cudaFreeHost(c.hout); cudaFreeHost(c.hchk); }
    CK(cudaMalloc(&c.dout, out));
    CK(cudaMallocHost(&c.hout, out));
    CK(cudaMallocHost(&c.hchk, out));
    c.cap_out = out;
  }
}

std::string fmt(double v) {
  if (v < 0) return "n/a";
  char b[32];
  snprintf(b, sizeof b, "%.2f", v);
  return b;
}

void row(Ctx &c, const Shape &s, uint32_t seed) {
  const char *forms[3] = {"vector", "hvector", "subarray"};
  // Spans of every form (the subarray's extent is larger for count > 1).
  int64_t span_max = 0;
  MPI_Datatype types[3];
  bool have[3];
  for (int f = 0; f < 3; ++f) {
    have[f] = f != 2 || subarray_ok(s);
    if (!have[f]) continue;
    types[f] = make_type(s, forms[f]);
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_get_extent(types[f], &lb, &ext);
    MPI_Type_get_true_extent(types[f], &tlb, &text);
    span_max = std::max<int64_t>(span_max, (s.count - 1) * (int64_t)ext + tlb + text);
  }
  int64_t packed = s.packed();
  if (span_max + s.offset > kMaxSpan) {
    printf("# skipped %s block=%lld s1=%lld packed=%lld: span %lld > 1.5 GiB\n", s.family.c_str(),
           (long long)s.block, (long long)s.s1, (long long)packed, (long long)span_max);
    for (int f = 0; f < 3; ++f)
      if (have[f]) MPI_Type_free(&types[f]);
    return;
  }
  int64_t span = span_max + s.offset;
  ensure(c, span, packed);
  unsigned char *in = c.din + s.offset;
  fill_kernel<<<1024, 256, 0, c.st>>>(c.din, span, seed);
  CK(cudaStreamSynchronize(c.st));
  CK(cudaMemcpy(c.hin, c.din, span, cudaMemcpyDeviceToHost));
  const double rw = 2.0 * packed;

  // Baselines (independent of the description).
  double t_d2d = measure([&] {
    CK(cudaMemcpyAsync(c.dout, in, packed, cudaMemcpyDeviceToDevice, c.st));
    CK(cudaStreamSynchronize(c.st));
  });
  double read_per_block = s.s1 < 64 ? (double)s.s1 : 64.0 * ((s.block + 63) / 64);
  if (s.s1 >= 64 && s.offset % 64 + s.block % 64 > 64) read_per_block += 64; // straddles a granule
  // Scales the d2d bandwidth to the granule ceiling; applied below, once t_d2d is final.
  const double granule_share = std::min(1.0, 2.0 * s.block / (s.block + read_per_block));
  double t_kernel = measure([&] {
    launch_gridstride(s, c.dout, in, c.st);
    CK(cudaStreamSynchronize(c.st));
  });
  // Check the baseline kernel once against the MPI (vector form) on the host.
  int pos = 0;
  MPI_Pack(c.hin + s.offset, s.count, types[0], c.hchk, (int)packed, &pos, MPI_COMM_SELF);
  CK(cudaMemcpy(c.hout, c.dout, packed, cudaMemcpyDeviceToHost));
  bool kernel_ok = memcmp(c.hout, c.hchk, packed) == 0;
  if (!kernel_ok) ++c.failures;
  double t_2d = measure([&] {
    for (int e = 0; e < s.count; ++e)
      for (int64_t p = 0; p < s.n2; ++p)
        CK(cudaMemcpy2DAsync(c.dout + (e * s.n2 + p) * s.n1 * s.block, s.block,
                             in + e * s.elemSpan() + p * s.s2, s.s1, s.block, s.n1,
                             cudaMemcpyDeviceToDevice, c.st));
    CK(cudaStreamSynchronize(c.st));
  });
  int64_t nblocks = s.n1 * s.n2 * s.count, timed_blocks = std::min<int64_t>(nblocks, 8192);
  double t_pb = measure([&] {
    for (int64_t k = 0; k < timed_blocks; ++k) {
      int64_t j1 = k % s.n1, r = k / s.n1, j2 = r % s.n2, e = r / s.n2;
      CK(cudaMemcpyAsync(c.dout + k * s.block, in + e * s.elemSpan() + j2 * s.s2 + j1 * s.s1,
                         s.block, cudaMemcpyDeviceToDevice, c.st));
    }
    CK(cudaStreamSynchronize(c.st));
  }, 5) * ((double)nblocks / timed_blocks);
  double t_host = measure([&] {
    CK(cudaMemcpyAsync(c.hin, c.din, span, cudaMemcpyDeviceToHost, c.st));
    CK(cudaStreamSynchronize(c.st));
    int p = 0;
    MPI_Pack(c.hin + s.offset, s.count, types[0], c.hout, (int)packed, &p, MPI_COMM_SELF);
  }, 10);

  // The three descriptions: each checked first, then all timed together in rounds (one call of
  // each per round) so that a slow spell of the machine falls on all of them alike.
  int rc[3] = {-1, -1, -1}, rcu[3] = {-1, -1, -1};
  std::string check[3] = {"n/a", "n/a", "n/a"};
  double t_tp[3] = {-1, -1, -1}, t_tu[3] = {-1, -1, -1};
  std::vector<int> seq; // the forms in the order they are measured
  for (int pos = 0; pos < 3; ++pos)
    if (have[c.order[(pos + c.rep) % 3]]) seq.push_back(c.order[(pos + c.rep) % 3]);
  for (int f : seq) {
    if (!c.tempi) break;
    // Reference: the MPI's own pack and unpack of the same data on the host.
    int p = 0;
    MPI_Pack(c.hin + s.offset, s.count, types[f], c.hchk, (int)packed, &p, MPI_COMM_SELF);
    CK(cudaMemset(c.dout, 0xEE, packed));
    CK(cudaDeviceSynchronize()); // cudaMemset may still run when it returns
    rc[f] = MPI_Pack(in, s.count, types[f], c.dout, (int)packed, &(p = 0), MPI_COMM_SELF);
    CK(cudaMemcpy(c.hout, c.dout, packed, cudaMemcpyDeviceToHost));
    bool ok = rc[f] == MPI_SUCCESS && p == packed && memcmp(c.hout, c.hchk, packed) == 0;
    // Unpack into a poisoned copy; compare the whole span with the MPI's unpack on the host.
    memset(c.hunp, 0x5A, span);
    p = 0;
    MPI_Unpack(c.hchk, (int)packed, &p, c.hunp + s.offset, s.count, types[f], MPI_COMM_SELF);
    CK(cudaMemset(c.dunp, 0x5A, span));
    CK(cudaDeviceSynchronize());
    rcu[f] = MPI_Unpack(c.dout, (int)packed, &(p = 0), c.dunp + s.offset, s.count, types[f],
                        MPI_COMM_SELF);
    CK(cudaMemcpy(c.hin, c.dunp, span, cudaMemcpyDeviceToHost)); // hin is refreshed below
    bool uok = rcu[f] == MPI_SUCCESS && memcmp(c.hin, c.hunp, span) == 0;
    if (!ok || !uok) { // say where, for the runtime's authors
      int64_t at = -1, n = !ok ? packed : span;
      const unsigned char *x = !ok ? c.hout : c.hin, *y = !ok ? c.hchk : c.hunp;
      for (int64_t i = 0; i < n && at < 0; ++i)
        if (x[i] != y[i]) at = i;
      fprintf(stderr, "bench-pack: %s %s block=%lld stride=%lld packed=%lld: %s differs first at byte %lld (got %u, want %u)\n",
              s.family.c_str(), forms[f], (long long)s.block, (long long)s.s1, (long long)packed,
              !ok ? "pack" : "unpack", (long long)at, at >= 0 ? x[at] : 0, at >= 0 ? y[at] : 0);
    }
    CK(cudaMemcpy(c.hin, c.din, span, cudaMemcpyDeviceToHost));
    check[f] = ok && uok ? "ok" : (!ok ? (rc[f] ? "PACK-ERROR" : "PACK-WRONG")
                                       : (rcu[f] ? "UNPACK-ERROR" : "UNPACK-WRONG"));
    if (!(ok && uok)) ++c.failures;
  }
  if (c.tempi) {
    double t_at = bench_now() - c.t0, mhz = c.detail ? gpu_mhz(c) : 0;
    std::vector<int> pf, uf; // forms whose pack / unpack succeeded
    std::vector<std::function<void()>> packs, unpacks;
    for (int f : seq) {
      if (rc[f] == MPI_SUCCESS) {
        pf.push_back(f);
        packs.push_back([&, f] {
          int q = 0;
          MPI_Pack(in, s.count, types[f], c.dout, (int)packed, &q, MPI_COMM_SELF);
        });
      }
      if (rcu[f] == MPI_SUCCESS) {
        uf.push_back(f);
        unpacks.push_back([&, f] {
          int q = 0;
          MPI_Unpack(c.dout, (int)packed, &q, c.dunp + s.offset, s.count, types[f], MPI_COMM_SELF);
        });
      }
    }
    // The d2d copy and the plain kernel run in the same rounds as the packs, so that the ratios
    // to them are taken over the same stretch of the machine (their earlier timings above stay
    // only where no pack ran: the plain build, or every form refused).
    if (!packs.empty()) {
      packs.push_back([&] {
        CK(cudaMemcpyAsync(c.dout, in, packed, cudaMemcpyDeviceToDevice, c.st));
        CK(cudaStreamSynchronize(c.st));
      });
      packs.push_back([&] {
        launch_gridstride(s, c.dout, in, c.st);
        CK(cudaStreamSynchronize(c.st));
      });
    }
    std::vector<std::vector<double>> psamples;
    std::vector<double> tp = measure_rounds(packs, &psamples), tu = measure_rounds(unpacks);
    if (!pf.empty()) {
      t_d2d = tp[pf.size()];
      t_kernel = tp[pf.size() + 1];
    }
    for (size_t i = 0; i < pf.size(); ++i) t_tp[pf[i]] = tp[i];
    for (size_t i = 0; i < uf.size(); ++i) t_tu[uf[i]] = tu[i];
    for (size_t i = 0; c.detail && i < pf.size(); ++i) {
      // Each pack timed again alone, then the d2d copy, the baseline kernel (host clock and GPU
      // events) and an empty launch next to it: tells a slow spell of the machine from the form.
      const int f = pf[i];
      std::string stats = sampleStats(psamples[i]);
      std::vector<double> sorted = psamples[i];
      std::sort(sorted.begin(), sorted.end());
      if (sorted[sorted.size() / 2] > 1.3 * sorted[0]) {
        std::string all;
        char b[32];
        for (double x : psamples[i]) {
          snprintf(b, sizeof b, " %.1f", x * 1e6);
          all += b;
        }
        printf("# samples %s block=%lld form=%s (us, in order):%s\n", s.family.c_str(),
               (long long)s.block, forms[f], all.c_str());
      }
      measure(packs[i]);
      std::string alone = sampleStats(g_last_raw);
      double d2d_now = measure([&] {
        CK(cudaMemcpyAsync(c.dout, in, packed, cudaMemcpyDeviceToDevice, c.st));
        CK(cudaStreamSynchronize(c.st));
      });
      double k_now = measure([&] {
        launch_gridstride(s, c.dout, in, c.st);
        CK(cudaStreamSynchronize(c.st));
      });
      double k_ev = kernel_event_us(c, s, in);
      double empty_now = measure([&] {
        empty_kernel<<<1, 1, 0, c.st>>>();
        CK(cudaStreamSynchronize(c.st));
      });
      printf("# detail %s block=%lld rep=%d pos=%zu form=%s t=%.3fs mhz=%.0f pack_us[%s] "
             "alone_us[%s] d2d_us=%.1f (row %.1f) kernel_us=%.1f (row %.1f) "
             "kernel_event_us=%.1f empty_us=%.1f\n",
             s.family.c_str(), (long long)s.block, c.rep, i, forms[f], t_at, mhz, stats.c_str(),
             alone.c_str(), d2d_now * 1e6, t_d2d * 1e6, k_now * 1e6, t_kernel * 1e6, k_ev,
             empty_now * 1e6);
    }
  }
  for (int f : seq) {
    auto bw = [&](double t) { return t > 0 ? rw / t / 1e9 : -1.0; };
    double d2d = bw(t_d2d), ceiling = d2d * granule_share;
    char line[1024];
    snprintf(line, sizeof line,
             "%s,%s,%lld,%lld,%lld,%lld,%lld,%d,%d,%d,%lld,%s,%s,%s,%s,%.3f,%s,%s,%s,%s,%s,%s,%s,"
             "%s,%s,%s,%.2f",
             s.family.c_str(), forms[f], (long long)packed, (long long)s.block, (long long)s.s1,
             (long long)s.n1, (long long)s.n2, s.count, s.offset, s.elem, (long long)span,
             fmt(bw(t_tp[f])).c_str(), fmt(bw(t_tu[f])).c_str(), check[f].c_str(),
             fmt(d2d).c_str(), ceiling, fmt(bw(t_kernel)).c_str(), kernel_ok ? "ok" : "WRONG",
             fmt(bw(t_2d)).c_str(), fmt(bw(t_pb)).c_str(), fmt(bw(t_host)).c_str(),
             t_tp[f] > 0 ? fmt(bw(t_tp[f]) / d2d).c_str() : "n/a",
             t_tp[f] > 0 ? fmt(bw(t_tp[f]) / ceiling).c_str() : "n/a",
             t_tp[f] > 0 && t_tu[f] > 0 ? fmt(t_tu[f] / t_tp[f]).c_str() : "n/a",
             t_tp[f] > 0 ? fmt(t_tp[f] * 1e6).c_str() : "n/a", fmt(t_kernel * 1e6).c_str(),
             c.empty_us);
    printf("%s\n", line);
    if (c.csv) fprintf(c.csv, "%s\n", line);
    fflush(stdout);
  }
  for (int f : seq) MPI_Type_free(&types[f]);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  bool quick = false;
  const char *csv = nullptr, *only = nullptr, *forms = nullptr;
  int only_elem = 0, repeat = 1, l2_fetch = -1;
  long long min_packed = 0;
  bool detail = false;
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--quick")) quick = true;
    else if (!strcmp(argv[a], "--csv") && a + 1 < argc) csv = argv[++a];
    else if (!strcmp(argv[a], "--only") && a + 1 < argc) only = argv[++a];
    else if (!strcmp(argv[a], "--elem") && a + 1 < argc) only_elem = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--min-packed") && a + 1 < argc) min_packed = atoll(argv[++a]);
    else if (!strcmp(argv[a], "--l2-fetch") && a + 1 < argc) l2_fetch = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--forms") && a + 1 < argc) forms = argv[++a];
    else if (!strcmp(argv[a], "--repeat") && a + 1 < argc) repeat = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--detail")) detail = true;
    else {
      fprintf(stderr, "usage: bench-pack [--quick] [--csv FILE] [--only FAMILY] [--elem BYTES]\n"
                      "                  [--forms ORDER] [--repeat N] [--detail]\n"
                      "                  [--min-packed BYTES] [--l2-fetch BYTES]\n");
      MPI_Finalize();
      return 1;
    }
  }
  bench_require_gpu("bench-pack");
  Ctx c;
  c.tempi = bench_tempi_linked();
  CK(cudaStreamCreateWithFlags(&c.st, cudaStreamNonBlocking));
  if (csv) c.csv = fopen(csv, "w");
  c.detail = detail;
  c.t0 = bench_now();
  CK(cudaEventCreate(&c.ev0));
  CK(cudaEventCreate(&c.ev1));
  if (forms) { // e.g. "subarray,hvector,vector": the order the three descriptions are measured in
    c.order.clear();
    const char *names[3] = {"vector", "hvector", "subarray"};
    std::string list = forms;
    size_t at = 0;
    while (at <= list.size()) {
      size_t comma = list.find(',', at);
      std::string name = list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      for (int f = 0; f < 3; ++f)
        if (name == names[f]) c.order.push_back(f);
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    if (c.order.size() != 3) {
      fprintf(stderr, "bench-pack: --forms needs vector, hvector and subarray, comma-separated\n");
      MPI_Finalize();
      return 1;
    }
  }
  bench_header("bench-pack", "pack/unpack bandwidth (GB/s = 2 x packed bytes / time)");
  // The L2's maximum fetch granularity (a context-wide hint): what the driver reports, and with
  // --l2-fetch what it reports after being asked for another value.
  size_t granularity = 0;
  if (l2_fetch >= 0) CK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, (size_t)l2_fetch));
  if (cudaDeviceGetLimit(&granularity, cudaLimitMaxL2FetchGranularity) == cudaSuccess)
    printf("# L2 max fetch granularity: %zu B%s\n", granularity, l2_fetch >= 0 ? " (set by --l2-fetch)" : "");
  if (quick) { g_min_time = 0.005; g_max_reps = 20; }
  c.empty_us = 1e6 * measure([&] {
    empty_kernel<<<1, 1, 0, c.st>>>();
    CK(cudaStreamSynchronize(c.st));
  }, 200);
  printf("# empty kernel launch + synchronize: %.2f us\n", c.empty_us);
  const char *cols =
      "family,form,packed_B,block_B,stride_B,n1,n2,count,offset_B,elem_B,span_B,tempi_pack_GBps,"
      "tempi_unpack_GBps,tempi_check,d2d_GBps,ceiling_GBps,kernel_GBps,kernel_check,"
      "memcpy2d_GBps,perblock_GBps,hostpack_GBps,tempi_over_d2d,tempi_over_ceiling,"
      "unpack_over_pack_time,tempi_pack_us,kernel_us,empty_launch_us";
  printf("%s\n", cols);
  if (c.csv) fprintf(c.csv, "%s\n", cols);

  std::vector<Shape> shapes;
  std::vector<int64_t> objects = quick ? std::vector<int64_t>{1024, 65536, 4 << 20, 64 << 20}
                                       : std::vector<int64_t>{1024, 65536, 1 << 20, 4 << 20,
                                                              64 << 20, 256 << 20};
  std::vector<int64_t> blocks = quick ? std::vector<int64_t>{1, 4, 8, 32, 64, 512, 4096}
                                      : std::vector<int64_t>{1, 2, 4, 8, 16, 32, 64, 128, 512, 4096};
  for (int64_t obj : objects)
    for (int64_t b : blocks) {
      if (b > obj || (obj > (64 << 20) && b < 8)) continue; // 256 MiB of 1-4 B blocks: minutes of host MPI_Pack
      std::vector<int64_t> strides = {2 * b, 512, 4096};
      std::sort(strides.begin(), strides.end());
      strides.erase(std::unique(strides.begin(), strides.end()), strides.end());
      for (int64_t st : strides)
        if (st >= b && st > b) shapes.push_back({"2d", b, obj / b, st, 1, 0, 1, 0, 1});
    }
  for (int cnt : {2, 64})
    for (int64_t b : {8, 64})
      shapes.push_back({"2d-count", b, (1 << 20) / b / cnt, 512, 1, 0, cnt, 0, 1});
  for (int off : {1, 4})
    for (int64_t b : {8, 64, 4096})
      shapes.push_back({"2d-misaligned", b, (4 << 20) / b, b == 4096 ? 8192 : 512, 1, 0, 1, off, 1});
  const int64_t N = 256;
  for (int e : {4, 8, 64})
    for (int r : (quick ? std::vector<int>{3} : std::vector<int>{1, 2, 3})) {
      int64_t w = N + 2 * r;
      // x face: r elements per row, N rows per plane, N planes; y face: N elements, r rows, N planes.
      shapes.push_back({"3d-xface", r * e, N, w * e, N, w * w * e, 1, 0, e});
      shapes.push_back({"3d-yface", N * e, r, w * e, N, w * w * e, 1, 0, e});
    }
  if (only || only_elem || min_packed) // --only FAMILY / --elem / --min-packed: those shapes alone
    shapes.erase(std::remove_if(shapes.begin(), shapes.end(),
                                [&](const Shape &s) {
                                  return (only && s.family != only) ||
                                         (only_elem && s.elem != only_elem) ||
                                         s.packed() < min_packed;
                                }),
                 shapes.end());
  uint32_t seed = 1;
  for (int r = 0; r < repeat; ++r) { // each repetition starts one description further on
    c.rep = r;
    seed = 1;
    for (const Shape &s : shapes) row(c, s, seed++);
  }
  printf("# rows with a failed check: %ld\n", c.failures);
  if (c.csv) fclose(c.csv);
  MPI_Finalize();
  return c.failures ? 1 : 0;
}
