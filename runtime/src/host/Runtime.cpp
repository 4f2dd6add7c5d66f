/// \file
/// Process-wide runtime state, MPI_Init/MPI_Finalize hooks and error reporting (Runtime.h).
#include "Runtime.h"

#include "DecodeAdapter.h"
#include "DeferredSends.h"
#include "Env.h"
#include "Ipc.h"
#include "MethodStats.h"
#include "Requests.h"
#include "Transfer.h"
#include "TypeCache.h"
#include "VerifyPlans.h"

#include <mutex>
#include <string>
#include <vector>

// MPICH declares it in mpi.h; Open MPI in mpi-ext.h. Weak, so libtempi links against MPIs
// without it (then the MPI is taken as not CUDA-aware).
extern "C" int MPIX_Query_cuda_support(void) __attribute__((weak));

namespace tempi::runtime {

bool gActive = false;
std::atomic<int> gPhase{NotStarted};
// Recursive: a call into libtempi made while the runtime starts or stops, on the same thread,
// finds the phase it needs without waiting for itself.
static std::recursive_mutex phaseMutex;
static ModelParams theParams;
static bool cudaAware = false;

const ModelParams &params() { return theParams; }
bool mpiCudaAware() { return cudaAware; }

/// The body of onInit and startLate. `late`: the MPI was initialized without our MPI_Init, so no
/// collective call is made (ranks reach their first libtempi call at different times).
static void start(bool late) {
  const Settings &s = settings();
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  setLogRank(rank);
  // Independent of TEMPI_DISABLE and of the GPU: static plans are checked on every buffer.
  verify::onInit(s.verifyPlans);
  // With TEMPI_METHOD=ipc, collective on every rank, disabled ones included (they answer no).
  // The peer-access query (every pair of GPUs) only when ipc is asked for.
  const bool ipcAsked = s.method == Method::Ipc && !late;
  if (late && s.method == Method::Ipc && !s.disable)
    TEMPI_LOG(Warn, "TEMPI_METHOD=ipc is set up collectively in MPI_Init, which the MPI ran "
                    "without libtempi: ipc is off, the model chooses instead");
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

/// MPI_COMM_SELF's attribute delete callback: MPI_Finalize runs it first, while the MPI still
/// works, so a runtime whose MPI_Finalize passes libtempi by (PMPI_Finalize called directly, as
/// the Fortran bindings of Open MPI and MPICH's mpi_f08 do) stops there as it would in ours.
static int stopInMpiFinalize(MPI_Comm, int, void *, void *) {
  if (gPhase.load() != Running) return MPI_SUCCESS; // our MPI_Finalize stopped it already
  (void)deferred::flush(); // an error was raised on the send's communicator already
  onFinalize();
  TEMPI_LOG(Info, "stopped in MPI_Finalize (called without libtempi's MPI_Finalize)");
  return MPI_SUCCESS;
}

/// Ends a start (onInit or startLate): the stop attached to MPI_Finalize, then Running.
static void finishStart() {
  int keyval = MPI_KEYVAL_INVALID;
  if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, stopInMpiFinalize, &keyval, nullptr) !=
          MPI_SUCCESS ||
      PMPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr) != MPI_SUCCESS)
    TEMPI_LOG(Warn, "cannot attach to MPI_COMM_SELF: an MPI_Finalize that passes libtempi by "
                    "will not release its pools and plans");
  gPhase.store(Running, std::memory_order_release);
}

void onInit() {
  std::lock_guard<std::recursive_mutex> lock(phaseMutex);
  if (gPhase.load() != NotStarted) return;
  gPhase.store(Starting);
  start(false);
  finishStart();
}

void startLate() {
  std::lock_guard<std::recursive_mutex> lock(phaseMutex);
  if (gPhase.load() != NotStarted) return;
  int initialized = 0, finalized = 0;
  if (PMPI_Initialized(&initialized) != MPI_SUCCESS || !initialized) return;
  if (PMPI_Finalized(&finalized) != MPI_SUCCESS || finalized) {
    gPhase.store(Stopped, std::memory_order_release); // nothing starts any more
    return;
  }
  gPhase.store(Starting);
  start(true); // first: it sets the rank the log lines show
  TEMPI_LOG(Info, "the MPI was initialized without libtempi's MPI_Init (a Fortran main whose MPI "
                  "calls PMPI_Init?): started at the first call into libtempi");
  finishStart();
}

void onFinalize() {
  std::lock_guard<std::recursive_mutex> lock(phaseMutex);
  // Never started (the MPI initialized past us, libtempi never called): our MPI_Finalize still
  // ends the chance, so a call from another library's finalize callback cannot start it now.
  if (gPhase.load() == NotStarted) gPhase.store(Stopped, std::memory_order_release);
  if (gPhase.load() != Running) return;
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
  gPhase.store(Stopped, std::memory_order_release);
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
