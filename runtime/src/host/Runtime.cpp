/// \file
/// Process-wide runtime state, MPI_Init/MPI_Finalize hooks and error reporting (Runtime.h).
#include "Runtime.h"

#include "DecodeAdapter.h"
#include "Env.h"
#include "Ipc.h"
#include "MethodStats.h"
#include "Requests.h"
#include "Transfer.h"
#include "TypeCache.h"
#include "VerifyPlans.h"

#include <string>
#include <vector>

// MPICH declares it in mpi.h; Open MPI in mpi-ext.h. Weak, so libtempi links against MPIs
// without it (then the MPI is taken as not CUDA-aware).
extern "C" int MPIX_Query_cuda_support(void) __attribute__((weak));

namespace tempi::runtime {

bool gActive = false;
static ModelParams theParams;
static bool cudaAware = false;

const ModelParams &params() { return theParams; }
bool mpiCudaAware() { return cudaAware; }

void setActiveForTesting(bool a) { gActive = a; }

void onInit() {
  const Settings &s = settings();
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  setLogRank(rank);
  // Independent of TEMPI_DISABLE and of the GPU: static plans are checked on every buffer.
  verify::onInit(s.verifyPlans);
  // With TEMPI_METHOD=ipc, collective on every rank, disabled ones included (they answer no).
  // The peer-access query (every pair of GPUs) only when ipc is asked for.
  const bool ipcAsked = s.method == Method::Ipc;
  ipc::onInit(ipcAsked,
              ipcAsked && !s.disable && device::available() && device::ipcPeersAccessible());
  if (s.disable) {
    TEMPI_LOG(Info, "TEMPI_DISABLE is set: every call goes straight to the MPI");
    gActive = false;
    return;
  }
  // Struct padding follows the MPI's alignment of each predefined type, which differs between
  // MPIs (MPICH 5 aligns MPI_REAL16 to 16, MPICH 4.0.2 to 1): measured before any type is planned.
  for (const AlignmentDifference &d : calibrateNamedTypes())
    if (rank == 0)
      TEMPI_LOG(Info, "the MPI aligns %s to %lld (built-in table: %lld); types are planned "
                      "with the MPI's alignment",
                d.name, (long long)d.now, (long long)d.builtin);
  std::vector<std::string> warnings;
  theParams = loadModelParams(defaultModelPath(), &warnings);
  if (rank == 0)
    for (const std::string &w : warnings) TEMPI_LOG(Warn, "model parameters: %s", w.c_str());
  cudaAware = MPIX_Query_cuda_support && MPIX_Query_cuda_support() == 1;
  gActive = device::available();
  // The one parse of TEMPI_POOL_BYTES (Env.cpp, which accepts 512M, 1G, ...) bounds the pools.
  if (gActive) device::setPoolLimit(size_t(s.poolBytes));
  if (gActive) device::setKernelTiming(s.timeKernels);
  if (gActive) device::setPackGraphs(s.packGraphs);
  if (s.method == Method::Device && !cudaAware)
    TEMPI_LOG(Warn, "TEMPI_METHOD=device needs a CUDA-aware MPI and this one is not; the model "
                    "chooses instead");
  TEMPI_LOG(Info, "active=%d cuda_aware_mpi=%d method=%s model=%s", int(gActive), int(cudaAware),
            methodName(s.method), theParams.fromFile ? "measured" : "defaults");
}

void onFinalize() {
  verify::onFinalize();
  requests::finalize();
  ipc::onFinalize(); // collective: before the device layer frees the slabs peers have mapped
  if (gActive) {
    const device::Counters c = device::counters();
    TEMPI_LOG(Info, "device work: %llu kernel launches (%llu fused, covering %llu packs/unpacks), "
                    "%llu synchronizations (%.3f ms waited), %llu copies in %llu calls, "
                    "%llu segment tables uploaded (%llu reused moved), %llu graph replays",
              (unsigned long long)c.launches, (unsigned long long)c.fusedLaunches,
              (unsigned long long)c.fusedJobs, (unsigned long long)c.synchronizations,
              c.syncMicros / 1e3, (unsigned long long)c.copies, (unsigned long long)c.copyCalls,
              (unsigned long long)c.tableUploads, (unsigned long long)c.tableShifts,
              (unsigned long long)c.graphLaunches);
    const std::string packed = methodstats::summary(false), contiguous = methodstats::summary(true);
    if (!packed.empty()) TEMPI_LOG(Info, "methods chosen, by packed bytes: %s", packed.c_str());
    if (!contiguous.empty())
      TEMPI_LOG(Info, "methods chosen for contiguous data, by bytes: %s", contiguous.c_str());
    methodstats::reset();
    if (settings().timeKernels) {
      const device::KernelTimes k = device::kernelTimes();
      TEMPI_LOG(Info, "fused kernel GPU time: pack median %.2f us over %llu launches, unpack "
                      "median %.2f us over %llu launches",
                k.packMedianUs, (unsigned long long)k.packLaunches, k.unpackMedianUs,
                (unsigned long long)k.unpackLaunches);
    }
  }
  typecache::clear();
  clearStaticPlans();
  if (gActive) device::finalize();
  gActive = false;
}

int raise(MPI_Comm comm, tempi_result r, const char *what) {
  int code = MPI_ERR_OTHER;
  if (r == TEMPI_ERR_NO_MEMORY) code = MPI_ERR_NO_MEM;
  if (r == TEMPI_ERR_INVALID_ARG) code = MPI_ERR_ARG;
  if (r == TEMPI_ERR_TRUNCATE) code = MPI_ERR_TRUNCATE;
  // A truncated message is the program's error, which the MPI would report without a word.
  if (r == TEMPI_ERR_TRUNCATE)
    TEMPI_LOG(Info, "%s: %s", what, tempi_result_string(r));
  else
    TEMPI_LOG(Error, "%s: %s", what, tempi_result_string(r));
  if (comm != MPI_COMM_NULL) PMPI_Comm_call_errhandler(comm, code);
  return code;
}

int raiseCode(MPI_Comm comm, int code, const char *what) {
  TEMPI_LOG(Info, "%s (MPI error %d)", what, code);
  if (comm != MPI_COMM_NULL) PMPI_Comm_call_errhandler(comm, code);
  return code;
}

} // namespace tempi::runtime
