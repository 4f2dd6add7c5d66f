/// \file
/// The performance model: which transfer method moves one message of device data.
///
/// Estimates, per direction, the time from "data in the user's device buffer" to "packed bytes
/// handed to the MPI" (send) or the reverse (receive), from the measured ModelParams:
///   staged:  launch + bytes/pack + copy + bytes/d2h      (pack into device staging, copy out)
///   oneshot: launch + bytes/oneshot                       (kernel writes mapped pinned memory)
///   device:  launch + bytes/pack                          (only with a CUDA-aware MPI)
/// and picks the cheapest, except that one-shot must be estimated kOneShotMargin faster than staged
/// (kOneShotMarginTimeSliced on a GPU time-sliced with other processes). Contiguous data needs no
/// kernel: every method is then one copy (staged and one-shot the same copy to pinned memory),
/// and staged is chosen.
/// A forced method (TEMPI_METHOD) wins when it is usable: `device` without
/// a CUDA-aware MPI and `ipc` (not implemented) are refused and the model chooses instead.
#pragma once

#include "Env.h"
#include "ModelParams.h"

#include <cstdint>

namespace tempi {

enum class Direction { Send, Recv };

/// One-shot is chosen over staged only when estimated this much faster. Its kernel holds SMs for
/// the whole host transfer (85 us for 4 MiB) where staged's holds them for the pack (2.5 us) and a
/// copy engine moves the bytes; the application's kernels, and with several processes on one GPU
/// their time slices, wait for it. Measured (session 6, H200, two ranks time-slicing one GPU,
/// 4 MiB of 8-byte blocks): staged 610 us, one-shot 691 us, where the estimates differ by 4%; with
/// MPS or one GPU each the two were within 3%. docs/runtime.md, "Transfer methods".
constexpr double kOneShotMargin = 0.10;

/// The margin on a GPU time-sliced with other processes (GpuSharing.h). Measured in nine runs of
/// sessions 2-13 (H100 and H200, two ranks time-slicing one GPU, 1 MiB of 8-byte blocks): staged
/// faster than one-shot in every one, by 6-15%, where the estimates put one-shot 18% ahead; at
/// 4 MiB by 8-19%. With one GPU per rank or under MPS one-shot was ahead at 1 MiB in 5 of 6 runs
/// (by 6-13%), so the 10% margin stays there. With 0.30 one-shot still serves time-sliced
/// messages up to about 512 KiB, where the estimates differ by 35% or more.
constexpr double kOneShotMarginTimeSliced = 0.30;

/// What the model knows of one message besides its size and direction.
struct MessageTraits {
  bool contiguous = false;    ///< one dense run: no pack kernel, one copy (TypePlan::contiguous)
  bool gpuTimeSliced = false; ///< the GPU runs other processes in turns (GpuSharing.h)
};

/// Estimated microseconds for `bytes` packed bytes by `m` (infinity for a method that cannot
/// serve: device without CUDA-aware MPI, ipc).
double estimateUs(Method m, Direction d, int64_t bytes, const ModelParams &p, bool mpiCudaAware,
                  MessageTraits t = {});

/// The method for one message: never Auto, never Ipc, Device only when mpiCudaAware.
Method chooseMethod(Direction d, int64_t bytes, const ModelParams &p, bool mpiCudaAware,
                    Method forced, MessageTraits t = {});

} // namespace tempi
