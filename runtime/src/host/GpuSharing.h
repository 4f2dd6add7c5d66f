/// \file
/// Whether this process's GPU is time-sliced with other processes: several ranks of the job on
/// one GPU without MPS. The performance model (Model.h) then asks the one-shot method to be
/// further ahead of staged before it picks it: a one-shot kernel holds the SMs for the whole host
/// transfer, and on a time-sliced GPU the other processes' slices wait for it (and it for them).
///
/// Decided without communication (MPI_Init makes no collective call for it): the launcher's count
/// of this job's ranks on the node against the node's GPUs. That holds only where every rank sees
/// every GPU: with CUDA_VISIBLE_DEVICES set, ranks may see one GPU each (a wrapper or Slurm's
/// binding) or all the same one, which this process cannot tell apart, so the answer is then "not
/// time-sliced" (the model as before), as it is when the launcher sets none of the variables
/// below. TEMPI_GPU_TIME_SLICED overrides the guess either way.
#pragma once

#include <functional>

namespace tempi::sharing {

/// This job's ranks on this node as the launcher tells them: MPI_LOCALNRANKS (MPICH's Hydra),
/// OMPI_COMM_WORLD_LOCAL_SIZE (Open MPI), MV2_COMM_WORLD_LOCAL_SIZE (MVAPICH), PALS_LOCAL_SIZE
/// (Cray PALS), in that order; 0 when none is set to a positive number.
int localRanksFromLauncher(const std::function<const char *(const char *)> &get);

/// Time-sliced: more local ranks than GPUs, every rank seeing them all (`visibleDevicesSet`:
/// CUDA_VISIBLE_DEVICES is set, so that is unknown), and no MPS. False when a count is unknown (0).
bool timeSliced(int localRanks, int visibleGpus, bool visibleDevicesSet, bool mps);

/// The answer for this process: TEMPI_GPU_TIME_SLICED (0 or 1) when set, else timeSliced() from
/// the launcher's variables, the device count and MPS on the current device. Decided at the first
/// call (after MPI_Init, when the program has picked its GPU) and then fixed; thread-safe.
bool gpuTimeSliced();

} // namespace tempi::sharing
