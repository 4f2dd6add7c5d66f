/// \file
/// The IPC method's bookkeeping (Ipc.h): agreement at MPI_Init, which ranks a notice may go to,
/// the slabs a sender packs into (first-fit parts, given back on acknowledgement), notices, and
/// the acknowledgements on TEMPI's own duplicate of MPI_COMM_WORLD.
#include "Ipc.h"

#include "Batch.h"
#include "CommCache.h"

#include "Runtime.h"
#include "Transfer.h"
#include "runtime/src/device/Device.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <vector>

namespace tempi::ipc {

namespace {

constexpr uint64_t kMagic = 0x43504949504d4554ull; // "TEMPIIPC" in little-endian bytes
constexpr int kAckTag = 7;
constexpr size_t kSlabBytes = size_t(64) << 20;
constexpr int64_t kAlign = 256;
/// TEMPI_IPC_MIN_BYTES=auto without MPS (ranks on one GPU take turns, or have a GPU each).
constexpr uint64_t kIpcMinBytesShared = 65536;

/// Device memory the peers map, on one device (the current one when it was made: programs pick
/// their GPU after MPI_Init, so slabs are made at the first send that needs one). `free` and
/// `used` map offsets to lengths.
struct Slab {
  int device = 0;
  char *base = nullptr;
  int64_t handleOffset = 0; ///< of base in the allocation the handle names
  unsigned char handle[device::kIpcHandleBytes] = {};
  std::map<int64_t, int64_t> free;
  std::map<int64_t, std::pair<int64_t, int64_t>> used; ///< offset -> (length, sequence number)
};

/// One acknowledgement: the slab, the offset (in the handle's allocation) read and the part's
/// sequence number (a duplicate or stale acknowledgement never frees a part taken again since).
struct Ack {
  int64_t slab, offset, seq;
};
/// An acknowledgement message: one or more Acks, as 3 int64 each.
struct AckSend {
  MPI_Request request = MPI_REQUEST_NULL;
  std::unique_ptr<std::vector<Ack>> body;
};

std::mutex mutex;
bool on = false;
uint64_t job = 0;
int worldRank = -1, worldSize = 0;
MPI_Comm ackComm = MPI_COMM_NULL;
std::vector<char> reachable; ///< by world rank: another rank of this node
std::vector<Slab> slabs;
std::vector<AckSend> ackSends;
int64_t nextSeq = 1;

uint64_t hashOf(const Notice &n) {
  // FNV-1a over 8-byte words (the fields before `check` are whole words): it tells a notice from
  // a program's message that happens to start with the magic and the job, not from an attacker.
  static_assert(offsetof(Notice, check) % 8 == 0, "Notice fields are not whole words");
  uint64_t h = 1469598103934665603ull;
  const auto *p = reinterpret_cast<const unsigned char *>(&n);
  for (size_t i = 0; i < offsetof(Notice, check); i += 8) {
    uint64_t word;
    std::memcpy(&word, p + i, 8);
    h = (h ^ word) * 1099511628211ull;
    h ^= h >> 29;
  }
  return h;
}

bool addSlab(int64_t bytes, int device) {
  Slab s;
  s.device = device;
  s.base = static_cast<char *>(device::ipcAllocSlab(size_t(bytes)));
  if (!s.base) return false;
  if (device::ipcGetHandle(s.base, s.handle, &s.handleOffset) != TEMPI_SUCCESS) {
    // Kept (never freed before finalize: a half-made slab is harmless), never used.
    TEMPI_LOG(Warn, "ipc: no handle for a %lld-byte slab", (long long)bytes);
    return false;
  }
  s.free[0] = bytes;
  slabs.push_back(std::move(s));
  TEMPI_LOG(Info, "ipc: slab %zu of %lld bytes on device %d; messages of %llu packed bytes or "
                  "more go by ipc (contiguous ones: %llu; MPS %s)",
            slabs.size() - 1, (long long)bytes, device, (unsigned long long)minBytes(false),
            (unsigned long long)minBytes(true), device::sharedThroughMps(device) ? "on" : "off");
  return true;
}

/// First fit: the offset of `bytes` taken from s (numbered seq), or -1.
int64_t takeFrom(Slab &s, int64_t bytes, int64_t seq) {
  for (auto it = s.free.begin(); it != s.free.end(); ++it) {
    if (it->second < bytes) continue;
    const int64_t off = it->first, len = it->second;
    s.free.erase(it);
    if (len > bytes) s.free[off + bytes] = len - bytes;
    s.used[off] = {bytes, seq};
    return off;
  }
  return -1;
}

/// Gives a used part back, merged with its free neighbours.
void giveBack(int64_t slab, int64_t off, int64_t seq) {
  if (slab < 0 || size_t(slab) >= slabs.size()) return;
  Slab &s = slabs[size_t(slab)];
  auto u = s.used.find(off);
  if (u == s.used.end() || u->second.second != seq) return; // stale or duplicate: ignored
  int64_t len = u->second.first;
  s.used.erase(u);
  auto next = s.free.find(off + len);
  if (next != s.free.end()) {
    len += next->second;
    s.free.erase(next);
  }
  auto prev = s.free.lower_bound(off);
  if (prev != s.free.begin() && (--prev)->first + prev->second == off) {
    prev->second += len;
    return;
  }
  s.free[off] = len;
}

/// Drops the acknowledgement sends that have completed.
void reapAckSends() {
  std::vector<AckSend> keep;
  for (AckSend &a : ackSends) {
    int done = 0;
    PMPI_Test(&a.request, &done, MPI_STATUS_IGNORE);
    if (!done) keep.push_back(std::move(a));
  }
  ackSends.swap(keep);
}

/// Receives every acknowledgement message that has arrived, each of one or more Acks (matched
/// probes: safe with several threads).
void collectAcks() {
  std::vector<Ack> acks;
  for (;;) {
    int flag = 0, values = 0;
    MPI_Message msg;
    MPI_Status st;
    if (PMPI_Improbe(MPI_ANY_SOURCE, kAckTag, ackComm, &flag, &msg, &st) != MPI_SUCCESS || !flag)
      return;
    if (PMPI_Get_count(&st, MPI_INT64_T, &values) != MPI_SUCCESS || values < 0) values = 0;
    acks.assign(size_t(values / 3) + 1, Ack{-1, 0, 0}); // + 1: Mrecv needs a buffer even for 0
    if (PMPI_Mrecv(acks.data(), values, MPI_INT64_T, &msg, MPI_STATUS_IGNORE) != MPI_SUCCESS)
      return;
    for (size_t i = 0; i < size_t(values / 3); ++i) {
      const Ack &a = acks[i];
      if (a.slab >= 0 && size_t(a.slab) < slabs.size())
        giveBack(a.slab, a.offset - slabs[size_t(a.slab)].handleOffset, a.seq);
    }
  }
}

/// Sends `acks` to world rank `sender` in one message (the caller holds the mutex).
void sendAcks(int64_t sender, std::vector<Ack> acks) {
  AckSend a;
  a.body = std::make_unique<std::vector<Ack>>(std::move(acks));
  if (PMPI_Isend(a.body->data(), int(a.body->size() * 3), MPI_INT64_T, int(sender), kAckTag,
                 ackComm, &a.request) != MPI_SUCCESS) {
    TEMPI_LOG(Warn, "ipc: acknowledging rank %lld's messages failed", (long long)sender);
    return;
  }
  ackSends.push_back(std::move(a));
}

/// The calling thread's acknowledgements of batches that have run, not yet sent: each batch's
/// afterRun functions add theirs, and its afterRunOnce function sends them (acknowledgeAfter).
thread_local std::vector<Notice> pendingAcks;

void sendPendingAcks() {
  std::vector<Notice> ns;
  ns.swap(pendingAcks);
  std::map<int64_t, std::vector<Ack>> bySender;
  for (const Notice &n : ns) bySender[n.sender].push_back(Ack{n.slab, n.offset, n.seq});
  std::lock_guard<std::mutex> lock(mutex);
  if (!on) return;
  for (auto &s : bySender) sendAcks(s.first, std::move(s.second));
  reapAckSends();
}

/// The world rank `world` when a notice may go there (another rank of this node), else -1.
int worldPeer(int world) {
  if (world < 0 || world >= worldSize || world == worldRank) return -1;
  return reachable[size_t(world)] ? world : -1;
}

/// For each rank of a communicator, worldPeer of its world rank: cached on the communicator
/// instead of five group calls into the MPI at every send.
struct PeerMap {
  std::vector<int> world;
};
CommCache<PeerMap> peerMaps;

/// comm's PeerMap (empty for an intercommunicator, whose ranks are the remote group's).
int makePeerMap(MPI_Comm comm, PeerMap &m) {
  int inter = 0, size = 0;
  if (int rc = PMPI_Comm_test_inter(comm, &inter); rc != MPI_SUCCESS) return rc;
  if (int rc = PMPI_Comm_size(comm, &size); rc != MPI_SUCCESS || inter || size <= 0) return rc;
  MPI_Group g = MPI_GROUP_NULL, wg = MPI_GROUP_NULL;
  std::vector<int> ranks(static_cast<size_t>(size));
  for (int i = 0; i < size; ++i) ranks[size_t(i)] = i;
  m.world.assign(size_t(size), MPI_UNDEFINED);
  int rc = PMPI_Comm_group(comm, &g);
  if (rc == MPI_SUCCESS) rc = PMPI_Comm_group(MPI_COMM_WORLD, &wg);
  if (rc == MPI_SUCCESS) rc = PMPI_Group_translate_ranks(g, size, ranks.data(), wg, m.world.data());
  if (g != MPI_GROUP_NULL) PMPI_Group_free(&g);
  if (wg != MPI_GROUP_NULL) PMPI_Group_free(&wg);
  for (int &w : m.world) w = worldPeer(w); // MPI_UNDEFINED (a spawned rank) is negative
  return rc;
}

} // namespace

void onInit(bool requested, bool usable) {
  // Programs that do not ask for ipc make no collective call here: TEMPI stays invisible to
  // them (a job may mix TEMPI and other binaries).
  if (!requested) return;
  std::lock_guard<std::mutex> lock(mutex);
  int mine = usable ? 1 : 0, all = 0;
  if (PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS) return;
  PMPI_Comm_rank(MPI_COMM_WORLD, &worldRank);
  PMPI_Comm_size(MPI_COMM_WORLD, &worldSize);
  if (!all) {
    if (!usable)
      TEMPI_LOG(Warn, "TEMPI_METHOD=ipc cannot be served here (TEMPI_DISABLE, no GPU, or GPUs "
                      "that cannot map each other's memory): ipc is off on every rank");
    else if (worldRank == 0)
      TEMPI_LOG(Warn, "TEMPI_METHOD=ipc cannot be served on some rank: ipc is off on every rank, "
                      "the model chooses instead");
    return;
  }
  PMPI_Comm_dup(MPI_COMM_WORLD, &ackComm);
  if (worldRank == 0) job = (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  PMPI_Bcast(&job, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);

  // Which ranks share this node. Slabs come later, on the device the program will have chosen;
  // MPI_Init made sure (wanted) that every rank's GPUs can all map each other's memory.
  MPI_Comm node;
  PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int n = 0;
  PMPI_Comm_size(node, &n);
  std::vector<int> worlds(size_t(n), -1);
  PMPI_Allgather(&worldRank, 1, MPI_INT, worlds.data(), 1, MPI_INT, node);
  PMPI_Comm_free(&node);
  reachable.assign(size_t(worldSize), 0);
  for (int w : worlds)
    if (w >= 0 && w < worldSize && w != worldRank) reachable[size_t(w)] = 1;
  TEMPI_LOG(Info, "ipc: on; %d other ranks on this node", n - 1);
  on = true;
}

void onFinalize() {
  std::unique_lock<std::mutex> lock(mutex);
  if (!on) return;
  collectAcks();
  device::ipcCloseAll();
  // Every rank has read what it was sent and closed its mappings: slabs may go after this.
  lock.unlock();
  PMPI_Barrier(ackComm);
  lock.lock();
  // Acknowledgements are 24 bytes, sent eagerly; each rank collects until its own are through.
  for (;;) {
    collectAcks();
    reapAckSends();
    if (ackSends.empty()) break;
  }
  lock.unlock();
  PMPI_Barrier(ackComm);
  lock.lock();
  collectAcks();
  size_t outstanding = 0;
  for (const Slab &s : slabs) outstanding += s.used.size();
  if (outstanding)
    TEMPI_LOG(Info, "ipc: %zu sends never acknowledged (their receives did not complete)",
              outstanding);
  PMPI_Comm_free(&ackComm);
  slabs.clear(); // the device layer frees the allocations at its finalize
  reachable.clear();
  on = false;
}

bool active() { return on; }

uint64_t minBytes(bool contiguous) {
  uint64_t m = settings().ipcMinBytes;
  if (m == kIpcMinBytesAuto)
    // Measured (docs/performance.md, session 10): under MPS the halo exchange, whose messages
    // are all strided, is faster with every message by ipc, however small; but a lone 1 KiB
    // contiguous message is slower by ipc (28 us against 20: two copies and an acknowledgement
    // where the other methods need only copies). Ranks that take turns on one GPU wait for
    // each other's time slice at every kernel, which a small message by copies does not.
    m = !contiguous && device::sharedThroughMps(device::currentDevice()) ? kNoticeBytes
                                                                         : kIpcMinBytesShared;
  return std::max<uint64_t>(m, kNoticeBytes);
}

bool largeEnough(int64_t packedBytes, bool contiguous) {
  return packedBytes >= int64_t(minBytes(contiguous));
}

int peerFor(MPI_Comm comm, int dest) {
  if (!on || dest < 0) return -1; // MPI_PROC_NULL and invalid ranks
  if (comm == MPI_COMM_WORLD) return worldPeer(dest);
  PeerMap *m = nullptr;
  if (peerMaps.get(comm, &m, [comm](PeerMap &fresh) { return makePeerMap(comm, fresh); }) !=
      MPI_SUCCESS)
    return -1;
  return size_t(dest) < m->world.size() ? m->world[size_t(dest)] : -1;
}

tempi_result takeRegion(Wire &w) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!on) return TEMPI_ERR_INTERNAL;
  const int64_t need = (w.packedBytes + kAlign - 1) / kAlign * kAlign;
  const int device = device::currentDevice(); // the pack kernel runs there
  const int64_t seq = nextSeq++;
  int64_t slab = -1, off = -1;
  // Acknowledgements are collected at every send. (Collecting them only when the slabs were full
  // measured the same on the halo exchange, scripts/gpu-ab in session 10, so this simpler rule
  // stays.)
  collectAcks();
  for (size_t i = 0; i < slabs.size() && off < 0; ++i)
    if (slabs[i].device == device && (off = takeFrom(slabs[i], need, seq)) >= 0)
      slab = int64_t(i);
  if (off < 0) {
    // Parts in use are never refused (like the pools): a new slab, at least the standard size.
    if (!addSlab(std::max<int64_t>(int64_t(kSlabBytes), need), device))
      return TEMPI_ERR_NO_MEMORY;
    slab = int64_t(slabs.size()) - 1;
    off = takeFrom(slabs.back(), need, seq);
  }
  Slab &s = slabs[size_t(slab)];
  w.ipcRegion = s.base + off;
  w.ipcSlab = slab;
  w.ipcOffset = off;
  w.ipcSeq = seq;
  Notice n{};
  n.magic = kMagic;
  n.job = job;
  n.sender = worldRank;
  n.slab = slab;
  n.offset = s.handleOffset + off;
  n.bytes = w.packedBytes;
  n.seq = seq;
  std::memcpy(n.handle, s.handle, sizeof n.handle);
  n.check = hashOf(n);
  std::memcpy(w.staging.host, &n, sizeof n);
  return TEMPI_SUCCESS;
}

void dropRegion(Wire &w) {
  if (!w.ipcRegion) return;
  std::lock_guard<std::mutex> lock(mutex);
  giveBack(w.ipcSlab, w.ipcOffset, w.ipcSeq);
  w.ipcRegion = nullptr;
}

bool readNotice(const void *bytes, Notice &out) {
  std::memcpy(&out, bytes, sizeof out);
  return on && out.magic == kMagic && out.job == job && out.check == hashOf(out) &&
         out.sender >= 0 && out.sender < worldSize && out.bytes >= 0 && out.offset >= 0;
}

const void *mapped(const Notice &n) {
  char *base = static_cast<char *>(device::ipcOpen(n.handle));
  return base ? base + n.offset : nullptr;
}

void acknowledge(const Notice &n) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!on) return;
  sendAcks(n.sender, {Ack{n.slab, n.offset, n.seq}});
  reapAckSends();
}

void acknowledgeAfter(const Notice &n, Batch &b) {
  // Gathered when b has run (after its synchronization: the unpack has read the bytes), sent by
  // the once-function that follows every gathering one. A batch run inside another's lifetime
  // sends only its own: the outer batch's notices are gathered when it runs.
  b.afterRun([n] { pendingAcks.push_back(n); });
  b.afterRunOnce(&pendingAcks, [] { sendPendingAcks(); });
}

} // namespace tempi::ipc
