/// \file
/// The resident engine (TEMPI_RESIDENT_US): a small kernel that stays on the GPU between calls
/// and takes small packs and unpacks from a mailbox in mapped pinned host memory, so that an
/// MPI_Pack or MPI_Unpack of a small device object costs a few host-GPU round trips instead of
/// a kernel launch and a stream synchronization (docs/runtime.md, "The resident engine").
///
/// Protocol. The host writes a job into the mailbox and bumps its sequence number (a release
/// store); block 0 of the kernel polls that number (acquire, system scope) and relays the job to
/// the other blocks through device memory; every block moves its share of the words; the last
/// block to finish stores the sequence number into the mailbox's done word (release), on which
/// the host spins. After `idle` without a job, block 0 tells the other blocks to leave and
/// records the launch generation in the mailbox; the next job launches the kernel again. So a
/// program's cudaDeviceSynchronize (or cudaFree, which synchronizes) waits at most the idle time
/// for it, never forever. It runs on its own non-blocking stream: the program's legacy-stream
/// work never waits for it.
///
/// Ordering. The launch path runs on the thread's blocking stream, after the program's
/// legacy-stream work (Streams.cpp). The engine keeps that promise by taking a job only when the
/// legacy stream and the thread's stream are both idle (cudaStreamQuery); otherwise, or when
/// another thread holds the engine, the call takes the launch path. The host waits for the job,
/// so the data are in place when the MPI call returns, as on the launch path.
#include "runtime/src/device/Device.h"
#include "runtime/src/device/Generic.h"
#include "runtime/src/device/Internal.h"
#include "tempi/kernels.cuh"

#include <cuda/atomic>
#include <cuda_runtime.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <new>

namespace tempi::device {

namespace {

constexpr unsigned kBlocks = 16;              ///< blocks of the resident kernel
constexpr unsigned kBlockThreads = 512;       ///< threads per block
constexpr uint64_t kMaxBytes = 256 << 10;     ///< larger jobs are faster on a full grid
constexpr unsigned long long kLeave = ~0ull;  ///< the relay's "leave now"

/// One pack or unpack, in 8-byte words so that it copies as a plain struct.
struct Job {
  int32_t pack = 1; ///< 1: strided -> packed; 0: packed -> strided; -1: leave (finalize)
  int32_t W = 1;    ///< word size
  uint64_t words = 0;
  unsigned char *strided = nullptr;
  unsigned char *packed = nullptr;
  kernels::RuntimeShape<-1, uint32_t> shape;
};

/// Mapped pinned host memory; the host's and the device's words on separate cache lines.
struct Mailbox {
  alignas(64) unsigned long long seq = 0; ///< host: the last job posted
  alignas(64) unsigned long long done = 0; ///< device: the last job finished
  unsigned long long left = 0;             ///< device: the generation of the kernel that left
  alignas(64) Job job;                     ///< host: the job of `seq`
};

/// Device memory: block 0 passes each job on to the others.
struct Relay {
  unsigned long long seq;  ///< 0 at launch; then the job's sequence number, or kLeave
  unsigned int arrivals;   ///< blocks finished with the current job
  Job job;
};

__device__ __forceinline__ unsigned long long globalNanos() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

template <int W> __device__ void moveWords(const Job &j) {
  using T = typename kernels::Word<W>::type;
  const uint32_t n = static_cast<uint32_t>(j.words);
  const uint32_t step = gridDim.x * blockDim.x;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
    const int64_t off = j.shape.template offset<W>(i);
    T *p = reinterpret_cast<T *>(j.packed + static_cast<int64_t>(i) * W);
    T *s = reinterpret_cast<T *>(j.strided + off);
    if (j.pack)
      *p = *s;
    else
      *s = *p;
  }
}

__global__ void __launch_bounds__(kBlockThreads)
    residentKernel(Mailbox *mb, Relay *relay, unsigned long long seen,
                   unsigned long long generation, unsigned long long idleNanos) {
  // Job has member initializers, which __shared__ variables may not: raw storage instead.
  __shared__ alignas(16) unsigned char jobBytes[sizeof(Job)];
  Job &job = *reinterpret_cast<Job *>(jobBytes);
  __shared__ unsigned long long current;
  unsigned long long relaySeen = 0;
  for (;;) {
    if (threadIdx.x == 0) {
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> relaySeq(relay->seq);
      unsigned long long s;
      if (blockIdx.x == 0) {
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> posted(mb->seq);
        const unsigned long long t0 = globalNanos();
        while ((s = posted.load(cuda::memory_order_acquire)) == seen) {
          if (globalNanos() - t0 > idleNanos) {
            s = kLeave;
            break;
          }
        }
        if (s != kLeave) {
          const Job posted = mb->job;
          if (posted.pack < 0)
            s = kLeave;
          else
            relay->job = posted;
        }
        relaySeq.store(s, cuda::memory_order_release);
      } else {
        while ((s = relaySeq.load(cuda::memory_order_acquire)) == relaySeen) __nanosleep(32);
      }
      if (s != kLeave) job = relay->job;
      current = s;
    }
    __syncthreads();
    const unsigned long long s = current;
    if (s == kLeave) {
      if (blockIdx.x == 0 && threadIdx.x == 0)
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_system>(mb->left)
            .store(generation, cuda::memory_order_release);
      return;
    }
    seen = relaySeen = s;
    switch (job.W) {
    case 16: moveWords<16>(job); break;
    case 8: moveWords<8>(job); break;
    case 4: moveWords<4>(job); break;
    case 2: moveWords<2>(job); break;
    default: moveWords<1>(job); break;
    }
    __syncthreads(); // this block's words are written; `job` may be overwritten after this
    if (threadIdx.x == 0) {
      __threadfence();
      cuda::atomic_ref<unsigned int, cuda::thread_scope_device> arrivals(relay->arrivals);
      if (arrivals.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1) {
        arrivals.store(0, cuda::memory_order_relaxed);
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_system>(mb->done)
            .store(s, cuda::memory_order_release);
      }
    }
  }
}

/// The host side: one mailbox and one kernel per process, one caller at a time.
class Engine {
public:
  void setIdle(uint64_t micros) {
    std::lock_guard<std::mutex> lock(mutex_);
    idleNanos_ = micros * 1000;
  }
  bool enabled() const { return idleNanos_.load(std::memory_order_relaxed) != 0; }

  /// TEMPI_ERR_UNSUPPORTED: not taken (off, busy, earlier work pending, too large); the caller
  /// launches as usual.
  tempi_result run(const Job &job, Stream threadStream) {
    if (!enabled()) return TEMPI_ERR_UNSUPPORTED;
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock() || broken_) return TEMPI_ERR_UNSUPPORTED;
    if (cudaStreamQuery(static_cast<cudaStream_t>(threadStream)) != cudaSuccess ||
        cudaStreamQuery(cudaStreamLegacy) != cudaSuccess)
      return TEMPI_ERR_UNSUPPORTED; // earlier work first: the launch path orders after it
    if (!mailbox_) {
      if (tempi_result r = allocate(); r != TEMPI_SUCCESS) {
        broken_ = true;
        return TEMPI_ERR_UNSUPPORTED;
      }
    }
    std::memcpy(&mailbox_->job, &job, sizeof job);
    const unsigned long long seq = ++seq_;
    if (tempi_result r = ensureRunning(seq - 1); r != TEMPI_SUCCESS) return r;
    __atomic_store_n(&mailbox_->seq, seq, __ATOMIC_RELEASE);
    const tempi_result r = waitFor(seq);
    if (r == TEMPI_SUCCESS) internal::bump(internal::counters().residentJobs);
    return r;
  }

  void release() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!mailbox_) return;
    if (running_) { // a job that tells it to leave
      mailbox_->job.pack = -1;
      __atomic_store_n(&mailbox_->seq, ++seq_, __ATOMIC_RELEASE);
      TEMPI_CUDA_LOG_ONLY(cudaStreamSynchronize(stream_));
    }
    TEMPI_CUDA_LOG_ONLY(cudaStreamDestroy(stream_));
    TEMPI_CUDA_LOG_ONLY(cudaFree(relay_));
    TEMPI_CUDA_LOG_ONLY(cudaFreeHost(mailbox_));
    mailbox_ = nullptr;
    relay_ = nullptr;
    stream_ = nullptr;
    running_ = false;
    seq_ = 0;
    broken_ = false;
  }

private:
  tempi_result allocate() {
    void *mb = nullptr;
    TEMPI_CUDA_CHECK(cudaHostAlloc(&mb, sizeof(Mailbox), cudaHostAllocMapped));
    mailbox_ = new (mb) Mailbox();
    if (cudaHostGetDevicePointer(reinterpret_cast<void **>(&mailboxDevice_), mb, 0) != cudaSuccess ||
        cudaMalloc(reinterpret_cast<void **>(&relay_), sizeof(Relay)) != cudaSuccess ||
        cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking) != cudaSuccess) {
      (void)cudaGetLastError();
      if (relay_) cudaFree(relay_);
      cudaFreeHost(mb);
      mailbox_ = nullptr;
      relay_ = nullptr;
      return TEMPI_ERR_CUDA;
    }
    return TEMPI_SUCCESS;
  }

  /// Launches the kernel unless one is running; `seen` is the last job it must not take.
  tempi_result ensureRunning(unsigned long long seen) {
    if (running_ && __atomic_load_n(&mailbox_->left, __ATOMIC_ACQUIRE) == generation_)
      running_ = false; // it left while idle
    if (running_) return TEMPI_SUCCESS;
    ++generation_;
    TEMPI_CUDA_CHECK(cudaMemsetAsync(relay_, 0, sizeof(Relay), stream_));
    residentKernel<<<kBlocks, kBlockThreads, 0, stream_>>>(mailboxDevice_, relay_, seen,
                                                           generation_, idleNanos_.load());
    TEMPI_CUDA_CHECK(cudaGetLastError());
    internal::bump(internal::counters().launches);
    running_ = true;
    return TEMPI_SUCCESS;
  }

  /// Spins until job `seq` is done. Relaunches a kernel that left before it saw the job, and
  /// asks CUDA now and then whether the kernel failed (then the job is reported failed).
  tempi_result waitFor(unsigned long long seq) {
    for (unsigned spins = 1;; ++spins) {
      if (__atomic_load_n(&mailbox_->done, __ATOMIC_ACQUIRE) == seq) return TEMPI_SUCCESS;
      if (__atomic_load_n(&mailbox_->left, __ATOMIC_ACQUIRE) == generation_) {
        running_ = false; // it timed out just as the job came: the job is still posted
        if (tempi_result r = ensureRunning(seq - 1); r != TEMPI_SUCCESS) return r;
        continue;
      }
      if (spins % 4096 == 0) {
        const cudaError_t e = cudaStreamQuery(stream_);
        if (e == cudaErrorNotReady) continue;
        if (__atomic_load_n(&mailbox_->done, __ATOMIC_ACQUIRE) == seq) return TEMPI_SUCCESS;
        if (__atomic_load_n(&mailbox_->left, __ATOMIC_ACQUIRE) == generation_) continue;
        running_ = false;
        broken_ = true; // the kernel ended without finishing or leaving: never use it again
        if (e != cudaSuccess) TEMPI_CUDA_CHECK(e);
        return TEMPI_ERR_CUDA;
      }
    }
  }

  std::mutex mutex_;
  std::atomic<uint64_t> idleNanos_{0};
  Mailbox *mailbox_ = nullptr, *mailboxDevice_ = nullptr;
  Relay *relay_ = nullptr;
  cudaStream_t stream_ = nullptr;
  unsigned long long seq_ = 0, generation_ = 0;
  bool running_ = false, broken_ = false;
};

Engine &engine() {
  static Engine e;
  return e;
}

template <bool Pack>
tempi_result runResident(const KernelPlan &plan, void *strided, void *packed, int64_t count,
                         Stream threadStream) {
  Engine &e = engine();
  if (!e.enabled() || count <= 0 || !strided || !packed || !available())
    return TEMPI_ERR_UNSUPPORTED;
  kernels::Strided shape;
  if (!generic::toStrided(plan.shape, &shape)) return TEMPI_ERR_UNSUPPORTED;
  const kernels::Walk w = kernels::makeWalk(shape, count);
  if (w.totalBytes == 0 || w.nd > kernels::kMaxShapeDims) return TEMPI_ERR_UNSUPPORTED;
  if (w.totalBytes > kMaxBytes) return TEMPI_ERR_UNSUPPORTED;
  const int W = kernels::widestWord(shape, count, strided, packed);
  Job job;
  job.pack = Pack ? 1 : 0;
  job.W = W;
  job.words = w.totalBytes / W;
  job.strided = static_cast<unsigned char *>(strided);
  job.packed = static_cast<unsigned char *>(packed);
  job.shape = kernels::toRuntimeShape<-1, uint32_t>(w, W);
  return e.run(job, threadStream);
}

} // namespace

void setResident(uint64_t idleMicros) { engine().setIdle(idleMicros); }

tempi_result packNow(const KernelPlan &plan, const void *base, int64_t count, void *packed) {
  Stream s = defaultStream();
  tempi_result r = runResident<true>(plan, const_cast<void *>(base), packed, count, s);
  if (r != TEMPI_ERR_UNSUPPORTED) return r;
  r = pack(plan, base, count, packed, s);
  return r == TEMPI_SUCCESS ? synchronize(s) : r;
}

tempi_result unpackNow(const KernelPlan &plan, void *base, const void *packed, int64_t count) {
  Stream s = defaultStream();
  tempi_result r = runResident<false>(plan, base, const_cast<void *>(packed), count, s);
  if (r != TEMPI_ERR_UNSUPPORTED) return r;
  r = unpack(plan, base, packed, count, s);
  return r == TEMPI_SUCCESS ? synchronize(s) : r;
}

void internal::releaseResident() { engine().release(); }

} // namespace tempi::device
