/// \file
/// The receive side of the IPC method (Ipc.h): any receive may have matched a notice instead of
/// a message, whatever its buffer. A packed device wire unpacks straight from the sender's memory
/// (its kernels read the mapped slab as they would read device staging); a host buffer, or a
/// mirror's host copy, gets the bytes copied over and unpacked by the MPI.
#include "Batch.h"
#include "Ipc.h"
#include "Runtime.h"
#include "TransferInternal.h"
#include "TypeCache.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

namespace tempi::ipc {

namespace {

/// The first kNoticeBytes of a typed buffer, as the MPI packs them: false when fewer are there.
bool typedPrefix(const void *buf, MPI_Count count, MPI_Datatype type, unsigned char *out) {
  MPI_Count size = 0;
  if (!buf || PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size <= 0) return false;
  const MPI_Count k = (MPI_Count(kNoticeBytes) + size - 1) / size;
  if (k > count || k > INT_MAX) return false;
  int packSize = 0;
  if (PMPI_Pack_size(int(k), type, MPI_COMM_WORLD, &packSize) != MPI_SUCCESS ||
      packSize < int(kNoticeBytes))
    return false;
  std::vector<unsigned char> tmp(static_cast<size_t>(packSize));
  int pos = 0;
  if (PMPI_Pack(buf, int(k), type, tmp.data(), packSize, &pos, MPI_COMM_WORLD) != MPI_SUCCESS ||
      pos < int(kNoticeBytes))
    return false;
  std::memcpy(out, tmp.data(), kNoticeBytes);
  return true;
}

/// Whether the wire received a notice of this job, read into n.
bool noticeArrived(const Wire &w, const MPI_Status &status, Notice &n) {
  MPI_Count got = 0;
  if (!w.countUnreliable && (PMPI_Get_elements_x(&status, MPI_BYTE, &got) != MPI_SUCCESS ||
                             got != MPI_Count(kNoticeBytes)))
    return false;
  unsigned char bytes[kNoticeBytes];
  if (w.staged && !w.mirror) { // packed bytes in staging
    if (w.method == Method::Device) {
      if (copyAndSync(bytes, w.staging.device, kNoticeBytes) != TEMPI_SUCCESS) return false;
    } else if (w.staging.host) {
      std::memcpy(bytes, w.staging.host, kNoticeBytes);
    } else {
      return false;
    }
  } else if (!typedPrefix(w.ptr, w.count, w.type, bytes)) { // the caller's type on host memory
    return false;
  }
  return readNotice(bytes, n);
}

/// Unpacks `bytes` packed bytes into the typed host buffer (buf, type) as the MPI's receive
/// would: complete elements by MPI_Unpack, then the complete basic elements of a partial one.
tempi_result hostUnpack(const char *packed, int64_t bytes, void *buf, MPI_Datatype type,
                        MPI_Status &status) {
  MPI_Count size = 0, lb = 0, extent = 0;
  if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size <= 0 ||
      PMPI_Type_get_extent_x(type, &lb, &extent) != MPI_SUCCESS)
    return TEMPI_ERR_MPI;
  const int64_t full = bytes / size, rest = bytes % size;
  // In chunks whose packed size fits MPI_Unpack's int arguments.
  const int64_t perChunk = std::max<int64_t>(1, INT_MAX / size);
  for (int64_t e = 0; e < full; e += perChunk) {
    const int64_t n = std::min(perChunk, full - e);
    int pos = 0;
    if (PMPI_Unpack(packed + e * size, int(n * size), &pos, addressAt(buf, e * extent), int(n),
                    type, MPI_COMM_WORLD) != MPI_SUCCESS)
      return TEMPI_ERR_MPI;
  }
  if (rest == 0) return TEMPI_SUCCESS;
  TypePlanPtr p = typecache::lookup(type);
  if (p->invalid || p->kind == TypePlan::Kind::Mirror) {
    TEMPI_LOG(Warn, "ipc: the last %lld bytes of a message end inside an element of a type "
                    "TEMPI has no plan for; they are not stored",
              (long long)rest);
    PMPI_Status_set_elements_x(&status, MPI_BYTE, MPI_Count(full * size));
    return TEMPI_SUCCESS;
  }
  bool undefinedAtRest = false;
  const int64_t tailBytes = completeBasicBytes(type, full * size, rest, &undefinedAtRest);
  const char *tail = packed + full * size;
  forEachRun(*p, full, tailBytes, [&](int64_t off, int64_t n) {
    std::memcpy(addressAt(buf, off), tail, size_t(n));
    tail += n;
  });
  if (undefinedAtRest)
    PMPI_Status_set_elements_x(&status, MPI_BYTE, MPI_Count(full * size + tailBytes));
  return TEMPI_SUCCESS;
}

} // namespace

tempi_result finishIfNotice(Wire &w, MPI_Status &status, Batch &b, bool *handled) {
  *handled = false;
  Notice n;
  if (!noticeArrived(w, status, n)) return TEMPI_SUCCESS;
  *handled = true;
  const bool packed = w.staged && !w.mirror;
  MPI_Count size = 0;
  if (!packed) PMPI_Type_size_x(w.type, &size);
  const int64_t capacity = packed ? w.packedBytes : int64_t(w.count) * int64_t(size);
  if (n.bytes > capacity) {
    acknowledge(n);
    TEMPI_LOG(Info, "ipc: a %lld-byte message for a %lld-byte receive buffer: truncated",
              (long long)n.bytes, (long long)capacity);
    status.MPI_ERROR = MPI_ERR_TRUNCATE;
    return TEMPI_ERR_TRUNCATE;
  }
  const void *src = mapped(n);
  if (!src) {
    acknowledge(n);
    TEMPI_LOG(Error, "ipc: cannot map rank %lld's memory", (long long)n.sender);
    return TEMPI_ERR_CUDA;
  }
  PMPI_Status_set_elements_x(&status, MPI_BYTE, MPI_Count(n.bytes));
  if (packed) {
    // The wire's own unpack, reading the sender's slab where it would read device staging, in
    // the caller's batch (a Waitall's IPC receives unpack in one fused launch); the sender hears
    // once the batch has synchronized.
    Wire fromPeer = w;
    fromPeer.method = Method::Device;
    fromPeer.staging.device = const_cast<void *>(src);
    fromPeer.staging.host = nullptr;
    tempi_result r = unpackArrived(fromPeer, status, b);
    acknowledgeAfter(n, b);
    return r;
  }
  std::vector<char> bytes(size_t(n.bytes));
  tempi_result r = copyAndSync(bytes.data(), src, size_t(n.bytes));
  acknowledge(n);
  if (r != TEMPI_SUCCESS) return r;
  if (tempi_result u = hostUnpack(bytes.data(), n.bytes, w.ptr, w.type, status); u != TEMPI_SUCCESS)
    return u;
  // A mirror's host copy now holds the message: its span goes back to the device as usual.
  return w.mirror ? unpackArrived(w, status, b) : TEMPI_SUCCESS;
}

} // namespace tempi::ipc
