/// \file
/// The calling thread's deferred sends (DeferredSends.h).
#include "DeferredSends.h"

#include "Requests.h"
#include "Runtime.h"

#include <vector>

namespace tempi::deferred {
namespace {

struct Pending {
  std::vector<MPI_Request> requests;
  std::vector<MPI_Comm> comms;
  Batch batch{true};
};
thread_local Pending mine;

} // namespace

size_t pending() { return mine.requests.size(); }
Batch &batch() { return mine.batch; }

void add(MPI_Request request, MPI_Comm comm) {
  mine.requests.push_back(request);
  mine.comms.push_back(comm);
}

namespace {
/// The vectors flushPending() takes the pending sends into; their capacity goes back to `mine`
/// afterwards, so a burst's push_backs do not grow fresh vectors every exchange.
struct Taken {
  std::vector<MPI_Request> requests;
  std::vector<MPI_Comm> comms;
  Taken() {
    requests.swap(mine.requests);
    comms.swap(mine.comms);
  }
  ~Taken() {
    if (!mine.requests.empty()) return; // sends deferred meanwhile keep their own vectors
    requests.clear();
    comms.clear();
    mine.requests.swap(requests);
    mine.comms.swap(comms);
  }
};
} // namespace

int flushPending() {
  Taken taken;
  std::vector<MPI_Request> &requests = taken.requests;
  const tempi_result r = mine.batch.run();
  if (requests.empty()) return MPI_SUCCESS;
  if (r != TEMPI_SUCCESS) {
    for (MPI_Request q : requests) requests::markFailed(q, r);
    return runtime::raise(taken.comms.front(), r, "packing deferred device sends");
  }
  TEMPI_LOG(Debug, "starting %zu deferred sends", requests.size());
  // The handles are the ones the program holds: Startall starts them in place.
  return PMPI_Startall(int(requests.size()), requests.data());
}

} // namespace tempi::deferred
