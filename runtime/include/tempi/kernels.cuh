/// \file
/// Pack and unpack kernels for strided datatypes and block lists, header-only, shared by the
/// runtime's generic path (runtime/src/device/) and by the kernels tempi-cc generates.
///
/// A StridedBlock (passes/StridedBlock.h) packs as a flat sequence of W-byte words. Thread t of
/// the grid handles packed word t, then strides by the T threads of the grid (a grid of up to 8
/// waves of resident blocks; U words per step is a parameter, 1 by measurement). For packed word i the strided source is found by peeling i with
/// divisions: first by the words per run (giving the word in the run), then by each outer count
/// (innermost first), the last quotient being the element index (stepped by the MPI extent). So a
/// warp always writes (pack) or reads (unpack) 32 consecutive packed words, whatever the run length,
/// and no lane idles on short runs. docs/kernels.md explains the choice and gives measurements.
///
/// Generated code, for a shape known at compile time:
///   tempi::kernels::packStatic<W, Start, Bytes, Extent, Dims...>(packed, base, count, stream)
///   tempi::kernels::unpackStatic<W, Start, Bytes, Extent, Dims...>(base, packed, count, stream)
/// Dims... is the flat list count0, stride0, count1, stride1, ... (innermost first). W must divide
/// Start, Bytes, every stride, Extent, the base address and the packed address: the runtime checks
/// the addresses before it calls a registered kernel; these functions check them again and refuse
/// (TEMPI_ERR_INVALID_ARG) rather than fault. Every division is by a constant here, so the compiler
/// turns it into a multiply and shift.
///
/// The runtime, for a shape known only at run time:
///   tempi::kernels::packGeneric(W, shape, packed, base, count, stream)
///   tempi::kernels::unpackGeneric(W, shape, base, packed, count, stream)
/// with W already lowered to fit the addresses. Shapes of 0..3 outer dimensions (after the element
/// dimension is appended and adjacent dimensions are merged) use unrolled index code, more use a
/// loop. Up to 2^31 - 1 packed words use 32-bit multiply-shift division (FastDivmod), beyond that
/// 64-bit division.
///
/// Block lists (irregular types): packBlocks/unpackBlocks copy count elements of nb (offset,
/// length) blocks, one thread per block for short blocks, one warp per block for long ones, each
/// block with the widest word its addresses and length allow.
///
/// Every function enqueues on `stream` and returns without synchronizing; launch errors are
/// reported through TEMPI_CUDA_CHECK (file:line, the call, the code) as TEMPI_ERR_CUDA. That
/// macro (and TEMPI_CUDA_LOG_ONLY) is the one CUDA check of libtempi; a host-only C++ file may
/// include this header for it alone (everything else needs nvcc and is hidden from others).
#pragma once

#include "tempi/tempi.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

/// The one CUDA check of libtempi: on failure prints file:line, the call and the error, clears the
/// (non-sticky) error state so the next call starts clean, and returns TEMPI_ERR_CUDA from the
/// enclosing function. Never aborts.
#define TEMPI_CUDA_CHECK(call)                                                                    \
  do {                                                                                            \
    cudaError_t tempi_cuda_err_ = (call);                                                         \
    if (tempi_cuda_err_ != cudaSuccess) {                                                         \
      ::tempi::kernels::reportCudaError(__FILE__, __LINE__, #call, tempi_cuda_err_);              \
      return TEMPI_ERR_CUDA;                                                                      \
    }                                                                                             \
  } while (0)

/// The policy where an error can only be logged (void functions, finalize): the same report, and
/// evaluates to true when the call succeeded.
#define TEMPI_CUDA_LOG_ONLY(call) ::tempi::kernels::logCuda((call), __FILE__, __LINE__, #call)

namespace tempi::kernels {

inline void reportCudaError(const char *file, int line, const char *call, cudaError_t err) {
  std::fprintf(stderr, "tempi: %s:%d: %s failed: %s (%d): %s\n", file, line, call,
               cudaGetErrorName(err), static_cast<int>(err), cudaGetErrorString(err));
  (void)cudaGetLastError(); // clear the error so that later calls do not report it again
}

inline bool logCuda(cudaError_t err, const char *file, int line, const char *call) {
  if (err == cudaSuccess) return true;
  reportCudaError(file, line, call, err);
  return false;
}

// The rest is CUDA: host-only C++ files of the device layer include this header for the check
// macro above and see nothing below.
#if defined(__CUDACC__)

constexpr int kThreads = 256;      ///< threads per block of every strided kernel
constexpr int kMaxShapeDims = TEMPI_MAX_DIMS + 1; ///< outer dimensions plus the element dimension

/// The word a thread moves: W bytes, naturally aligned.
template <int W> struct Word;
template <> struct Word<16> { using type = uint4; };
template <> struct Word<8> { using type = unsigned long long; };
template <> struct Word<4> { using type = unsigned int; };
template <> struct Word<2> { using type = unsigned short; };
template <> struct Word<1> { using type = unsigned char; };

/// Words per thread per grid-stride step. Measured on an H100 (docs/kernels.md): one word a
/// thread over a grid of up to 8 waves beat 4 or 8 words in flight per thread over one wave on
/// every shape (DRAM parallelism comes from more warps, not from more loads per warp).
template <int W> __host__ __device__ constexpr int unrollFor() { return 1; }
/// Grid cap, in waves of resident blocks (see unrollFor).
constexpr unsigned kDefaultWaves = 8;

/// n / d and n % d for a divisor fixed at launch, by multiply and shift (valid for n < 2^31).
struct FastDivmod {
  uint32_t divisor = 1, multiplier = 0, shift = 0;
  FastDivmod() = default;
  __host__ __device__ explicit FastDivmod(uint32_t d) : divisor(d) {
    if (d > 1) {
      uint32_t l = 0; // ceil(log2(d))
      while ((uint64_t{1} << l) < d) ++l;
      const uint32_t p = 31 + l;
      multiplier = static_cast<uint32_t>(((uint64_t{1} << p) + d - 1) / d);
      shift = p - 32;
    }
  }
  __host__ __device__ uint32_t div(uint32_t n) const {
    if (divisor == 1) return n;
#ifdef __CUDA_ARCH__
    return __umulhi(n, multiplier) >> shift;
#else
    return static_cast<uint32_t>((uint64_t{n} * multiplier) >> 32) >> shift;
#endif
  }
  __host__ __device__ void divmod(uint32_t n, uint32_t &q, uint32_t &r) const {
    q = div(n);
    r = n - q * divisor;
  }
};

/// 64-bit plain division, for more than 2^31 - 1 packed words.
struct SlowDivmod {
  uint64_t divisor = 1;
  SlowDivmod() = default;
  __host__ __device__ explicit SlowDivmod(uint64_t d) : divisor(d) {}
  __host__ __device__ void divmod(uint64_t n, uint64_t &q, uint64_t &r) const {
    q = n / divisor;
    r = n - q * divisor;
  }
};

template <class Idx> struct DivmodFor;
template <> struct DivmodFor<uint32_t> { using type = FastDivmod; };
template <> struct DivmodFor<uint64_t> { using type = SlowDivmod; };

/// A shape known at run time with N outer dimensions (the last one is usually the element
/// dimension, stride = extent). N = -1: up to kMaxShapeDims, looped.
template <int N, class Idx> struct RuntimeShape {
  using Div = typename DivmodFor<Idx>::type;
  static constexpr int kSlots = N < 0 ? kMaxShapeDims : (N == 0 ? 1 : N);
  int64_t start = 0;  ///< bytes
  int nd = 0;         ///< used when N < 0
  Div words;          ///< words per run
  Div counts[kSlots]; ///< counts[j] for j < nd - 1 (the last count is never divided by)
  int64_t strides[kSlots];

  /// Byte offset of word i, with exactly Outer outer dimensions walked by an unrolled loop: N's
  /// own count, or, for a looped shape (N < 0) whose nd is known to be Outer, a faster walk
  /// (the fused kernel dispatches on nd).
  template <int Outer, int W> __host__ __device__ int64_t offsetUnrolled(Idx i) const {
    static_assert(Outer >= 0 && Outer <= kSlots, "more dimensions than the shape holds");
    Idx q, w;
    words.divmod(i, q, w);
    int64_t off = start + static_cast<int64_t>(w) * W;
    if constexpr (Outer == 0) {
      return off;
    } else {
#pragma unroll
      for (int j = 0; j < Outer - 1; ++j) {
        Idx r;
        counts[j].divmod(q, q, r);
        off += static_cast<int64_t>(r) * strides[j];
      }
      return off + static_cast<int64_t>(q) * strides[Outer - 1];
    }
  }

  template <int W> __host__ __device__ int64_t offset(Idx i) const {
    if constexpr (N >= 0) {
      return offsetUnrolled<N, W>(i);
    } else {
      Idx q, w;
      words.divmod(i, q, w);
      int64_t off = start + static_cast<int64_t>(w) * W;
      for (int j = 0; j < nd - 1; ++j) {
        Idx r;
        counts[j].divmod(q, q, r);
        off += static_cast<int64_t>(r) * strides[j];
      }
      return nd > 0 ? off + static_cast<int64_t>(q) * strides[nd - 1] : off;
    }
  }
};

/// Compile-time walk over the flat Dims... list (count, stride pairs, innermost first).
template <int64_t... Dims> struct DimList;
template <> struct DimList<> {
  static constexpr int64_t kRows = 1;
  static constexpr bool fits(int64_t) { return true; }
  template <class Idx> __host__ __device__ static int64_t peel(Idx &) { return 0; }
};
template <int64_t C, int64_t S, int64_t... Rest> struct DimList<C, S, Rest...> {
  using Next = DimList<Rest...>;
  static constexpr int64_t kRows = C * Next::kRows;
  static constexpr bool fits(int64_t w) { return C > 0 && S % w == 0 && Next::fits(w); }
  /// Byte offset of the index held in q for these dimensions; leaves the quotient in q.
  template <class Idx> __host__ __device__ static int64_t peel(Idx &q) {
    const Idx r = q % static_cast<Idx>(C);
    q /= static_cast<Idx>(C);
    return static_cast<int64_t>(r) * S + Next::peel(q);
  }
};

/// A shape known at compile time; only the element count is a run-time value.
template <int W, int64_t Start, int64_t Bytes, int64_t Extent, int64_t... Dims> struct StaticShape {
  using L = DimList<Dims...>;
  static_assert(sizeof...(Dims) % 2 == 0, "Dims... must be (count, stride) pairs");
  static_assert(W == 1 || W == 2 || W == 4 || W == 8 || W == 16, "W must be 1, 2, 4, 8 or 16");
  static_assert(Bytes > 0 && Bytes % W == 0, "W must divide Bytes");
  static_assert(Start % W == 0 && Extent % W == 0, "W must divide Start and Extent");
  static_assert(L::fits(W), "W must divide every stride, and every count must be positive");
  static constexpr int64_t kWords = Bytes / W;
  static constexpr int64_t kElementWords = kWords * L::kRows;

  template <int WW, class Idx> __host__ __device__ int64_t offset(Idx i) const {
    static_assert(WW == W, "one word size per static shape");
    Idx q = i / static_cast<Idx>(kWords);
    int64_t off = Start + static_cast<int64_t>(i - q * static_cast<Idx>(kWords)) * W;
    off += L::peel(q);
    return off + static_cast<int64_t>(q) * Extent;
  }
};

/// Cache policy of the strided kernel's accesses (a parameter so tempi-bench-pack can compare):
/// kCacheDefault plain loads and stores; kStreamLoads loads with ld.global.cs (evict first);
/// kStreamStores stores with st.global.cs; both bits for both.
enum : int { kCacheDefault = 0, kStreamLoads = 1, kStreamStores = 2 };

template <int Cache, class T> __device__ __forceinline__ T loadWord(const unsigned char *p) {
  if constexpr (Cache & kStreamLoads)
    return __ldcs(reinterpret_cast<const T *>(p));
  else
    return *reinterpret_cast<const T *>(p);
}
template <int Cache, class T> __device__ __forceinline__ void storeWord(unsigned char *p, T v) {
  if constexpr (Cache & kStreamStores)
    __stcs(reinterpret_cast<T *>(p), v);
  else
    *reinterpret_cast<T *>(p) = v;
}

/// The strided kernel: Pack moves strided -> packed, otherwise packed -> strided.
template <int W, bool Pack, class Idx, class Shape, int U = unrollFor<W>(),
          int Cache = kCacheDefault>
__global__ void __launch_bounds__(kThreads, 4)
    stridedKernel(const __grid_constant__ Shape shape, unsigned char *__restrict__ strided,
                  unsigned char *__restrict__ packed, Idx n) {
  using T = typename Word<W>::type;
  const Idx step = static_cast<Idx>(gridDim.x) * kThreads;
  for (Idx first = static_cast<Idx>(blockIdx.x) * kThreads + threadIdx.x; first < n;
       first += step * U) {
    T v[U];
    int64_t off[U];
#pragma unroll
    for (int k = 0; k < U; ++k) {
      const Idx i = first + k * step;
      if (i < n) {
        off[k] = shape.template offset<W>(i);
        if constexpr (Pack)
          v[k] = loadWord<Cache, T>(strided + off[k]);
        else
          v[k] = loadWord<Cache, T>(packed + static_cast<int64_t>(i) * W);
      }
    }
#pragma unroll
    for (int k = 0; k < U; ++k) {
      const Idx i = first + k * step;
      if (i < n) {
        if constexpr (Pack)
          storeWord<Cache, T>(packed + static_cast<int64_t>(i) * W, v[k]);
        else
          storeWord<Cache, T>(strided + off[k], v[k]);
      }
    }
  }
}

/// Multiprocessors of the current device (cached per device; 0 when none can be read).
inline int multiprocessors() {
  static int cached[64] = {};
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64) {
    (void)cudaGetLastError();
    return 132;
  }
  if (cached[dev] == 0) {
    int sms = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        sms <= 0) {
      (void)cudaGetLastError();
      sms = 132;
    }
    cached[dev] = sms;
  }
  return cached[dev];
}

/// Resident blocks per multiprocessor of one kernel (asked once per kernel; 1 when unknown).
template <class Kernel> inline int residentBlocks(Kernel k) {
  int blocks = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, kThreads, 0) != cudaSuccess ||
      blocks <= 0) {
    (void)cudaGetLastError();
    blocks = 1;
  }
  return blocks;
}

/// U (words in flight per thread), Cache and waves are parameters only so that tempi-bench-pack
/// can compare choices. The grid: one thread per word up to `waves` full waves of resident blocks
/// (a small pack spreads over many multiprocessors, which keeps its latency down); beyond that
/// each thread loops, U words at a time.
template <int W, bool Pack, class Idx, class Shape, int U = unrollFor<W>(),
          int Cache = kCacheDefault>
tempi_result launchStrided(const Shape &shape, void *strided, void *packed, uint64_t words,
                           cudaStream_t s, unsigned waves = kDefaultWaves) {
  if (words == 0) return TEMPI_SUCCESS;
  auto kernel = stridedKernel<W, Pack, Idx, Shape, U, Cache>;
  static const int resident = residentBlocks(kernel);
  const uint64_t needed = (words + kThreads - 1) / kThreads;
  const uint64_t cap = uint64_t(multiprocessors()) * uint64_t(resident) * waves;
  const unsigned grid = static_cast<unsigned>(needed < cap ? needed : cap);
  kernel<<<grid, kThreads, 0, s>>>(shape, static_cast<unsigned char *>(strided),
                                   static_cast<unsigned char *>(packed), static_cast<Idx>(words));
  TEMPI_CUDA_CHECK(cudaGetLastError());
  return TEMPI_SUCCESS;
}

/// Largest packed word count served with 32-bit index arithmetic.
constexpr uint64_t kMaxWords32 = (uint64_t{1} << 31) - 1;

inline bool aligned(const void *p, int w) {
  return (reinterpret_cast<uintptr_t>(p) & static_cast<uintptr_t>(w - 1)) == 0;
}

template <bool Pack, int W, int64_t Start, int64_t Bytes, int64_t Extent, int64_t... Dims>
tempi_result runStatic(void *strided, void *packed, int64_t count, cudaStream_t s) {
  using Shape = StaticShape<W, Start, Bytes, Extent, Dims...>;
  if (count < 0 || (count > 0 && (!strided || !packed))) return TEMPI_ERR_INVALID_ARG;
  if (!aligned(strided, W) || !aligned(packed, W)) return TEMPI_ERR_INVALID_ARG;
  const uint64_t words = uint64_t(count) * uint64_t(Shape::kElementWords);
  if (words <= kMaxWords32) return launchStrided<W, Pack, uint32_t>(Shape{}, strided, packed, words, s);
  return launchStrided<W, Pack, uint64_t>(Shape{}, strided, packed, words, s);
}

/// Pack `count` elements of the compile-time shape at `base` into `packed` (see the file comment).
template <int W, int64_t Start, int64_t Bytes, int64_t Extent, int64_t... Dims>
tempi_result packStatic(void *packed, const void *base, int64_t count, cudaStream_t s) {
  return runStatic<true, W, Start, Bytes, Extent, Dims...>(const_cast<void *>(base), packed,
                                                           count, s);
}

/// Unpack `count` elements from `packed` into the compile-time shape at `base`.
template <int W, int64_t Start, int64_t Bytes, int64_t Extent, int64_t... Dims>
tempi_result unpackStatic(void *base, const void *packed, int64_t count, cudaStream_t s) {
  return runStatic<false, W, Start, Bytes, Extent, Dims...>(base, const_cast<void *>(packed),
                                                            count, s);
}

/// A strided shape given at run time (the fields of a StridedBlock, without passes/ types, so
/// generated code and the runtime share this header without the passes/ library).
struct Strided {
  int64_t start = 0, bytes = 0, extent = 0;
  int ndims = 0;
  int64_t counts[TEMPI_MAX_DIMS] = {};
  int64_t strides[TEMPI_MAX_DIMS] = {};
};

/// The shape the kernels walk: the run, then outer dimensions with the element dimension
/// appended, count-1 dimensions dropped and dimensions merged where one continues the other
/// (dimension j+1's stride equals count_j * stride_j, or dimension 0's stride equals the run).
/// Every step keeps pack order, so packed bytes are unchanged.
struct Walk {
  int64_t start = 0, bytes = 0;
  int nd = 0;
  int64_t counts[kMaxShapeDims] = {}, strides[kMaxShapeDims] = {};
  uint64_t totalBytes = 0;
};

inline Walk makeWalk(const Strided &s, int64_t count) {
  Walk w;
  w.start = s.start;
  w.bytes = s.bytes;
  int64_t c[kMaxShapeDims + 1], st[kMaxShapeDims + 1];
  int n = 0;
  for (int j = 0; j < s.ndims && j < TEMPI_MAX_DIMS; ++j) {
    c[n] = s.counts[j];
    st[n] = s.strides[j];
    ++n;
  }
  c[n] = count;
  st[n] = s.extent;
  ++n;
  uint64_t total = uint64_t(s.bytes);
  for (int j = 0; j < n; ++j) total *= uint64_t(c[j] < 0 ? 0 : c[j]);
  w.totalBytes = total;
  if (total == 0) return w;
  for (int j = 0; j < n; ++j) {
    if (c[j] == 1) continue;
    if (w.nd == 0 && st[j] == w.bytes) { // the run continues: fold into it
      w.bytes *= c[j];
      continue;
    }
    if (w.nd > 0 && st[j] == w.counts[w.nd - 1] * w.strides[w.nd - 1]) { // merge with previous
      w.counts[w.nd - 1] *= c[j];
      continue;
    }
    w.counts[w.nd] = c[j];
    w.strides[w.nd] = st[j];
    ++w.nd;
  }
  return w;
}

template <int N, class Idx> RuntimeShape<N, Idx> toRuntimeShape(const Walk &w, int W) {
  using Div = typename DivmodFor<Idx>::type;
  RuntimeShape<N, Idx> r;
  r.start = w.start;
  r.nd = w.nd;
  r.words = Div(static_cast<Idx>(w.bytes / W));
  for (int j = 0; j < w.nd && j < RuntimeShape<N, Idx>::kSlots; ++j) {
    r.counts[j] = Div(static_cast<Idx>(w.counts[j]));
    r.strides[j] = w.strides[j];
  }
  return r;
}

template <bool Pack, int W, class Idx>
tempi_result runWalkIdx(const Walk &w, void *strided, void *packed, cudaStream_t s) {
  const uint64_t words = w.totalBytes / W;
  switch (w.nd) {
  case 0: return launchStrided<W, Pack, Idx>(toRuntimeShape<0, Idx>(w, W), strided, packed, words, s);
  case 1: return launchStrided<W, Pack, Idx>(toRuntimeShape<1, Idx>(w, W), strided, packed, words, s);
  case 2: return launchStrided<W, Pack, Idx>(toRuntimeShape<2, Idx>(w, W), strided, packed, words, s);
  case 3: return launchStrided<W, Pack, Idx>(toRuntimeShape<3, Idx>(w, W), strided, packed, words, s);
  default: return launchStrided<W, Pack, Idx>(toRuntimeShape<-1, Idx>(w, W), strided, packed, words, s);
  }
}

template <bool Pack, int W>
tempi_result runWalk(const Walk &w, void *strided, void *packed, cudaStream_t s) {
  if (w.totalBytes / W <= kMaxWords32) return runWalkIdx<Pack, W, uint32_t>(w, strided, packed, s);
  // 64-bit words: only the looped shape (rare, and division dominates less at that size)
  return launchStrided<W, Pack, uint64_t>(toRuntimeShape<-1, uint64_t>(w, W), strided, packed,
                                          w.totalBytes / W, s);
}

/// True when W divides every byte quantity of the walk (start, run, strides).
inline bool walkFits(const Walk &w, int W) {
  if (w.start % W || w.bytes % W) return false;
  for (int j = 0; j < w.nd; ++j)
    if (w.strides[j] % W) return false;
  return true;
}

template <bool Pack>
tempi_result runGeneric(int W, const Strided &shape, void *strided, void *packed, int64_t count,
                        cudaStream_t s) {
  if (count < 0 || shape.ndims < 0 || shape.ndims > TEMPI_MAX_DIMS || shape.bytes < 0)
    return TEMPI_ERR_INVALID_ARG;
  for (int j = 0; j < shape.ndims; ++j)
    if (shape.counts[j] < 0) return TEMPI_ERR_INVALID_ARG;
  const Walk w = makeWalk(shape, count);
  if (w.totalBytes == 0) return TEMPI_SUCCESS;
  if (!strided || !packed) return TEMPI_ERR_INVALID_ARG;
  if (!(W == 1 || W == 2 || W == 4 || W == 8 || W == 16) || !walkFits(w, W) ||
      !aligned(strided, W) || !aligned(packed, W))
    return TEMPI_ERR_INVALID_ARG;
  switch (W) {
  case 16: return runWalk<Pack, 16>(w, strided, packed, s);
  case 8: return runWalk<Pack, 8>(w, strided, packed, s);
  case 4: return runWalk<Pack, 4>(w, strided, packed, s);
  case 2: return runWalk<Pack, 2>(w, strided, packed, s);
  default: return runWalk<Pack, 1>(w, strided, packed, s);
  }
}

/// Pack `count` elements of a run-time shape with word size W (W must divide the shape's byte
/// quantities and both addresses; TEMPI_ERR_INVALID_ARG otherwise).
inline tempi_result packGeneric(int W, const Strided &shape, void *packed, const void *base,
                                int64_t count, cudaStream_t s) {
  return runGeneric<true>(W, shape, const_cast<void *>(base), packed, count, s);
}
inline tempi_result unpackGeneric(int W, const Strided &shape, void *base, const void *packed,
                                  int64_t count, cudaStream_t s) {
  return runGeneric<false>(W, shape, base, const_cast<void *>(packed), count, s);
}

/// The largest word size in {16, 8, 4, 2, 1} that divides the shape's byte quantities (with the
/// element dimension for this count) and both addresses.
inline int widestWord(const Strided &shape, int64_t count, const void *a, const void *b) {
  const Walk w = makeWalk(shape, count);
  for (int W = 16; W > 1; W /= 2)
    if (walkFits(w, W) && aligned(a, W) && aligned(b, W)) return W;
  return 1;
}

// ---------------------------------------------------------------------------------------------
// Block lists (irregular types)

/// The device table of one element's blocks, in pack order.
struct BlockTable {
  const int64_t *offsets = nullptr; ///< byte offset of each block from the element's start
  const int64_t *lengths = nullptr; ///< bytes of each block
  const int64_t *packedAt = nullptr; ///< exclusive prefix sum of lengths
  int64_t blocks = 0, extent = 0, size = 0;
};

template <int W>
__device__ inline void copyWordsThread(unsigned char *dst, const unsigned char *src, int64_t n) {
  using T = typename Word<W>::type;
  for (int64_t k = 0; k < n; k += W)
    *reinterpret_cast<T *>(dst + k) = *reinterpret_cast<const T *>(src + k);
}

template <int W>
__device__ inline void copyWordsWarp(unsigned char *dst, const unsigned char *src, int64_t n,
                                     int lane) {
  using T = typename Word<W>::type;
  for (int64_t k = int64_t(lane) * W; k < n; k += 32 * W)
    *reinterpret_cast<T *>(dst + k) = *reinterpret_cast<const T *>(src + k);
}

__device__ inline int blockWord(const unsigned char *a, const unsigned char *b, int64_t n) {
  const uint64_t m = uint64_t(reinterpret_cast<uintptr_t>(a)) |
                     uint64_t(reinterpret_cast<uintptr_t>(b)) | uint64_t(n);
  return (m & 15) == 0 ? 16 : (m & 7) == 0 ? 8 : (m & 3) == 0 ? 4 : (m & 1) == 0 ? 2 : 1;
}

/// One thread (PerWarp = false) or one warp (PerWarp = true) per block of the list.
template <bool Pack, bool PerWarp>
__global__ void __launch_bounds__(kThreads)
    blockListKernel(const BlockTable t, unsigned char *strided, unsigned char *packed,
                    uint64_t totalBlocks) {
  const uint64_t lanesPer = PerWarp ? 32 : 1;
  const uint64_t gid = (uint64_t(blockIdx.x) * kThreads + threadIdx.x);
  const uint64_t step = uint64_t(gridDim.x) * kThreads / lanesPer;
  const int lane = PerWarp ? int(threadIdx.x & 31) : 0;
  for (uint64_t g = gid / lanesPer; g < totalBlocks; g += step) {
    const uint64_t e = g / uint64_t(t.blocks), k = g - e * uint64_t(t.blocks);
    unsigned char *s = strided + int64_t(e) * t.extent + t.offsets[k];
    unsigned char *p = packed + int64_t(e) * t.size + t.packedAt[k];
    const int64_t n = t.lengths[k];
    unsigned char *dst = Pack ? p : s;
    const unsigned char *src = Pack ? s : p;
    const int w = blockWord(dst, src, n);
    if constexpr (PerWarp) {
      switch (w) {
      case 16: copyWordsWarp<16>(dst, src, n, lane); break;
      case 8: copyWordsWarp<8>(dst, src, n, lane); break;
      case 4: copyWordsWarp<4>(dst, src, n, lane); break;
      case 2: copyWordsWarp<2>(dst, src, n, lane); break;
      default: copyWordsWarp<1>(dst, src, n, lane); break;
      }
    } else {
      switch (w) {
      case 16: copyWordsThread<16>(dst, src, n); break;
      case 8: copyWordsThread<8>(dst, src, n); break;
      case 4: copyWordsThread<4>(dst, src, n); break;
      case 2: copyWordsThread<2>(dst, src, n); break;
      default: copyWordsThread<1>(dst, src, n); break;
      }
    }
  }
}

template <bool Pack>
tempi_result runBlocks(const BlockTable &t, void *strided, void *packed, int64_t count,
                       cudaStream_t s) {
  if (count < 0 || t.blocks < 0) return TEMPI_ERR_INVALID_ARG;
  if (count == 0 || t.blocks == 0 || t.size == 0) return TEMPI_SUCCESS;
  if (!strided || !packed || !t.offsets || !t.lengths || !t.packedAt) return TEMPI_ERR_INVALID_ARG;
  const uint64_t total = uint64_t(count) * uint64_t(t.blocks);
  const bool perWarp = t.size / t.blocks >= 64; // long blocks: a warp each
  const uint64_t threads = perWarp ? total * 32 : total;
  const uint64_t full = uint64_t(multiprocessors()) * (2048 / kThreads);
  uint64_t grid = (threads + kThreads - 1) / kThreads;
  if (grid > full) grid = full;
  auto *sp = static_cast<unsigned char *>(strided);
  auto *pp = static_cast<unsigned char *>(packed);
  if (perWarp)
    blockListKernel<Pack, true><<<unsigned(grid), kThreads, 0, s>>>(t, sp, pp, total);
  else
    blockListKernel<Pack, false><<<unsigned(grid), kThreads, 0, s>>>(t, sp, pp, total);
  TEMPI_CUDA_CHECK(cudaGetLastError());
  return TEMPI_SUCCESS;
}

inline tempi_result packBlocks(const BlockTable &t, void *packed, const void *base, int64_t count,
                               cudaStream_t s) {
  return runBlocks<true>(t, const_cast<void *>(base), packed, count, s);
}
inline tempi_result unpackBlocks(const BlockTable &t, void *base, const void *packed,
                                 int64_t count, cudaStream_t s) {
  return runBlocks<false>(t, base, const_cast<void *>(packed), count, s);
}

#endif // __CUDACC__

} // namespace tempi::kernels
