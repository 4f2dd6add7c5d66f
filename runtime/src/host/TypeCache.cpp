/// \file
/// The datatype cache (TypeCache.h) and plan construction from a committed MPI datatype.
#include "TypeCache.h"

#include "Env.h"
#include "Handles.h"
#include "DecodeAdapter.h"
#include "PackProbe.h"
#include "passes/PassRegistry.h"
#include "passes/StridedBlock.h"
#include "passes/TextForm.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace tempi {

TypePlan::~TypePlan() {
  if (uploaded) device::releaseBlockList(blocks);
}

tempi_result TypePlan::ensureUploaded() const {
  if (kind != Kind::Blocks) return TEMPI_SUCCESS;
  std::lock_guard<std::mutex> lock(uploadMutex);
  if (uploaded) return TEMPI_SUCCESS;
  tempi_result r = device::uploadBlockList(blocks);
  if (r == TEMPI_SUCCESS) uploaded = true;
  return r;
}

TypePlanPtr planFromStrided(const StridedBlock &b, int64_t trueLb, int64_t trueExtent) {
  auto p = std::make_shared<TypePlan>();
  p->kind = TypePlan::Kind::Strided;
  p->kernel = makePlan(b);
  p->size = b.size();
  p->extent = b.extent;
  p->lb = b.lb;
  p->trueLb = trueLb;
  p->trueExtent = trueExtent;
  p->contiguous = b.dims.empty() && b.bytes == b.extent && b.start == b.lb;
  return p;
}

void touchedSpan(const TypePlan &p, int64_t count, int64_t *lo, int64_t *hi) {
  if (count <= 0 || p.size == 0) {
    *lo = *hi = 0;
    return;
  }
  int64_t first = p.trueLb, last = p.trueLb + (count - 1) * p.extent;
  *lo = std::min(first, last);
  *hi = std::max(first, last) + p.trueExtent;
}

namespace typecache {
namespace {
std::shared_mutex mutex;
std::unordered_map<uint64_t, TypePlanPtr> plans;
/// Bumped (under the unique lock) whenever a handle's plan is replaced or dropped: memos of
/// lookups (Transfer.cpp, planFor) taken at an older generation are stale.
std::atomic<uint64_t> changes{1};

/// A mirror plan with the MPI's layout; mutable until returned, for the callers' flags.
std::shared_ptr<TypePlan> mirror(const TypePlan &layout, std::string why) {
  auto p = std::make_shared<TypePlan>();
  p->kind = TypePlan::Kind::Mirror;
  p->size = layout.size;
  p->extent = layout.extent;
  p->lb = layout.lb;
  p->trueLb = layout.trueLb;
  p->trueExtent = layout.trueExtent;
  p->why = std::move(why);
  return p;
}
} // namespace

namespace {
/// Whether a translated type is canonicalized at commit or planned straight from its block list.
/// The passes cost up to about 1.5 us per IR node (a list without structure: an irregular
/// hindexed of 65,536 blocks took 150-300 ms a commit), walking the block list about 25 ns per
/// block; and for a plan the passes can add one thing to the block list, a StridedBlock, which
/// stridedFromBlocks finds in linear time. So a tree of more than kCanonicalizeMaxNodes nodes is
/// canonicalized only while each node stands for kBlocksPerNodeToCanonicalize blocks or more
/// (translate made each arithmetic run of blocks one stream: a regular list is a few nodes).
constexpr size_t kCanonicalizeMaxNodes = 1024;
constexpr uint64_t kBlocksPerNodeToCanonicalize = 64;

/// IR nodes (a shared child counted once per use) and dense runs before merging, saturating.
struct TreeSize {
  uint64_t nodes = 0, runs = 0;
};
TreeSize sizeOf(const IRNode &n) {
  constexpr uint64_t kMax = uint64_t(1) << 62;
  TreeSize t{1, 0};
  switch (n.kind) {
  case IRKind::Dense: t.runs = n.bytes > 0 ? 1 : 0; break;
  case IRKind::Stream: {
    TreeSize c = sizeOf(*n.child);
    t.nodes += c.nodes;
    uint64_t count = n.count > 0 ? uint64_t(n.count) : 0;
    t.runs = c.runs != 0 && count > kMax / c.runs ? kMax : c.runs * count;
    break;
  }
  case IRKind::Seq:
    for (const IRPtr &e : n.elems) {
      TreeSize c = sizeOf(*e);
      t.nodes += c.nodes;
      t.runs = std::min(kMax, t.runs + c.runs);
    }
    break;
  }
  return t;
}

bool canonicalizeAtCommit(const TreeSize &t) {
  return t.nodes <= kCanonicalizeMaxNodes || t.runs / t.nodes >= kBlocksPerNodeToCanonicalize;
}

/// The plan, or the mirror when the MPI packs the type in another order (PackProbe.h).
TypePlanPtr checkedOrder(MPI_Datatype type, TypePlanPtr plan, const TypePlan &layout,
                         const TypeExpr &expr) {
  if (!orderWorthProbing(*plan)) return plan;
  switch (probePackOrder(type, *plan)) {
  case ProbeResult::Agrees: return plan;
  case ProbeResult::NotProbed:
    TEMPI_LOG(Debug, "pack order of %s not probed (span %lld bytes)", printExpr(expr).c_str(),
              (long long)plan->trueExtent);
    return plan;
  case ProbeResult::Differs: break;
  }
  TEMPI_LOG(Info, "the MPI packs %s in another byte order than TEMPI's plan; the type takes the "
                  "mirror path (the MPI packs it)",
            printExpr(expr).c_str());
  auto m = mirror(layout, "the MPI packs it in another order");
  m->orderDiffers = true;
  return m;
}
} // namespace

TypePlanPtr buildPlan(MPI_Datatype type, bool probeOrder) {
  TypePlan layout;
  MPI_Count size = 0, lb = 0, extent = 0, tlb = 0, textent = 0;
  if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS ||
      PMPI_Type_get_extent_x(type, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Type_get_true_extent_x(type, &tlb, &textent) != MPI_SUCCESS) {
    auto p = mirror(layout, "the MPI did not report the type's size and extent");
    p->invalid = true;
    return p;
  }
  layout.size = size;
  layout.extent = extent;
  layout.lb = lb;
  layout.trueLb = tlb;
  layout.trueExtent = textent;
  if (settings().noTypeCache) return mirror(layout, "TEMPI_NO_TYPE_CACHE is set");

  int ni = 0, na = 0, nd = 0, combiner = 0;
  if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
    return mirror(layout, "MPI_Type_get_envelope failed");
  if (combiner == MPI_COMBINER_NAMED && size == extent && lb == 0 && tlb == 0 && textent == size) {
    StridedBlock b;
    b.start = 0;
    b.bytes = size;
    b.extent = extent;
    b.lb = 0;
    return planFromStrided(b, tlb, textent);
  }

  Result<TypeExprPtr> expr = decodeType(type);
  if (!expr) return mirror(layout, "not decoded: " + expr.error());
  Result<IRPtr> ir = translate(**expr);
  if (!ir) return mirror(layout, "not translated: " + ir.error());
  const Layout &l = (*ir)->layout; // canonicalize() keeps the root's layout
  if (l.size != size || l.extent != extent || l.lb != lb || l.trueLb != tlb ||
      l.trueExtent != textent) {
    TEMPI_LOG(Warn, "decoded layout of %s disagrees with the MPI's (size %lld/%lld, extent "
                    "%lld/%lld); the type takes the mirror path",
              printExpr(**expr).c_str(), (long long)l.size, (long long)size, (long long)l.extent,
              (long long)extent);
    return mirror(layout, "decoded layout disagrees with the MPI");
  }
  auto p = std::make_shared<TypePlan>();
  const TreeSize treeSize = sizeOf(**ir);
  const bool large = !canonicalizeAtCommit(treeSize);
  IRPtr tree = large ? *ir : canonicalize(*ir); // the block lists of both are the same
  // A canonical tree shows its StridedBlock; a large one's is found from its block list.
  std::optional<StridedBlock> sb = large ? std::nullopt : toStridedBlock(*tree);
  if (large || !sb)
    forEachBlock(*tree, 1, [&](int64_t off, int64_t bytes) {
      p->blocks.offsets.push_back(off);
      p->blocks.lengths.push_back(bytes);
    });
  if (large) {
    sb = stridedFromBlocks(p->blocks.offsets, p->blocks.lengths, extent, lb);
    TEMPI_LOG(Info, "a %s type of %zu blocks (%llu IR nodes, more than %zu) is planned from its "
                    "block list without canonicalization: %s",
              combinerName((*expr)->combiner), p->blocks.offsets.size(),
              (unsigned long long)treeSize.nodes, kCanonicalizeMaxNodes,
              sb ? printStrided(*sb).c_str() : "a block list");
  }
  if (sb) {
    TypePlanPtr sp = planFromStrided(*sb, tlb, textent);
    if (!large)
      TEMPI_LOG(Debug, "planned %s as %s", printExpr(**expr).c_str(), printStrided(*sb).c_str());
    return probeOrder ? checkedOrder(type, std::move(sp), layout, **expr) : sp;
  }
  p->kind = TypePlan::Kind::Blocks;
  p->size = size;
  p->extent = extent;
  p->lb = lb;
  p->trueLb = tlb;
  p->trueExtent = textent;
  p->blocks.extent = extent;
  p->blocks.size = size;
  if (!large)
    TEMPI_LOG(Debug, "planned %s as %zu blocks", printExpr(**expr).c_str(),
              p->blocks.offsets.size());
  return probeOrder ? checkedOrder(type, std::move(p), layout, **expr) : p;
}

void onCommit(MPI_Datatype type) {
  TypePlanPtr p = buildPlan(type, /*probeOrder=*/true);
  std::unique_lock<std::shared_mutex> lock(mutex);
  plans[handleKey(type)] = std::move(p);
  changes.fetch_add(1, std::memory_order_release);
}

void onFree(MPI_Datatype type) {
  std::unique_lock<std::shared_mutex> lock(mutex);
  plans.erase(handleKey(type));
  changes.fetch_add(1, std::memory_order_release);
}

void onDup(MPI_Datatype oldType, MPI_Datatype newType) {
  TypePlanPtr p;
  {
    std::shared_lock<std::shared_mutex> lock(mutex);
    auto it = plans.find(handleKey(oldType));
    if (it != plans.end()) p = it->second;
  }
  if (!p) p = buildPlan(newType);
  std::unique_lock<std::shared_mutex> lock(mutex);
  plans[handleKey(newType)] = std::move(p);
  changes.fetch_add(1, std::memory_order_release);
}

namespace {
/// MPI_ERRORS_RETURN on MPI_COMM_WORLD and MPI_COMM_SELF while it lives, the program's handlers
/// restored after: a handle the cache has not seen may be invalid, and the MPI raises the
/// errors of asking about it there, where the default handler aborts the program before its
/// call could return MPI_ERR_TYPE on its own communicator (finding 2 of docs/reliability.md).
/// Only on the miss path (named types on first use, erroneous handles, types committed behind
/// the interposer's back); another thread's error in this window returns instead of aborting.
class QuietMpiErrors {
public:
  QuietMpiErrors() {
    PMPI_Comm_get_errhandler(MPI_COMM_WORLD, &world_);
    PMPI_Comm_get_errhandler(MPI_COMM_SELF, &self_);
    PMPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    PMPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  }
  ~QuietMpiErrors() {
    PMPI_Comm_set_errhandler(MPI_COMM_WORLD, world_);
    PMPI_Comm_set_errhandler(MPI_COMM_SELF, self_);
    PMPI_Errhandler_free(&world_);
    PMPI_Errhandler_free(&self_);
  }
  QuietMpiErrors(const QuietMpiErrors &) = delete;
  QuietMpiErrors &operator=(const QuietMpiErrors &) = delete;

private:
  MPI_Errhandler world_ = MPI_ERRHANDLER_NULL, self_ = MPI_ERRHANDLER_NULL;
};
std::mutex missMutex; // one miss at a time swaps the handlers
} // namespace

TypePlanPtr lookup(MPI_Datatype type) {
  {
    std::shared_lock<std::shared_mutex> lock(mutex);
    auto it = plans.find(handleKey(type));
    if (it != plans.end()) return it->second;
  }
  TypePlanPtr p;
  {
    std::lock_guard<std::mutex> miss(missMutex);
    QuietMpiErrors quiet;
    p = buildPlan(type);
  }
  if (p->invalid) return p; // not cached: the handle may name a valid type later
  std::unique_lock<std::shared_mutex> lock(mutex);
  return plans.emplace(handleKey(type), std::move(p)).first->second;
}

TypePlanPtr find(MPI_Datatype type) {
  std::shared_lock<std::shared_mutex> lock(mutex);
  auto it = plans.find(handleKey(type));
  return it == plans.end() ? nullptr : it->second;
}

size_t cachedCount() {
  std::shared_lock<std::shared_mutex> lock(mutex);
  return plans.size();
}

void clear() {
  std::unique_lock<std::shared_mutex> lock(mutex);
  plans.clear();
  changes.fetch_add(1, std::memory_order_release);
}

uint64_t generation() { return changes.load(std::memory_order_acquire); }

} // namespace typecache
} // namespace tempi
