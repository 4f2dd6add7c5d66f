/// \file
/// bench-commit-plan's hook (bench-commit.c built with BENCH_COMMIT_PLAN): after a timed commit,
/// the plan libtempi's MPI_Type_commit builds when TEMPI is active (decode, translate,
/// canonicalize or block list, order probe, cache entry), built here whether or not there is a
/// GPU. MPI_Type_free (interposed by the same objects) drops the entry again.
#include <mpi.h>

// Declared as in runtime/src/host/TypeCache.h (not included: examples/ is linted with the MPI's
// headers only); a different signature there fails to link.
namespace tempi::typecache {
void onCommit(MPI_Datatype type);
}

extern "C" void bench_commit_plan(MPI_Datatype t) { tempi::typecache::onCommit(t); }
