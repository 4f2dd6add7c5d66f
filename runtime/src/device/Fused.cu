/// \file
/// packMany()/unpackMany(): the strided packs (or unpacks) of a batch of requests in one launch.
///
/// A halo exchange sends and receives tens to hundreds of small faces; one launch each costs more
/// than the copies themselves. The fused kernel takes a table of segments (one per job: its walk
/// shape, word size, addresses, word count and first block), gives each segment a contiguous
/// range of thread blocks sized to its words, and each block finds its segment by a 32-ary
/// search over the first-block prefix (findSegment). Inside a segment the walk is the generic
/// kernel's (RuntimeShape of tempi/kernels.cuh, unrolled for up to 3 outer dimensions), so packed
/// bytes are those of the single-job path; each thread moves up to kWordsPerThread words, loads
/// first.
///
/// The table goes to the device by one asynchronous copy from a per-thread pinned buffer (skipped
/// when the device already holds the same table, or the same with every packed address moved by
/// one amount, which the kernel then adds; see Table). That buffer is reused by the
/// thread's next batch, which is safe because every caller synchronizes the stream before it
/// returns (the batch's staging is released only after that too).
///
/// A job the fused kernel cannot take (more than 2^31 - 1 words, more outer dimensions than the
/// walk holds) runs on the single-job path, enqueued on the same stream.
#include "runtime/src/device/Device.h"
#include "runtime/src/device/Generic.h"
#include "runtime/src/device/Internal.h"
#include "tempi/kernels.cuh"

#include <algorithm>
#include <cstring>
#include <vector>

namespace tempi::device {

namespace {

using Shape = kernels::RuntimeShape<-1, uint32_t>;

struct Segment {
  Shape shape;
  unsigned char *strided;
  unsigned char *packed;
  uint32_t words;
  uint32_t firstBlock;
  int w;
};

/// Blocks per segment: one thread per word, capped so that one huge face cannot starve the grid.
constexpr uint32_t kMaxBlocksPerSegment = 1024;
/// Words a thread moves (at most; fewer at a segment's end). Timed on an H100 with the halo
/// exchange's faces (session 5): 4 against 1 took the 128^3 pack from 52 to 40 us (Isend variant)
/// and from 36-43 to 31 us (Neighbor_alltoallw variant); 64^3 within the noise.
constexpr uint32_t kWordsPerThread = 4;
/// Segments per launch: larger batches are launched in chunks.
constexpr size_t kMaxSegments = 4096;

/// Byte offset of word i of a segment whose walk has N outer dimensions (N < 0: any, looped). A
/// halo face has 2 or 3; unrolling them saves the looped walk's bound checks and lets the
/// divisions of consecutive words overlap.
template <int N, int W> __device__ __forceinline__ int64_t offsetOf(const Shape &s, uint32_t i) {
  if constexpr (N < 0)
    return s.template offset<W>(i);
  else
    return s.template offsetUnrolled<N, W>(i);
}

/// Each thread moves up to K words per round, all K loads issued before the first store, so a
/// pack (strided, uncoalesced reads) has K reads in flight per thread rather than one.
template <int W, bool Pack, int N>
__device__ void moveSegment(const Segment &s, unsigned char *packed, uint32_t block,
                            uint32_t blocks) {
  constexpr int K = kWordsPerThread;
  using T = typename kernels::Word<W>::type;
  const uint32_t step = blocks * kernels::kThreads;
  for (uint32_t i = block * kernels::kThreads + threadIdx.x; i < s.words; i += step * K) {
    T v[K];
    int64_t off[K];
#pragma unroll
    for (int u = 0; u < K; ++u) {
      const uint32_t idx = i + u * step;
      if (idx < s.words) {
        off[u] = offsetOf<N, W>(s.shape, idx);
        v[u] = Pack ? *reinterpret_cast<const T *>(s.strided + off[u])
                    : *reinterpret_cast<const T *>(packed + int64_t(idx) * W);
      }
    }
#pragma unroll
    for (int u = 0; u < K; ++u) {
      const uint32_t idx = i + u * step;
      if (idx < s.words) {
        if constexpr (Pack)
          *reinterpret_cast<T *>(packed + int64_t(idx) * W) = v[u];
        else
          *reinterpret_cast<T *>(s.strided + off[u]) = v[u];
      }
    }
  }
}

template <int W, bool Pack>
__device__ void moveSegmentW(const Segment &s, unsigned char *packed, uint32_t block,
                             uint32_t blocks) {
  switch (s.shape.nd) {
  case 0: moveSegment<W, Pack, 0>(s, packed, block, blocks); break;
  case 1: moveSegment<W, Pack, 1>(s, packed, block, blocks); break;
  case 2: moveSegment<W, Pack, 2>(s, packed, block, blocks); break;
  case 3: moveSegment<W, Pack, 3>(s, packed, block, blocks); break;
  default: moveSegment<W, Pack, -1>(s, packed, block, blocks); break;
  }
}

/// Warp 0 finds the last segment whose first block is <= b by a 32-ary search (two rounds of
/// one load a lane for up to 1024 segments, instead of a dependent load per halving).
__device__ int findSegment(const Segment *__restrict__ segments, int n, uint32_t b) {
  int lo = 0, hi = n; // segments[lo].firstBlock <= b (segment 0 starts at block 0); answer < hi
  while (hi - lo > 1) {
    const int span = (hi - lo + 31) / 32;
    const int idx = lo + int(threadIdx.x) * span;
    const bool ok = idx < hi && segments[idx].firstBlock <= b;
    const unsigned m = __ballot_sync(0xffffffffu, ok);
    lo += (31 - __clz(m)) * span; // lane 0 always qualifies
    hi = min(hi, lo + span);
  }
  return lo;
}

/// packedShift: added to every segment's packed address (see Table::upload).
template <bool Pack>
__global__ void __launch_bounds__(kernels::kThreads)
    fusedKernel(const Segment *__restrict__ segments, int n, uint32_t totalBlocks,
                intptr_t packedShift) {
  static_assert(sizeof(Segment) % 4 == 0 && alignof(Segment) >= 4, "copied as 32-bit words");
  // raw storage: a __shared__ object may not have a constructor
  __shared__ alignas(Segment) unsigned char raw[sizeof(Segment)];
  __shared__ uint32_t blocks;
  __shared__ int found;
  Segment &seg = *reinterpret_cast<Segment *>(raw);
  if (threadIdx.x < 32) {
    const int lo = findSegment(segments, n, blockIdx.x);
    if (threadIdx.x == 0) {
      found = lo;
      blocks = (lo + 1 < n ? segments[lo + 1].firstBlock : totalBlocks) - segments[lo].firstBlock;
    }
  }
  __syncthreads();
  { // the whole block copies the segment into shared memory, one 32-bit word a thread
    const uint32_t *src = reinterpret_cast<const uint32_t *>(&segments[found]);
    uint32_t *dst = reinterpret_cast<uint32_t *>(raw);
    for (unsigned k = threadIdx.x; k < sizeof(Segment) / 4; k += blockDim.x) dst[k] = src[k];
  }
  __syncthreads();
  const uint32_t block = blockIdx.x - seg.firstBlock;
  unsigned char *packed =
      reinterpret_cast<unsigned char *>(reinterpret_cast<uintptr_t>(seg.packed) + packedShift);
  switch (seg.w) {
  case 16: moveSegmentW<16, Pack>(seg, packed, block, blocks); break;
  case 8: moveSegmentW<8, Pack>(seg, packed, block, blocks); break;
  case 4: moveSegmentW<4, Pack>(seg, packed, block, blocks); break;
  case 2: moveSegmentW<2, Pack>(seg, packed, block, blocks); break;
  default: moveSegmentW<1, Pack>(seg, packed, block, blocks); break;
  }
}

/// Whether the kernel would move the same words for a and b, packed addresses aside: every other
/// field it reads (a FastDivmod's multiplier and shift follow from its divisor; slots past nd are
/// never read). Not memcmp: the struct has padding that nothing initializes.
bool sameApartFromPacked(const Segment &a, const Segment &b) {
  if (a.strided != b.strided || a.words != b.words ||
      a.firstBlock != b.firstBlock || a.w != b.w || a.shape.start != b.shape.start ||
      a.shape.nd != b.shape.nd || a.shape.words.divisor != b.shape.words.divisor)
    return false;
  for (int j = 0; j < a.shape.nd && j < Shape::kSlots; ++j)
    if (a.shape.counts[j].divisor != b.shape.counts[j].divisor ||
        a.shape.strides[j] != b.shape.strides[j])
      return false;
  return true;
}

uintptr_t addressOf(const unsigned char *p) { return reinterpret_cast<uintptr_t>(p); }

/// The calling thread's segment tables: pinned host memory for building one, and device memory
/// for the kernel, one for packs and one for unpacks. Grown, never shrunk; released with the
/// thread (the process exits after finalize()). A halo exchange packs the same faces every
/// iteration, so each direction remembers the table it last uploaded from index 0: an identical
/// table is not uploaded again (the upload's latency was a tenth of a face pack's GPU time).
struct Table {
  Segment *host = nullptr;
  Segment *device[2] = {nullptr, nullptr}; // [Pack]
  std::vector<Segment> uploaded[2];        // what device[Pack][0, size) holds
  size_t capacity = 0;
  ~Table() {
    if (host) (void)cudaFreeHost(host);
    for (Segment *d : device)
      if (d) (void)cudaFree(d);
  }
  tempi_result reserve(size_t n) {
    if (n <= capacity) return TEMPI_SUCCESS;
    size_t want = capacity ? capacity : 64;
    while (want < n) want *= 2;
    if (host) TEMPI_CUDA_CHECK(cudaFreeHost(host));
    host = nullptr;
    for (int k = 0; k < 2; ++k) {
      if (device[k]) TEMPI_CUDA_CHECK(cudaFree(device[k]));
      device[k] = nullptr;
      uploaded[k].clear();
    }
    capacity = 0;
    TEMPI_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void **>(&host), want * sizeof(Segment)));
    for (Segment *&d : device)
      TEMPI_CUDA_CHECK(cudaMalloc(reinterpret_cast<void **>(&d), want * sizeof(Segment)));
    capacity = want;
    return TEMPI_SUCCESS;
  }
  /// Enqueues the upload of host[first, first + n) unless device[pack] already holds it, or holds
  /// it with every packed address moved by one amount: the staging of a halo exchange's faces is
  /// one slice of a burst arena (host/BurstArena.h) at the same offsets every exchange, but not
  /// always in the same arena block. Then *packedShift is that amount (else 0), for the kernel to
  /// add.
  tempi_result upload(bool pack, size_t first, size_t n, cudaStream_t stream,
                      intptr_t *packedShift) {
    *packedShift = 0;
    std::vector<Segment> &last = uploaded[pack];
    if (first == 0 && last.size() == n && n > 0) {
      const uintptr_t shift = addressOf(host[0].packed) - addressOf(last[0].packed);
      bool held = true;
      for (size_t i = 0; i < n && held; ++i)
        held = sameApartFromPacked(host[i], last[i]) &&
               addressOf(host[i].packed) - addressOf(last[i].packed) == shift;
      if (held) {
        *packedShift = static_cast<intptr_t>(shift);
        if (shift) internal::bump(internal::counters().tableShifts);
        return TEMPI_SUCCESS;
      }
    }
    internal::bump(internal::counters().tableUploads);
    TEMPI_CUDA_CHECK(cudaMemcpyAsync(device[pack] + first, host + first, n * sizeof(Segment),
                                     cudaMemcpyHostToDevice, stream));
    if (first == 0)
      last.assign(host, host + n);
    else
      last.clear(); // a later chunk of a large batch: overlaps what was remembered
    return TEMPI_SUCCESS;
  }
};
thread_local Table table;

/// The segment of one job, or false when the single-job path must take it. Empty jobs give a
/// segment of 0 words (skipped by the caller).
bool computeSegment(const StridedJob &j, Segment *seg) {
  kernels::Strided s;
  if (!j.plan || j.count < 0 || !generic::toStrided(j.plan->shape, &s)) return false;
  const kernels::Walk walk = kernels::makeWalk(s, j.count);
  seg->words = 0;
  if (walk.totalBytes == 0) return true;
  if (!j.strided || !j.packed) return false;
  const int planW = alignedWordSize(*j.plan, reinterpret_cast<uintptr_t>(j.strided));
  const int widest = kernels::widestWord(s, j.count, j.strided, j.packed);
  const int w = planW < widest ? planW : widest;
  if (walk.totalBytes / w > kernels::kMaxWords32 || !kernels::walkFits(walk, w)) return false;
  seg->shape = kernels::toRuntimeShape<-1, uint32_t>(walk, w);
  seg->strided = static_cast<unsigned char *>(j.strided);
  seg->packed = static_cast<unsigned char *>(j.packed);
  seg->words = static_cast<uint32_t>(walk.totalBytes / w);
  seg->w = w;
  return true;
}

/// An address's alignment as far as the word choice sees it: 1, 2, 4, 8 or 16.
unsigned alignmentClass(const void *p) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  const uintptr_t low = a & (~a + 1); // lowest set bit; 0 for a null address
  return low == 0 || low > 16 ? 16u : unsigned(low);
}

/// computeSegment's answers for the calling thread's recent jobs, without their addresses. A
/// segment depends on the plan's shape and word size, the count and the two addresses'
/// alignments only; a halo exchange fuses the same few shapes hundreds of times per batch, and
/// building a segment (two walks, a fast divisor per dimension) cost more host time than the
/// rest of a request's fused path. The key holds a copy of the shape, not the plan's address:
/// a freed plan's address may come back holding another shape.
struct SegmentMemo {
  static constexpr size_t kSlots = 16;
  struct Entry {
    bool valid = false, fused = false;
    StridedBlock shape;
    int wordSize = 0;
    int64_t count = 0;
    unsigned alignStrided = 0, alignPacked = 0;
    Segment seg;
  } slots[kSlots];
};
thread_local SegmentMemo segmentMemo;

bool toSegment(const StridedJob &j, Segment *seg) {
  if (!j.plan || !j.strided || !j.packed) return computeSegment(j, seg);
  const unsigned as = alignmentClass(j.strided), ap = alignmentClass(j.packed);
  const size_t slot = size_t((reinterpret_cast<uintptr_t>(j.plan) >> 4) ^ uint64_t(j.count) * 31 ^
                             as * 7 ^ ap) % SegmentMemo::kSlots;
  SegmentMemo::Entry &e = segmentMemo.slots[slot];
  if (!(e.valid && e.count == j.count && e.alignStrided == as && e.alignPacked == ap &&
        e.wordSize == j.plan->wordSize && e.shape == j.plan->shape)) {
    e.fused = computeSegment(j, &e.seg);
    e.shape = j.plan->shape;
    e.wordSize = j.plan->wordSize;
    e.count = j.count;
    e.alignStrided = as;
    e.alignPacked = ap;
    e.valid = true;
  }
  if (!e.fused) return false;
  *seg = e.seg;
  if (seg->words == 0) return true;
  seg->strided = static_cast<unsigned char *>(j.strided);
  seg->packed = static_cast<unsigned char *>(j.packed);
  return true;
}

template <bool Pack> tempi_result launch(size_t first, size_t n, uint32_t totalBlocks, Stream s) {
  auto stream = static_cast<cudaStream_t>(s);
  // timed from the segment table's upload: both are the pack's device work
  const internal::TimedLaunch timing = internal::beginTimedLaunch(s);
  intptr_t packedShift = 0;
  if (tempi_result r = table.upload(Pack, first, n, stream, &packedShift); r != TEMPI_SUCCESS) {
    internal::dropTimedLaunch(timing);
    return r;
  }
  const Segment *segs = table.device[Pack] + first;
  fusedKernel<Pack><<<totalBlocks, kernels::kThreads, 0, stream>>>(segs, int(n), totalBlocks,
                                                                  packedShift);
  if (const cudaError_t launchError = cudaGetLastError(); launchError != cudaSuccess) {
    internal::dropTimedLaunch(timing);
    TEMPI_CUDA_CHECK(launchError);
  }
  internal::endTimedLaunch(timing, Pack, s);
  internal::bump(internal::counters().launches);
  internal::bump(internal::counters().fusedLaunches);
  internal::bump(internal::counters().fusedJobs, n);
  return TEMPI_SUCCESS;
}

template <bool Pack> tempi_result runMany(const StridedJob *jobs, size_t n, Stream s) {
  if (!available()) return TEMPI_ERR_UNSUPPORTED;
  if (n == 1)
    return Pack ? packKeyed(*jobs[0].plan, jobs[0].shapeKey, jobs[0].strided, jobs[0].count,
                            jobs[0].packed, s)
                : unpackKeyed(*jobs[0].plan, jobs[0].shapeKey, jobs[0].strided, jobs[0].packed,
                              jobs[0].count, s);
  if (n == 0) return TEMPI_SUCCESS;
  if (tempi_result r = table.reserve(n); r != TEMPI_SUCCESS) return r;
  size_t used = 0, chunkStart = 0;
  uint32_t blocks = 0;
  for (size_t i = 0; i < n; ++i) {
    Segment seg;
    if (!toSegment(jobs[i], &seg)) { // the single-job path, same stream, same order guarantees
      const StridedJob &j = jobs[i];
      tempi_result r = Pack ? packKeyed(*j.plan, j.shapeKey, j.strided, j.count, j.packed, s)
                            : unpackKeyed(*j.plan, j.shapeKey, j.strided, j.packed, j.count, s);
      if (r != TEMPI_SUCCESS) return r;
      continue;
    }
    if (seg.words == 0) continue;
    const uint32_t perBlock = kernels::kThreads * kWordsPerThread;
    const uint32_t want = (seg.words + perBlock - 1) / perBlock;
    seg.firstBlock = blocks;
    blocks += want < kMaxBlocksPerSegment ? want : kMaxBlocksPerSegment;
    table.host[used++] = seg;
    if (used - chunkStart == kMaxSegments || blocks > (1u << 30)) {
      if (tempi_result r = launch<Pack>(chunkStart, used - chunkStart, blocks, s);
          r != TEMPI_SUCCESS)
        return r;
      chunkStart = used;
      blocks = 0;
      // the next chunk's first blocks count from 0 again
    }
  }
  if (used > chunkStart) return launch<Pack>(chunkStart, used - chunkStart, blocks, s);
  return TEMPI_SUCCESS;
}

} // namespace

tempi_result packMany(const StridedJob *jobs, size_t n, Stream s) { return runMany<true>(jobs, n, s); }
tempi_result unpackMany(const StridedJob *jobs, size_t n, Stream s) {
  return runMany<false>(jobs, n, s);
}

} // namespace tempi::device
