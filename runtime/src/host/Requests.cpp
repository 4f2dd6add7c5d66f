/// \file
/// The request table and the Wait/Test/Start/Request_free logic around it (Requests.h).
#include "Requests.h"

#include "Batch.h"
#include "DeferredSends.h"
#include "HandleMap.h"
#include "Handles.h"
#include "Runtime.h"
#include "Truncation.h"

#include <atomic>
#include <cstring>
#include <mutex>
#include <vector>

namespace tempi::requests {
namespace {

std::mutex mutex;
HandleMap<std::unique_ptr<PendingOp>> table;
std::vector<std::pair<MPI_Request, std::unique_ptr<PendingOp>>> detached;
std::atomic<size_t> live{0}; // table.size() + detached.size()

void updateLive() { live.store(table.size() + detached.size(), std::memory_order_relaxed); }

/// The calling thread's completed ops, reset, for newOp() (bounded).
constexpr size_t kRecycledOps = 4096;
thread_local std::vector<std::unique_ptr<PendingOp>> recycledOps;

/// Keeps a finished op (its staging already released) for the thread's next newOp().
void recycle(std::unique_ptr<PendingOp> op) {
  if (!op || recycledOps.size() >= kRecycledOps) return;
  *op = PendingOp{};
  recycledOps.push_back(std::move(op));
}

/// The ops of the requests one Wait/Test call is given, taken out of the table BEFORE the MPI call
/// that may complete them: completing a one-shot request frees its handle, and under
/// MPI_THREAD_MULTIPLE another thread's new request may get the same handle value (and register
/// its own op under it) before this thread could look the old op up again (finding 4 of
/// docs/reliability.md). Persistent ops stay in the table: their handles live until
/// MPI_Request_free. Ops not taken by a completion go back into the table when the claim ends:
/// their requests did not complete, so their handles were not freed.
class Claim {
public:
  /// False when no request is TEMPI's (the caller then just calls the MPI).
  bool take(int count, const MPI_Request reqs[]) {
    entries_.resize(size_t(count));
    bool any = false;
    std::lock_guard<std::mutex> lock(mutex);
    for (int i = 0; i < count; ++i) {
      Entry &e = entries_[size_t(i)];
      e.key = handleKey(reqs[i]);
      if (reqs[i] == MPI_REQUEST_NULL) continue;
      std::unique_ptr<PendingOp> *op = table.find(e.key);
      if (!op) continue;
      e.ours = any = true;
      if (!(*op)->persistent) table.erase(e.key, &e.owned);
    }
    updateLive();
    return any;
  }
  bool ours(int i) const { return entries_[size_t(i)].ours; }
  uint64_t key(int i) const { return entries_[size_t(i)].key; }
  /// The one-shot op of request i (null for a persistent one), now the caller's.
  std::unique_ptr<PendingOp> release(int i) { return std::move(entries_[size_t(i)].owned); }

  ~Claim() {
    std::lock_guard<std::mutex> lock(mutex);
    for (Entry &e : entries_) {
      if (!e.owned) continue;
      auto [op, inserted] = table.tryEmplace(e.key);
      if (!inserted && *op) { // cannot happen: the handle was never freed
        TEMPI_LOG(Warn, "a pending device-buffer request's handle was taken meanwhile; releasing "
                        "its staging");
        releaseWire(e.owned->wire);
        continue;
      }
      *op = std::move(e.owned);
    }
    updateLive();
  }

private:
  struct Entry {
    uint64_t key = 0;
    bool ours = false;
    std::unique_ptr<PendingOp> owned; ///< a one-shot op taken out of the table
  };
  std::vector<Entry> entries_; // one allocation per Wait/Test call
};

/// Completion of requests the MPI reported done, in two steps: add() takes each op (out of its
/// Claim, or from the table for a persistent one) and enqueues its unpack into one batch;
/// finish() runs the batch (one synchronization for all of them), releases the staging and
/// reports the first error.
class Completions {
public:
  /// Request i of `claim`. `handle`: the program's request slot, so that a stand-in's persistent
  /// request is freed. `code`: the MPI's error for this request (its return value, or its
  /// status's MPI_ERROR in a multiple completion); after an error a receive unpacks nothing but
  /// the part of a truncated message the MPI vouches for (Truncation.h).
  void add(Claim &claim, int i, MPI_Status &status, MPI_Request *handle, int code = MPI_SUCCESS) {
    Item item;
    item.owned = claim.release(i);
    if (item.owned) {
      item.op = item.owned.get();
    } else {
      std::lock_guard<std::mutex> lock(mutex);
      std::unique_ptr<PendingOp> *op = table.find(claim.key(i));
      if (!op) return;
      item.op = op->get();
    }
    if (!item.op->active) { // an inactive request: left as it is, in the table
      if (item.owned) {
        std::lock_guard<std::mutex> lock(mutex);
        *table.tryEmplace(claim.key(i)).first = std::move(item.owned);
        updateLive();
      }
      return;
    }
    PendingOp &op = *item.op;
    item.comm = op.comm;
    if (op.failed != TEMPI_SUCCESS)
      item.r = op.failed;
    else if (op.arrivedBytes >= 0) { // finished at registration, or by Request_get_status
      // After MPI_Request_get_status the MPI may report a persistent request's Wait with an
      // empty status (MPICH 5.0.2 does; 4.0.2 gives the message's): the program sees the same.
      const bool empty = status.MPI_SOURCE == MPI_ANY_SOURCE && status.MPI_TAG == MPI_ANY_TAG;
      if (!empty)
        PMPI_Status_set_elements_x(&status, MPI_BYTE, op.arrivedBytes);
    }
    else if (op.isRecv && receiveDelivers(code, status, op.wire))
      item.r = enqueueFinishRecv(op.wire, status, batch_);
    op.active = false;
    if (op.standIn && handle && *handle != MPI_REQUEST_NULL) PMPI_Request_free(handle);
    items_.push_back(std::move(item));
  }

  int finish() {
    const tempi_result ran = batch_.run();
    int err = MPI_SUCCESS;
    for (Item &item : items_) {
      tempi_result r = item.r != TEMPI_SUCCESS ? item.r : (item.op->isRecv ? ran : TEMPI_SUCCESS);
      if (item.owned) {
        releaseWire(item.owned->wire);
        recycle(std::move(item.owned));
      }
      if (r != TEMPI_SUCCESS && err == MPI_SUCCESS)
        err = runtime::raise(item.comm, r, "completing a device-buffer request");
    }
    items_.clear();
    return err;
  }

private:
  struct Item {
    std::unique_ptr<PendingOp> owned; ///< a one-shot op, released after the batch ran
    PendingOp *op = nullptr;
    MPI_Comm comm = MPI_COMM_NULL;
    tempi_result r = TEMPI_SUCCESS;
  };
  Batch batch_{false};
  std::vector<Item> items_;
};

/// Finishes request i of `claim` after the MPI completed it with `status`.
int complete(Claim &claim, int i, MPI_Status &status, MPI_Request *handle, int code) {
  Completions c;
  c.add(claim, i, status, handle, code);
  return c.finish();
}

/// Zeroes statuses before the MPI fills them: for a nonblocking collective (a host-mirrored call's
/// request) MPICH leaves the status as it was, and an uninitialized "cancelled" bit made
/// completion skip the copy back of the result (runtime_host_mirror_device, flaky).
MPI_Status *cleared(MPI_Status *st, int n = 1) {
  std::memset(st, 0, sizeof(MPI_Status) * size_t(n));
  return st;
}

/// Tests (or, at finalize, waits for) detached requests and finishes those that completed.
void progressDetached(bool block) {
  std::vector<std::pair<MPI_Request, std::unique_ptr<PendingOp>>> mine;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (detached.empty()) return;
    mine.swap(detached);
    updateLive();
  }
  std::vector<std::pair<MPI_Request, std::unique_ptr<PendingOp>>> keep;
  for (auto &[req, op] : mine) {
    MPI_Status st;
    cleared(&st);
    int flag = 0;
    if (block) {
      PMPI_Wait(&req, &st);
      flag = 1;
    } else {
      PMPI_Test(&req, &flag, &st);
    }
    if (!flag) {
      keep.emplace_back(req, std::move(op));
      continue;
    }
    tempi_result r = op->failed != TEMPI_SUCCESS ? op->failed
                     : op->isRecv                ? finishRecv(op->wire, st)
                                                 : TEMPI_SUCCESS;
    if (r != TEMPI_SUCCESS)
      TEMPI_LOG(Error, "completing a freed device request: %s", tempi_result_string(r));
    if ((op->persistent || op->standIn) && req != MPI_REQUEST_NULL) PMPI_Request_free(&req);
    releaseWire(op->wire);
  }
  std::lock_guard<std::mutex> lock(mutex);
  for (auto &k : keep) detached.push_back(std::move(k));
  updateLive();
}

int firstError(int rc, int more) { return rc != MPI_SUCCESS ? rc : more; }

} // namespace

std::unique_ptr<PendingOp> newOp() {
  if (recycledOps.empty()) return std::make_unique<PendingOp>();
  std::unique_ptr<PendingOp> op = std::move(recycledOps.back());
  recycledOps.pop_back();
  return op;
}

bool any() { return live.load(std::memory_order_relaxed) != 0; }

size_t pendingCount() {
  std::lock_guard<std::mutex> lock(mutex);
  return table.size() + detached.size();
}

void markFailed(MPI_Request request, tempi_result r) {
  std::lock_guard<std::mutex> lock(mutex);
  if (std::unique_ptr<PendingOp> *op = table.find(handleKey(request))) (*op)->failed = r;
  for (auto &[req, op] : detached)
    if (req == request) op->failed = r;
}

void add(MPI_Request request, std::unique_ptr<PendingOp> op) {
  // An MPI may complete a request at once and hand out a shared handle for all such requests
  // (MPICH does for eager sends and MPI_PROC_NULL receives): such an operation is finished now,
  // never registered under a handle another operation may carry too. The program's later
  // Wait/Test gets its status from the MPI as usual. A receive from a real rank has a handle of
  // its own (PendingOp::ownHandle) and is not asked.
  // A wire whose status may lack the count (Transfer.h, countUnreliable) is finished at the
  // Wait/Test only, with the status the program gets.
  if (!op->persistent && !op->standIn && !op->ownHandle && !op->wire.countUnreliable) {
    int done = 0;
    MPI_Status st;
    cleared(&st); // not every MPI sets MPI_ERROR on success, nor anything for a collective
    if (PMPI_Request_get_status(request, &done, &st) == MPI_SUCCESS && done) {
      int cancelled = 0;
      PMPI_Test_cancelled(&st, &cancelled);
      tempi_result r = TEMPI_SUCCESS;
      MPI_Count before = 0, after = 0;
      PMPI_Get_elements_x(&st, MPI_BYTE, &before);
      if (op->isRecv && !cancelled && stagedBytesLanded(st.MPI_ERROR, st, op->wire))
        r = finishRecv(op->wire, st);
      PMPI_Get_elements_x(&st, MPI_BYTE, &after);
      releaseWire(op->wire);
      if (r == TEMPI_SUCCESS && after == before) return recycle(std::move(op));
      // Registered after all, so that its Wait/Test reports the failure, or the size of the
      // message an IPC notice stood for (the MPI's status has the notice's).
      if (r == TEMPI_SUCCESS) op->arrivedBytes = after;
      op->failed = r;
      op->active = true;
    }
  }
  std::lock_guard<std::mutex> lock(mutex);
  auto [slot, inserted] = table.tryEmplace(handleKey(request));
  if (!inserted && *slot) { // a stale entry: its request ended without TEMPI seeing it
    TEMPI_LOG(Warn, "a device-buffer request handle was reused before its completion was seen; "
                    "releasing the old staging");
    releaseWire((*slot)->wire);
  }
  *slot = std::move(op);
  updateLive();
}

int wait(MPI_Request *request, MPI_Status *status) {
  TEMPI_FLUSH_DEFERRED();
  if (!any()) return PMPI_Wait(request, status);
  progressDetached(false);
  Claim claim;
  if (!claim.take(1, request)) return PMPI_Wait(request, status);
  MPI_Status local;
  MPI_Status *st = cleared(status == MPI_STATUS_IGNORE ? &local : status);
  int rc = PMPI_Wait(request, st);
  return firstError(rc, complete(claim, 0, *st, request, rc));
}

int test(MPI_Request *request, int *flag, MPI_Status *status) {
  TEMPI_FLUSH_DEFERRED();
  if (!any()) return PMPI_Test(request, flag, status);
  progressDetached(false);
  Claim claim;
  if (!claim.take(1, request)) return PMPI_Test(request, flag, status);
  MPI_Status local;
  MPI_Status *st = cleared(status == MPI_STATUS_IGNORE ? &local : status);
  int rc = PMPI_Test(request, flag, st);
  if (!*flag) return rc;
  return firstError(rc, complete(claim, 0, *st, request, rc));
}

/// Finishes every request of a Waitall/Testall that completed, as one batch. With
/// MPI_ERR_IN_STATUS, entries still pending (MPI_ERR_PENDING) are left alone.
static int completeAll(int count, MPI_Request requests[], Claim &claim, MPI_Status st[], int rc) {
  Completions c;
  for (int i = 0; i < count; ++i) {
    if (!claim.ours(i)) continue;
    if (rc == MPI_ERR_IN_STATUS && st[i].MPI_ERROR == MPI_ERR_PENDING) continue;
    c.add(claim, i, st[i], &requests[i], rc == MPI_ERR_IN_STATUS ? st[i].MPI_ERROR : rc);
  }
  return firstError(rc, c.finish());
}

int waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  TEMPI_FLUSH_DEFERRED();
  if (!any()) return PMPI_Waitall(count, requests, statuses);
  progressDetached(false);
  Claim claim;
  if (!claim.take(count, requests)) return PMPI_Waitall(count, requests, statuses);
  std::vector<MPI_Status> local;
  MPI_Status *st = statuses;
  if (statuses == MPI_STATUSES_IGNORE) {
    local.resize(count);
    st = local.data();
  }
  cleared(st, count);
  int rc = PMPI_Waitall(count, requests, st);
  return completeAll(count, requests, claim, st, rc);
}

int testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[]) {
  TEMPI_FLUSH_DEFERRED();
  if (!any()) return PMPI_Testall(count, requests, flag, statuses);
  progressDetached(false);
  Claim claim;
  if (!claim.take(count, requests)) return PMPI_Testall(count, requests, flag, statuses);
  std::vector<MPI_Status> local;
  MPI_Status *st = statuses;
  if (statuses == MPI_STATUSES_IGNORE) {
    local.resize(count);
    st = local.data();
  }
  cleared(st, count);
  int rc = PMPI_Testall(count, requests, flag, st);
  if (!*flag) return rc;
  return completeAll(count, requests, claim, st, rc);
}

int waitany(int count, MPI_Request requests[], int *index, MPI_Status *status) {
  TEMPI_FLUSH_DEFERRED();
  if (!any()) return PMPI_Waitany(count, requests, index, status);
  progressDetached(false);
  Claim claim;
  if (!claim.take(count, requests)) return PMPI_Waitany(count, requests, index, status);
  MPI_Status local;
  MPI_Status *st = cleared(status == MPI_STATUS_IGNORE ? &local : status);
  int rc = PMPI_Waitany(count, requests, index, st);
  if (*index == MPI_UNDEFINED || !claim.ours(*index)) return rc;
  return firstError(rc, complete(claim, *index, *st, &requests[*index], rc));
}

int testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status) {
  TEMPI_FLUSH_DEFERRED();
  if (!any()) return PMPI_Testany(count, requests, index, flag, status);
  progressDetached(false);
  Claim claim;
  if (!claim.take(count, requests)) return PMPI_Testany(count, requests, index, flag, status);
  MPI_Status local;
  MPI_Status *st = cleared(status == MPI_STATUS_IGNORE ? &local : status);
  int rc = PMPI_Testany(count, requests, index, flag, st);
  if (!*flag || *index == MPI_UNDEFINED || !claim.ours(*index)) return rc;
  return firstError(rc, complete(claim, *index, *st, &requests[*index], rc));
}

static int someCommon(bool isWait, int incount, MPI_Request requests[], int *outcount,
                      int indices[], MPI_Status statuses[]) {
  Claim claim;
  if (!claim.take(incount, requests))
    return isWait ? PMPI_Waitsome(incount, requests, outcount, indices, statuses)
                  : PMPI_Testsome(incount, requests, outcount, indices, statuses);
  std::vector<MPI_Status> local;
  MPI_Status *st = statuses;
  if (statuses == MPI_STATUSES_IGNORE) {
    local.resize(incount);
    st = local.data();
  }
  cleared(st, incount);
  int rc = isWait ? PMPI_Waitsome(incount, requests, outcount, indices, st)
                  : PMPI_Testsome(incount, requests, outcount, indices, st);
  if (*outcount == MPI_UNDEFINED) return rc;
  Completions c;
  for (int k = 0; k < *outcount; ++k) {
    int i = indices[k];
    if (!claim.ours(i)) continue;
    if (rc == MPI_ERR_IN_STATUS && st[k].MPI_ERROR == MPI_ERR_PENDING) continue;
    c.add(claim, i, st[k], &requests[i], rc == MPI_ERR_IN_STATUS ? st[k].MPI_ERROR : rc);
  }
  return firstError(rc, c.finish());
}

int waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
             MPI_Status statuses[]) {
  TEMPI_FLUSH_DEFERRED();
  if (!any()) return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
  progressDetached(false);
  return someCommon(true, incount, requests, outcount, indices, statuses);
}

int testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
             MPI_Status statuses[]) {
  TEMPI_FLUSH_DEFERRED();
  if (!any()) return PMPI_Testsome(incount, requests, outcount, indices, statuses);
  progressDetached(false);
  return someCommon(false, incount, requests, outcount, indices, statuses);
}

/// Before a persistent request starts: a send's pack joins `sends` (run by the caller before the
/// MPI starts anything); a mirror receive copies its span out now.
static tempi_result beforeStart(MPI_Request request, Batch &sends, MPI_Comm *comm) {
  PendingOp *op = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    std::unique_ptr<PendingOp> *found = table.find(handleKey(request));
    if (!found) return TEMPI_SUCCESS;
    op = found->get();
  }
  *comm = op->comm;
  tempi_result r = op->isRecv ? prepareRecv(op->wire) : enqueuePack(op->wire, sends);
  if (r == TEMPI_SUCCESS) {
    op->active = true;
    op->arrivedBytes = -1; // a previous run's delivery by requestGetStatus
  }
  return r;
}

int requestGetStatus(MPI_Request request, int *flag, MPI_Status *status) {
  TEMPI_FLUSH_DEFERRED(); // a deferred send completes only once started
  if (!any()) return PMPI_Request_get_status(request, flag, status);
  MPI_Status local;
  MPI_Status *st = cleared(status == MPI_STATUS_IGNORE ? &local : status);
  const int rc = PMPI_Request_get_status(request, flag, st);
  if (rc != MPI_SUCCESS || !*flag || request == MPI_REQUEST_NULL) return rc;
  PendingOp *op = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (std::unique_ptr<PendingOp> *found = table.find(handleKey(request))) op = found->get();
  }
  // The MPI completed a staging receive: the program may read its buffer now, so the unpack
  // runs now (the request stays, as MPI_Request_get_status leaves it). Its Wait/Test then
  // reports the delivered count, as for a receive finished at registration (add()). A wire
  // whose status may lack the count is finished at its Wait/Test only.
  if (!op || !op->active || !op->isRecv || op->failed != TEMPI_SUCCESS ||
      op->arrivedBytes >= 0 || op->wire.countUnreliable)
    return rc;
  int cancelled = 0;
  PMPI_Test_cancelled(st, &cancelled);
  if (cancelled || !receiveDelivers(st->MPI_ERROR, *st, op->wire)) return rc;
  const tempi_result r = finishRecv(op->wire, *st);
  if (r != TEMPI_SUCCESS) {
    op->failed = r;
    return runtime::raise(op->comm, r, "completing a device-buffer receive");
  }
  MPI_Count delivered = 0;
  PMPI_Get_elements_x(st, MPI_BYTE, &delivered);
  op->arrivedBytes = delivered;
  return rc;
}

int start(MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  return startall(1, request);
}

int startall(int count, MPI_Request requests[]) {
  TEMPI_FLUSH_DEFERRED();
  if (!any()) return PMPI_Startall(count, requests);
  // Every send's pack in one batch: one fused launch and one synchronization for all of them.
  Batch sends(true);
  MPI_Comm comm = MPI_COMM_NULL, first = MPI_COMM_NULL;
  tempi_result r = TEMPI_SUCCESS;
  for (int i = 0; i < count && r == TEMPI_SUCCESS; ++i) {
    if (requests[i] == MPI_REQUEST_NULL) continue;
    r = beforeStart(requests[i], sends, &comm);
    if (first == MPI_COMM_NULL) first = comm;
    if (r != TEMPI_SUCCESS) first = comm;
  }
  const tempi_result ran = sends.run();
  if (r == TEMPI_SUCCESS) r = ran;
  if (r != TEMPI_SUCCESS) { // nothing starts: no request may look active to a later Wait
    std::lock_guard<std::mutex> lock(mutex);
    for (int i = 0; i < count; ++i)
      if (std::unique_ptr<PendingOp> *op = table.find(handleKey(requests[i])))
        (*op)->active = false;
    return runtime::raise(first, r, "starting a persistent device-buffer request");
  }
  return PMPI_Startall(count, requests);
}

int requestFree(MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED();
  if (!any() || *request == MPI_REQUEST_NULL) return PMPI_Request_free(request);
  std::unique_ptr<PendingOp> op;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!table.erase(handleKey(*request), &op)) return PMPI_Request_free(request);
    if (op->active) { // keep the real request; finish it later
      detached.emplace_back(*request, std::move(op));
      *request = MPI_REQUEST_NULL;
      updateLive();
      return MPI_SUCCESS;
    }
    updateLive();
  }
  int rc = PMPI_Request_free(request);
  releaseWire(op->wire);
  return rc;
}

void finalize() {
  progressDetached(true);
  HandleMap<std::unique_ptr<PendingOp>> rest;
  {
    std::lock_guard<std::mutex> lock(mutex);
    rest.swap(table);
    updateLive();
  }
  if (!rest.empty())
    TEMPI_LOG(Info, "%zu device-buffer requests were never completed or freed before "
                    "MPI_Finalize; their staging is released",
              rest.size());
  rest.forEach([](uint64_t, std::unique_ptr<PendingOp> &op) { releaseWire(op->wire); });
}

} // namespace tempi::requests
