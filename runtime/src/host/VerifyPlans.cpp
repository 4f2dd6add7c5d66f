/// \file
/// TEMPI_VERIFY_PLANS: static plans checked against their committed datatypes (VerifyPlans.h).
#include "VerifyPlans.h"

#include "Env.h"
#include "Handles.h"
#include "HostMirror.h"
#include "StaticPlan.h"
#include "TypePlan.h"

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <unistd.h>
#include <utility>
#include <vector>

namespace tempi::verify {

bool gOn = false;

namespace {

/// Elements packed both ways: two, so that a wrong extent or a run crossing into the next
/// element shows too.
constexpr int64_t kCount = 2;
/// Largest scratch span (and packed size) byte-checked; bigger types are checked by their scalars.
constexpr int64_t kSpanLimit = int64_t(256) << 20;

/// Verified (datatype handle, plan) pairs, ordered by handle first so that MPI_Type_free drops a
/// handle's pairs as one range.
std::mutex memoMutex;
std::set<std::pair<uint64_t, const tempi_static_plan *>> verified;

/// MPI_COMM_SELF's duplicate with MPI_ERRORS_RETURN, for the reference PMPI_Pack: a type the
/// MPI refuses to pack (not committed) is then reported by the call itself, as without checks.
MPI_Comm packComm = MPI_COMM_NULL;

[[noreturn]] __attribute__((format(printf, 3, 4))) void fail(const tempi_static_plan *sp,
                                                              const char *call,
                                                              const char *format, ...) {
  char what[640];
  va_list ap;
  va_start(ap, format);
  vsnprintf(what, sizeof what, format, ap);
  va_end(ap);
  int rank = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  fprintf(stderr,
          "tempi[%d] TEMPI_VERIFY_PLANS: %s: static plan %s does not describe its datatype: %s\n",
          rank, call, sp->text ? sp->text : "(no text)", what);
  fflush(stderr);
  // The launcher forwards what the ranks wrote through pipes, and may tear the job down on the
  // abort before it read them (MPICH's Hydra, 2+ ranks): give it a moment to forward the line.
  usleep(200 * 1000);
  PMPI_Abort(MPI_COMM_WORLD, 70);
  abort(); // PMPI_Abort does not return
}

/// The bytes: kCount elements packed by PMPI_Pack and by the plan from the same scratch memory.
/// Returns when they agree (true) or cannot be compared (logged; false when a later call may:
/// the MPI refused to pack an uncommitted type); fails otherwise.
bool compareBytes(const tempi_static_plan *sp, MPI_Datatype type, const char *call, int64_t size,
                  int64_t lb, int64_t extent, int64_t trueLb, int64_t trueExtent) {
  // Element e covers e * extent + [min(lb, trueLb), max(ub, trueUb)); extent may be negative.
  const int64_t lo = std::min<int64_t>(0, extent) + std::min(lb, trueLb);
  const int64_t hi = std::max<int64_t>(0, extent) + std::max(lb + extent, trueLb + trueExtent);
  const int64_t span = hi - lo, packedBytes = kCount * size;
  if (span > kSpanLimit || packedBytes > kSpanLimit) {
    TEMPI_LOG(Info,
              "TEMPI_VERIFY_PLANS: %s: static plan %s: bytes not compared (datatype spans %lld "
              "bytes, over the 256 MiB limit); size, extent and lb agree",
              call, sp->text ? sp->text : "(no text)", (long long)std::max(span, packedBytes));
    return true;
  }

  // A fixed pattern without zero bytes that differs from one run of bytes to the next, so that
  // two runs swapped cannot agree.
  std::unique_ptr<unsigned char[]> memory(new unsigned char[size_t(std::max<int64_t>(span, 1))]);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int64_t i = 0; i < span; ++i) {
    if ((i & 7) == 0) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
    }
    const unsigned char b = static_cast<unsigned char>(x >> (8 * (i & 7)));
    memory[size_t(i)] = b ? b : static_cast<unsigned char>(1 + (i % 255));
  }
  // The buffer pointer that puts byte `lo` at memory[0], computed on the address (lo may be
  // negative, or an absolute address for a type meant for MPI_BOTTOM).
  const void *origin =
      reinterpret_cast<const void *>(reinterpret_cast<uintptr_t>(memory.get()) - uintptr_t(lo));

  // The reference, into zeroed memory: a zero it leaves was not packed from the pattern.
  // A refusal (an uncommitted type, which an erroneous call may pass on purpose) is the call's to
  // report, through the program's error handler: the bytes are then not compared.
  auto refused = [&](const char *what, int rc) {
    int cls = rc;
    PMPI_Error_class(rc, &cls);
    TEMPI_LOG(Info, "TEMPI_VERIFY_PLANS: %s: static plan %s: bytes not compared: %s refused its "
                    "datatype (MPI error class %d; not committed?); size, extent and lb agree",
              call, sp->text ? sp->text : "(no text)", what, cls);
    return false;
  };
  int packSize = 0;
  if (int rc = PMPI_Pack_size(int(kCount), type, packComm, &packSize); rc != MPI_SUCCESS)
    return refused("MPI_Pack_size", rc);
  std::vector<unsigned char> theirs(size_t(std::max<int64_t>(packSize, packedBytes)) + 1, 0);
  int position = 0;
  if (int rc = PMPI_Pack(origin, int(kCount), type, theirs.data(), packSize, &position, packComm);
      rc != MPI_SUCCESS)
    return refused("MPI_Pack", rc);
  if (position != packedBytes) { // the MPI's own business, not the plan's
    TEMPI_LOG(Warn, "TEMPI_VERIFY_PLANS: %s: static plan %s not checked: MPI_Pack packed %d bytes "
                    "from %lld elements of size %lld",
              call, sp->text ? sp->text : "(no text)", position, (long long)kCount,
              (long long)size);
    return true;
  }

  // The plan's walk, each run checked to lie inside the datatype's bytes.
  const StridedBlock shape = stridedOf(*sp);
  if (shape.size() != size)
    fail(sp, call, "its runs hold %lld packed bytes per element, the datatype %lld",
         (long long)shape.size(), (long long)size);
  std::vector<unsigned char> ours(size_t(packedBytes) + 1, 0);
  int64_t done = 0;
  for (int64_t e = 0; e < kCount; ++e)
    forEachStridedRun(shape, e * sp->extent, size, [&](int64_t off, int64_t n) {
      if (off < lo || off + n > hi)
        fail(sp, call,
             "element %lld's run of %lld bytes at byte offset %lld lies outside the bytes "
             "[%lld, %lld) of %lld elements of the datatype (lb %lld, extent %lld, true lb "
             "%lld, true extent %lld)",
             (long long)e, (long long)n, (long long)off, (long long)lo, (long long)hi,
             (long long)kCount, (long long)lb, (long long)extent, (long long)trueLb,
             (long long)trueExtent);
      std::memcpy(ours.data() + done, memory.get() + (off - lo), size_t(n));
      done += n;
    });

  int64_t unwritten = 0;
  for (int64_t i = 0; i < packedBytes; ++i) {
    if (ours[size_t(i)] == theirs[size_t(i)]) continue;
    if (theirs[size_t(i)] == 0) { // the MPI did not pack this byte from memory (padding)
      ++unwritten;
      continue;
    }
    fail(sp, call,
         "packed bytes differ from MPI_Pack's at packed byte offset %lld (element %lld, byte "
         "%lld of its %lld): plan 0x%02x, MPI_Pack 0x%02x",
         (long long)i, (long long)(size ? i / size : 0), (long long)(size ? i % size : i),
         (long long)size, ours[size_t(i)], theirs[size_t(i)]);
  }
  if (unwritten)
    TEMPI_LOG(Info, "TEMPI_VERIFY_PLANS: %s: static plan %s: %lld packed bytes the MPI left "
                    "unwritten (padding) were not compared",
              call, sp->text ? sp->text : "(no text)", (long long)unwritten);
  return true;
}

/// The whole check of one pair, unmemoized: fails on a mismatch, else returns whether the
/// verdict holds for later calls with the pair too.
bool verifyPair(const tempi_static_plan *sp, MPI_Datatype type, const char *call) {
  if (sp->abi_version < 1 || sp->ndims < 0 || sp->ndims > TEMPI_MAX_DIMS || sp->bytes < 0)
    fail(sp, call, "malformed plan (abi_version %d, ndims %d, bytes %lld)", sp->abi_version,
         sp->ndims, (long long)sp->bytes);
  for (int j = 0; j < sp->ndims; ++j)
    if (sp->counts[j] < 0)
      fail(sp, call, "malformed plan (counts[%d] = %lld)", j, (long long)sp->counts[j]);

  MPI_Count size = 0, lb = 0, extent = 0, trueLb = 0, trueExtent = 0;
  if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS ||
      PMPI_Type_get_extent_x(type, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Type_get_true_extent_x(type, &trueLb, &trueExtent) != MPI_SUCCESS)
    return false; // not a datatype the MPI knows: the call itself reports that
  if (size == MPI_UNDEFINED) return true;
  if (sp->size != size || sp->extent != extent || sp->lb != lb) {
    char what[400];
    int n = 0;
    auto note = [&](const char *name, int64_t plan, MPI_Count mpi) {
      if (plan != int64_t(mpi) && n < int(sizeof what))
        n += snprintf(what + n, sizeof what - size_t(n), "%s%s %lld, the MPI's %lld",
                      n ? "; " : "", name, (long long)plan, (long long)mpi);
    };
    note("size", sp->size, size);
    note("extent", sp->extent, extent);
    note("lb", sp->lb, lb);
    fail(sp, call, "%s", what);
  }
  return compareBytes(sp, type, call, int64_t(size), int64_t(lb), int64_t(extent),
                      int64_t(trueLb), int64_t(trueExtent));
}

} // namespace

void check(const tempi_static_plan *sp, MPI_Datatype type, const char *call) {
  if (type == MPI_DATATYPE_NULL) return; // the call reports it
  const std::pair<uint64_t, const tempi_static_plan *> key{handleKey(type), sp};
  {
    std::lock_guard<std::mutex> lock(memoMutex);
    if (verified.count(key)) return;
  }
  // Returns only when the plan agrees, or could not be checked (logged).
  if (!verifyPair(sp, type, call)) return;
  TEMPI_LOG(Debug, "TEMPI_VERIFY_PLANS: %s: static plan %s agrees with its datatype", call,
            sp->text ? sp->text : "(no text)");
  std::lock_guard<std::mutex> lock(memoMutex);
  verified.insert(key);
}

void checkArrays(MPI_Comm comm, bool neighbor, const void *sendbuf,
                 const tempi_static_plan *const sendplans[], const MPI_Datatype sendtypes[],
                 const tempi_static_plan *const recvplans[], const MPI_Datatype recvtypes[],
                 const char *call) {
  int in = 0, out = 0;
  if (collectivePeers(comm, neighbor, &in, &out) != MPI_SUCCESS) return; // the call reports it
  if (sendplans && sendtypes && sendbuf != MPI_IN_PLACE)
    for (int i = 0; i < out; ++i)
      if (sendplans[i]) check(sendplans[i], sendtypes[i], call);
  if (recvplans && recvtypes)
    for (int i = 0; i < in; ++i)
      if (recvplans[i]) check(recvplans[i], recvtypes[i], call);
}

void forgetType(MPI_Datatype type) {
  const uint64_t k = handleKey(type);
  std::lock_guard<std::mutex> lock(memoMutex);
  auto it = verified.lower_bound({k, nullptr});
  while (it != verified.end() && it->first == k) it = verified.erase(it);
}

void onInit(bool on) {
  if (!on) return;
  if (PMPI_Comm_dup(MPI_COMM_SELF, &packComm) != MPI_SUCCESS) {
    TEMPI_LOG(Warn, "TEMPI_VERIFY_PLANS: cannot duplicate MPI_COMM_SELF; static plans are not "
                    "checked");
    return;
  }
  PMPI_Comm_set_errhandler(packComm, MPI_ERRORS_RETURN);
  gOn = true;
  TEMPI_LOG(Info, "TEMPI_VERIFY_PLANS=1: every static plan is checked against its datatype");
}

void onFinalize() {
  gOn = false;
  if (packComm != MPI_COMM_NULL) PMPI_Comm_free(&packComm);
  std::lock_guard<std::mutex> lock(memoMutex);
  verified.clear();
}

} // namespace tempi::verify
