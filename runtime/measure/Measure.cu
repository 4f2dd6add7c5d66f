/// \file
/// tempi-measure: measures the performance model's parameters on this machine and writes the
/// model cache (ModelParams.h's format, through writeModelParams).
///
///   tempi-measure [--out FILE] [--dry-run]            # GPU and copy parameters only
///   mpiexec -n 2 tempi-measure [--out FILE]           # plus MPI latency/bandwidth, and IPC when
///                                                     # both ranks share a node
/// Each parameter is the median of several timed repetitions after warm-up. What cannot be
/// measured here (no GPU, one rank, ranks on different nodes) keeps its default and is reported
/// as such; the file is written by rank 0 only, and only when every measured value is positive.
/// Exit status: 0 written (or --dry-run), 1 on a failed measurement or write.
#include "ModelParams.h"
#include "passes/KernelPlan.h"
#include "runtime/src/device/Device.h"
#include "tempi/kernels.cuh"

#include <cuda_runtime.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace tempi;

namespace {

bool failed = false;

#define MEASURE_CUDA(call)                                                                        \
  do {                                                                                            \
    if (!TEMPI_CUDA_LOG_ONLY(call)) failed = true;                                                \
  } while (0)

double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

/// Median seconds of f (device work bracketed by events on s).
double deviceSeconds(cudaStream_t s, int reps, const std::function<void()> &f) {
  cudaEvent_t a, z;
  MEASURE_CUDA(cudaEventCreate(&a));
  MEASURE_CUDA(cudaEventCreate(&z));
  for (int i = 0; i < 2; ++i) f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    MEASURE_CUDA(cudaEventRecord(a, s));
    f();
    MEASURE_CUDA(cudaEventRecord(z, s));
    MEASURE_CUDA(cudaEventSynchronize(z));
    float ms = 0;
    MEASURE_CUDA(cudaEventElapsedTime(&ms, a, z));
    t.push_back(ms * 1e-3);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(z);
  return medianOf(t);
}

/// Median seconds of f on the host clock.
double hostSeconds(int reps, const std::function<void()> &f) {
  for (int i = 0; i < 10; ++i) f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto a = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count());
  }
  return medianOf(t);
}

__global__ void emptyKernel() {}

StridedBlock packShape(int64_t packedBytes) {
  // a 2-D object of 64-byte runs at a 128-byte stride: the middle of the model's range
  StridedBlock b;
  b.bytes = 64;
  b.dims.push_back({packedBytes / 64, 128});
  b.extent = packedBytes * 2;
  return b;
}

void measureGpu(ModelParams &p, std::vector<std::string> &measured) {
  cudaStream_t s = static_cast<cudaStream_t>(device::defaultStream());
  const size_t big = size_t(256) << 20;
  void *d = device::allocDevice(2 * big);
  void *h = device::allocPinned(big, true);
  if (!d || !h) {
    std::fprintf(stderr, "tempi-measure: could not allocate %zu MiB of device/pinned memory\n",
                 big >> 20);
    failed = true;
    return;
  }
  MEASURE_CUDA(cudaMemset(d, 1, 2 * big));
  const double d2h = deviceSeconds(s, 5, [&] {
    MEASURE_CUDA(cudaMemcpyAsync(h, d, big, cudaMemcpyDeviceToHost, s));
  });
  const double h2d = deviceSeconds(s, 5, [&] {
    MEASURE_CUDA(cudaMemcpyAsync(d, h, big, cudaMemcpyHostToDevice, s));
  });
  p.d2hGbps = big / d2h / 1e9;
  p.h2dGbps = big / h2d / 1e9;

  const int64_t packed = 64 << 20;
  const KernelPlan plan = makePlan(packShape(packed));
  char *dst = static_cast<char *>(d) + 2 * packed; // the object spans [0, 2 * packed)
  const double tPack = deviceSeconds(s, 10, [&] {
    if (device::pack(plan, d, 1, dst, s) != TEMPI_SUCCESS) failed = true;
  });
  p.packGbps = packed / tPack / 1e9;
  const int64_t small = 16 << 20; // one-shot: the pack kernel writes mapped pinned memory
  const KernelPlan smallPlan = makePlan(packShape(small));
  const double tOneShot = deviceSeconds(s, 5, [&] {
    if (device::pack(smallPlan, d, 1, h, s) != TEMPI_SUCCESS) failed = true;
  });
  p.oneshotGbps = small / tOneShot / 1e9;

  p.launchUs = 1e6 * hostSeconds(200, [&] {
    emptyKernel<<<1, 1, 0, s>>>();
    MEASURE_CUDA(cudaStreamSynchronize(s));
  });
  p.copyUs = 1e6 * hostSeconds(200, [&] {
    MEASURE_CUDA(cudaMemcpyAsync(h, d, 8, cudaMemcpyDeviceToHost, s));
    MEASURE_CUDA(cudaStreamSynchronize(s));
  });
  device::freeDevice(d);
  device::freePinned(h);
  for (const char *k : {"d2h_gbps", "h2d_gbps", "pack_gbps", "oneshot_gbps", "launch_us", "copy_us"})
    measured.push_back(k);
}

void measureMpi(ModelParams &p, std::vector<std::string> &measured, int rank) {
  // ping-pong between ranks 0 and 1 with host buffers: latency (8 B, one way) and bandwidth (4 MiB)
  std::vector<char> buf(4 << 20);
  auto pingpong = [&](int bytes, int reps) {
    MPI_Barrier(MPI_COMM_WORLD);
    std::vector<double> t;
    for (int i = 0; i < reps + 10; ++i) {
      const double a = MPI_Wtime();
      if (rank == 0) {
        MPI_Send(buf.data(), bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf.data(), bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(buf.data(), bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf.data(), bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
      }
      if (i >= 10) t.push_back((MPI_Wtime() - a) / 2);
    }
    return medianOf(t);
  };
  p.mpiLatencyUs = 1e6 * pingpong(8, 1000);
  p.mpiGbps = double(buf.size()) / pingpong(int(buf.size()), 50) / 1e9;
  measured.push_back("mpi_latency_us");
  measured.push_back("mpi_gbps");
}

/// Rank 1 exports a device buffer over CUDA IPC; rank 0 copies from it into its own memory.
void measureIpc(ModelParams &p, std::vector<std::string> &measured, int rank) {
  const size_t bytes = size_t(256) << 20;
  unsigned char handle[device::kIpcHandleBytes] = {};
  int ok = 1;
  void *mine = device::allocDevice(bytes);
  if (!mine) ok = 0;
  int64_t offset = 0;
  if (rank == 1 && ok && device::ipcGetHandle(mine, handle, &offset) != TEMPI_SUCCESS) ok = 0;
  int allOk = 0;
  MPI_Allreduce(&ok, &allOk, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  double gbps = 0;
  if (allOk) {
    if (rank == 1) MPI_Send(handle, int(sizeof handle), MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    if (rank == 1) MPI_Send(&offset, 1, MPI_INT64_T, 0, 2, MPI_COMM_WORLD);
    if (rank == 0) {
      MPI_Recv(handle, int(sizeof handle), MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&offset, 1, MPI_INT64_T, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      void *peer = device::ipcOpen(handle);
      if (peer) {
        cudaStream_t s = static_cast<cudaStream_t>(device::defaultStream());
        const double t = deviceSeconds(s, 5, [&] {
          MEASURE_CUDA(cudaMemcpyAsync(mine, static_cast<char *>(peer) + offset, bytes,
                                       cudaMemcpyDefault, s));
        });
        gbps = bytes / t / 1e9;
      }
    }
    MPI_Barrier(MPI_COMM_WORLD); // rank 1 keeps its buffer until rank 0 is done
  }
  if (rank == 0 && gbps > 0) {
    p.ipcGbps = gbps;
    measured.push_back("ipc_gbps");
  } else if (rank == 0) {
    std::printf("ipc_gbps: not measured (CUDA IPC unavailable between the ranks)\n");
  }
  device::freeDevice(mine);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::string out = defaultModelPath();
  bool dryRun = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--out") && i + 1 < argc)
      out = argv[++i];
    else if (!std::strcmp(argv[i], "--dry-run"))
      dryRun = true;
    else {
      if (rank == 0)
        std::fprintf(stderr, "usage: [mpiexec -n 2] tempi-measure [--out FILE] [--dry-run]\n");
      MPI_Finalize();
      return 1;
    }
  }
  ModelParams p;
  std::vector<std::string> measured;
  const bool gpu = device::available();
  if (gpu && rank == 0) measureGpu(p, measured);
  if (size >= 2) {
    measureMpi(p, measured, rank);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int nodeSize = 0, allGpu = 0, g = gpu ? 1 : 0;
    MPI_Comm_size(node, &nodeSize);
    MPI_Allreduce(&g, &allGpu, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    int sameNode = nodeSize == size ? 1 : 0;
    if (sameNode && allGpu) measureIpc(p, measured, rank);
    MPI_Comm_free(&node);
  }
  int rc = 0;
  if (rank == 0) {
    for (const auto &k : allModelParamKeys()) {
      const bool m = std::find(measured.begin(), measured.end(), k.key) != measured.end();
      const double v = p.*(k.field);
      std::printf("%-16s %12.4f  %s\n", k.key, v, m ? "measured" : "default (not measured here)");
      if (m && !(v > 0)) failed = true;
    }
    if (failed) {
      std::fprintf(stderr, "tempi-measure: a measurement failed; nothing written\n");
      rc = 1;
    } else if (!dryRun) {
      std::string error;
      if (out.empty()) {
        std::fprintf(stderr, "tempi-measure: no cache path (no HOME, no TEMPI_CACHE_DIR; use --out)\n");
        rc = 1;
      } else if (!writeModelParams(p, out, &error)) {
        std::fprintf(stderr, "tempi-measure: %s\n", error.c_str());
        rc = 1;
      } else {
        std::printf("wrote %s\n", out.c_str());
      }
    }
  }
  device::finalize();
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return rc;
}
