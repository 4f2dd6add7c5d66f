/// \file
/// Interposers of MPI_Init, MPI_Init_thread, MPI_Finalize and the datatype life cycle
/// (MPI_Type_commit, MPI_Type_free, MPI_Type_dup), which keep the type cache in step with the
/// MPI's handles.
#include "DeferredSends.h"
#include "Runtime.h"
#include "TypeCache.h"
#include "VerifyPlans.h"

extern "C" {

int MPI_Init(int *argc, char ***argv) {
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) tempi::runtime::onInit();
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) tempi::runtime::onInit();
  return rc;
}

int MPI_Finalize(void) {
  (void)tempi::deferred::flush(); // an error was raised on the send's communicator already
  tempi::runtime::onFinalize();
  return PMPI_Finalize();
}

int MPI_Type_commit(MPI_Datatype *datatype) {
  TEMPI_FLUSH_DEFERRED();
  int rc = PMPI_Type_commit(datatype);
  // Plans are only needed for device buffers: without a GPU the cache stays empty.
  if (rc == MPI_SUCCESS && tempi::runtime::active()) tempi::typecache::onCommit(*datatype);
  return rc;
}

int MPI_Type_free(MPI_Datatype *datatype) {
  TEMPI_FLUSH_DEFERRED();
  // Dropped unconditionally (cheap), so a handle reused after the free never meets a stale plan.
  tempi::typecache::onFree(*datatype);
  tempi::verify::forget(*datatype);
  return PMPI_Type_free(datatype);
}

int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype) {
  TEMPI_FLUSH_DEFERRED();
  int rc = PMPI_Type_dup(oldtype, newtype);
  if (rc == MPI_SUCCESS && tempi::runtime::active()) tempi::typecache::onDup(oldtype, *newtype);
  return rc;
}

} // extern "C"
