/// \file
/// The request table and the Wait/Test/Start/Request_free logic around it (Requests.h).
#include "Requests.h"

#include "Batch.h"
#include "DeferredSends.h"
#include "Handles.h"
#include "Runtime.h"

#include <atomic>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tempi::requests {
namespace {

std::mutex mutex;
std::unordered_map<uint64_t, std::unique_ptr<PendingOp>> table;
std::vector<std::pair<MPI_Request, std::unique_ptr<PendingOp>>> detached;
std::atomic<size_t> live{0}; // table.size() + detached.size()

void updateLive() { live.store(table.size() + detached.size(), std::memory_order_relaxed); }

bool owns(uint64_t key) {
  std::lock_guard<std::mutex> lock(mutex);
  return table.count(key) != 0;
}

/// Completion of requests the MPI reported done, in two steps: add() takes each op out of the
/// table and enqueues its unpack into one batch; finish() runs the batch (one synchronization for
/// all of them), releases the staging and reports the first error.
class Completions {
public:
  /// `handle`: the program's request slot, so that a stand-in's persistent request is freed.
  /// `arrived`: false when the MPI reported an error for this request (a truncated or failed
  /// receive): nothing is unpacked, as the MPI wrote nothing the status could vouch for.
  void add(uint64_t key, MPI_Status &status, MPI_Request *handle, bool arrived = true) {
    Item item;
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = table.find(key);
      if (it == table.end()) return;
      if (!it->second->active) return; // an inactive persistent request
      if (it->second->persistent) {
        item.op = it->second.get();
      } else {
        item.owned = std::move(it->second);
        table.erase(it);
        item.op = item.owned.get();
        updateLive();
      }
    }
    PendingOp &op = *item.op;
    item.comm = op.comm;
    if (op.failed != TEMPI_SUCCESS)
      item.r = op.failed;
    else if (op.isRecv && (arrived || op.wire.mirror)) // a mirror copy-back is always exact
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
      if (item.owned) releaseWire(item.owned->wire);
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

/// Finishes the op behind `key` after the MPI completed its request with `status`.
int complete(uint64_t key, MPI_Status &status, MPI_Request *handle, bool arrived) {
  Completions c;
  c.add(key, status, handle, arrived);
  return c.finish();
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

/// Keys of `count` requests and whether any is ours.
bool snapshot(int count, const MPI_Request reqs[], std::vector<uint64_t> &keys,
              std::vector<char> &ours) {
  keys.resize(count);
  ours.assign(count, 0);
  bool anyOurs = false;
  std::lock_guard<std::mutex> lock(mutex);
  for (int i = 0; i < count; ++i) {
    keys[i] = handleKey(reqs[i]);
    if (reqs[i] != MPI_REQUEST_NULL && table.count(keys[i])) ours[i] = anyOurs = true;
  }
  return anyOurs;
}

int firstError(int rc, int more) { return rc != MPI_SUCCESS ? rc : more; }

} // namespace

bool any() { return live.load(std::memory_order_relaxed) != 0; }

size_t pendingCount() {
  std::lock_guard<std::mutex> lock(mutex);
  return table.size() + detached.size();
}

void markFailed(MPI_Request request, tempi_result r) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = table.find(handleKey(request));
  if (it != table.end()) it->second->failed = r;
  for (auto &[req, op] : detached)
    if (req == request) op->failed = r;
}

void add(MPI_Request request, std::unique_ptr<PendingOp> op) {
  // An MPI may complete a request at once and hand out a shared handle for all such requests
  // (MPICH does for eager sends and MPI_PROC_NULL receives): such an operation is finished now,
  // never registered under a handle another operation may carry too. The program's later
  // Wait/Test gets its status from the MPI as usual.
  if (!op->persistent && !op->standIn) {
    int done = 0;
    MPI_Status st;
    st.MPI_ERROR = MPI_SUCCESS; // not every MPI sets it on success
    if (PMPI_Request_get_status(request, &done, &st) == MPI_SUCCESS && done) {
      int cancelled = 0;
      PMPI_Test_cancelled(&st, &cancelled);
      tempi_result r = TEMPI_SUCCESS;
      if (op->isRecv && !cancelled && st.MPI_ERROR == MPI_SUCCESS) r = finishRecv(op->wire, st);
      releaseWire(op->wire);
      if (r == TEMPI_SUCCESS) return;
      op->failed = r; // registered after all, so that its Wait/Test reports the failure
      op->active = true;
    }
  }
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = table.try_emplace(handleKey(request), nullptr);
  if (!inserted && it->second) { // a stale entry: its request ended without TEMPI seeing it
    TEMPI_LOG(Warn, "a device-buffer request handle was reused before its completion was seen; "
                    "releasing the old staging");
    releaseWire(it->second->wire);
  }
  it->second = std::move(op);
  updateLive();
}

int wait(MPI_Request *request, MPI_Status *status) {
  TEMPI_FLUSH_DEFERRED();
  if (!any()) return PMPI_Wait(request, status);
  progressDetached(false);
  const uint64_t key = handleKey(*request);
  if (*request == MPI_REQUEST_NULL || !owns(key)) return PMPI_Wait(request, status);
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Wait(request, st);
  return firstError(rc, complete(key, *st, request, rc == MPI_SUCCESS));
}

int test(MPI_Request *request, int *flag, MPI_Status *status) {
  TEMPI_FLUSH_DEFERRED();
  if (!any()) return PMPI_Test(request, flag, status);
  progressDetached(false);
  const uint64_t key = handleKey(*request);
  if (*request == MPI_REQUEST_NULL || !owns(key)) return PMPI_Test(request, flag, status);
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Test(request, flag, st);
  if (!*flag) return rc;
  return firstError(rc, complete(key, *st, request, rc == MPI_SUCCESS));
}

/// Finishes every request of a Waitall/Testall that completed, as one batch. With
/// MPI_ERR_IN_STATUS, entries still pending (MPI_ERR_PENDING) are left alone.
static int completeAll(int count, MPI_Request requests[], const std::vector<uint64_t> &keys,
                       const std::vector<char> &ours, MPI_Status st[], int rc) {
  Completions c;
  for (int i = 0; i < count; ++i) {
    if (!ours[i]) continue;
    if (rc == MPI_ERR_IN_STATUS && st[i].MPI_ERROR == MPI_ERR_PENDING) continue;
    const bool arrived = rc == MPI_SUCCESS || (rc == MPI_ERR_IN_STATUS && st[i].MPI_ERROR == MPI_SUCCESS);
    c.add(keys[i], st[i], &requests[i], arrived);
  }
  return firstError(rc, c.finish());
}

int waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  TEMPI_FLUSH_DEFERRED();
  if (!any()) return PMPI_Waitall(count, requests, statuses);
  progressDetached(false);
  std::vector<uint64_t> keys;
  std::vector<char> ours;
  if (!snapshot(count, requests, keys, ours)) return PMPI_Waitall(count, requests, statuses);
  std::vector<MPI_Status> local;
  MPI_Status *st = statuses;
  if (statuses == MPI_STATUSES_IGNORE) {
    local.resize(count);
    st = local.data();
  }
  int rc = PMPI_Waitall(count, requests, st);
  return completeAll(count, requests, keys, ours, st, rc);
}

int testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[]) {
  TEMPI_FLUSH_DEFERRED();
  if (!any()) return PMPI_Testall(count, requests, flag, statuses);
  progressDetached(false);
  std::vector<uint64_t> keys;
  std::vector<char> ours;
  if (!snapshot(count, requests, keys, ours)) return PMPI_Testall(count, requests, flag, statuses);
  std::vector<MPI_Status> local;
  MPI_Status *st = statuses;
  if (statuses == MPI_STATUSES_IGNORE) {
    local.resize(count);
    st = local.data();
  }
  int rc = PMPI_Testall(count, requests, flag, st);
  if (!*flag) return rc;
  return completeAll(count, requests, keys, ours, st, rc);
}

int waitany(int count, MPI_Request requests[], int *index, MPI_Status *status) {
  TEMPI_FLUSH_DEFERRED();
  if (!any()) return PMPI_Waitany(count, requests, index, status);
  progressDetached(false);
  std::vector<uint64_t> keys;
  std::vector<char> ours;
  if (!snapshot(count, requests, keys, ours)) return PMPI_Waitany(count, requests, index, status);
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Waitany(count, requests, index, st);
  if (*index == MPI_UNDEFINED || !ours[*index]) return rc;
  return firstError(rc, complete(keys[*index], *st, &requests[*index], rc == MPI_SUCCESS));
}

int testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status) {
  TEMPI_FLUSH_DEFERRED();
  if (!any()) return PMPI_Testany(count, requests, index, flag, status);
  progressDetached(false);
  std::vector<uint64_t> keys;
  std::vector<char> ours;
  if (!snapshot(count, requests, keys, ours))
    return PMPI_Testany(count, requests, index, flag, status);
  MPI_Status local;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Testany(count, requests, index, flag, st);
  if (!*flag || *index == MPI_UNDEFINED || !ours[*index]) return rc;
  return firstError(rc, complete(keys[*index], *st, &requests[*index], rc == MPI_SUCCESS));
}

static int someCommon(bool isWait, int incount, MPI_Request requests[], int *outcount,
                      int indices[], MPI_Status statuses[]) {
  std::vector<uint64_t> keys;
  std::vector<char> ours;
  if (!snapshot(incount, requests, keys, ours))
    return isWait ? PMPI_Waitsome(incount, requests, outcount, indices, statuses)
                  : PMPI_Testsome(incount, requests, outcount, indices, statuses);
  std::vector<MPI_Status> local;
  MPI_Status *st = statuses;
  if (statuses == MPI_STATUSES_IGNORE) {
    local.resize(incount);
    st = local.data();
  }
  int rc = isWait ? PMPI_Waitsome(incount, requests, outcount, indices, st)
                  : PMPI_Testsome(incount, requests, outcount, indices, st);
  if (*outcount == MPI_UNDEFINED) return rc;
  Completions c;
  for (int k = 0; k < *outcount; ++k) {
    int i = indices[k];
    if (!ours[i]) continue;
    if (rc == MPI_ERR_IN_STATUS && st[k].MPI_ERROR == MPI_ERR_PENDING) continue;
    const bool arrived = rc == MPI_SUCCESS || (rc == MPI_ERR_IN_STATUS && st[k].MPI_ERROR == MPI_SUCCESS);
    c.add(keys[i], st[k], &requests[i], arrived);
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
    auto it = table.find(handleKey(request));
    if (it == table.end()) return TEMPI_SUCCESS;
    op = it->second.get();
  }
  *comm = op->comm;
  tempi_result r = op->isRecv ? prepareRecv(op->wire) : enqueuePack(op->wire, sends);
  if (r == TEMPI_SUCCESS) op->active = true;
  return r;
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
      if (auto it = table.find(handleKey(requests[i])); it != table.end()) it->second->active = false;
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
    auto it = table.find(handleKey(*request));
    if (it == table.end()) return PMPI_Request_free(request);
    op = std::move(it->second);
    table.erase(it);
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
  std::unordered_map<uint64_t, std::unique_ptr<PendingOp>> rest;
  {
    std::lock_guard<std::mutex> lock(mutex);
    rest.swap(table);
    updateLive();
  }
  if (!rest.empty())
    TEMPI_LOG(Info, "%zu device-buffer requests were never completed or freed before "
                    "MPI_Finalize; their staging is released",
              rest.size());
  for (auto &[key, op] : rest) releaseWire(op->wire);
}

} // namespace tempi::requests
