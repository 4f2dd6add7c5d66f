/// \file
/// The device part of MPI_Pack and MPI_Unpack, shared by the int forms (InterposePack.cpp) and the
/// MPI-4 large-count forms (InterposeLargeCount.cpp): once an entry point has checked its
/// arguments (counts, position, room) and knows how many packed bytes move, packInto/unpackFrom
/// move them exactly as MPI_Pack would lay them out. Device to device runs the pack (unpack)
/// kernel straight between the two buffers; any other mix goes through host staging, with the
/// MPI's own pack for a host side. Count is int or MPI_Count and picks the MPI's calls.
#pragma once

#include "Runtime.h"
#include "Transfer.h"
#include "tempi/tempi.h"

#include <cstring>
#include <vector>

namespace tempi::packcore {

/// The MPI's pack calls for one count type.
template <class Count> struct MpiCalls;
template <> struct MpiCalls<int> {
  static constexpr bool kLargeCount = false;
  static int pack(const void *in, int n, MPI_Datatype t, void *out, int64_t size, MPI_Comm c) {
    int pos = 0;
    return PMPI_Pack(in, n, t, out, int(size), &pos, c);
  }
  static int unpack(const void *in, int64_t size, void *out, int n, MPI_Datatype t, MPI_Comm c) {
    int pos = 0;
    return PMPI_Unpack(in, int(size), &pos, out, n, t, c);
  }
  static void setBytes(MPI_Status &st, int64_t bytes) {
    PMPI_Status_set_elements(&st, MPI_BYTE, int(bytes));
  }
};
#ifdef TEMPI_HAVE_LARGE_COUNT
template <> struct MpiCalls<MPI_Count> {
  static constexpr bool kLargeCount = true;
  static int pack(const void *in, MPI_Count n, MPI_Datatype t, void *out, int64_t size,
                  MPI_Comm c) {
    MPI_Count pos = 0;
    return PMPI_Pack_c(in, n, t, out, size, &pos, c);
  }
  static int unpack(const void *in, int64_t size, void *out, MPI_Count n, MPI_Datatype t,
                    MPI_Comm c) {
    MPI_Count pos = 0;
    return PMPI_Unpack_c(in, size, &pos, out, n, t, c);
  }
  static void setBytes(MPI_Status &st, int64_t bytes) {
    PMPI_Status_set_elements_x(&st, MPI_BYTE, bytes);
  }
};
#endif

inline bool kernelPlan(const TypePlan &p) { return p.kind != TypePlan::Kind::Mirror; }

/// The packed bytes of (buf, count, type) from a device buffer, into host memory `out`.
template <class Count>
tempi_result packDeviceToHost(const void *buf, Count count, MPI_Datatype type,
                              const tempi_static_plan *sp, MPI_Comm comm, std::vector<char> &out,
                              int64_t bytes) {
  Wire w;
  if (tempi_result r = wireForSend(buf, count, type, sp, true, w, MpiCalls<Count>::kLargeCount);
      r != TEMPI_SUCCESS)
    return r;
  out.resize(size_t(bytes));
  tempi_result r = TEMPI_SUCCESS;
  if (w.mirror) {
    if (MpiCalls<Count>::pack(w.ptr, count, type, out.data(), bytes, comm) != MPI_SUCCESS)
      r = TEMPI_ERR_MPI;
  } else if (bytes > 0) {
    r = copyAndSync(out.data(), w.ptr, size_t(bytes));
  }
  releaseWire(w);
  return r;
}

/// Unpacks host packed bytes into (buf, count, type) in device memory.
template <class Count>
tempi_result unpackHostToDevice(const char *packed, void *buf, Count count, MPI_Datatype type,
                                const tempi_static_plan *sp, MPI_Comm comm, int64_t bytes) {
  Wire w;
  if (tempi_result r = wireForRecv(buf, count, type, sp, true, w, MpiCalls<Count>::kLargeCount);
      r != TEMPI_SUCCESS)
    return r;
  tempi_result r = TEMPI_SUCCESS;
  if (w.mirror) {
    if (MpiCalls<Count>::unpack(packed, bytes, w.ptr, count, type, comm) != MPI_SUCCESS)
      r = TEMPI_ERR_MPI;
  } else if (bytes > 0) {
    r = copyAndSync(w.ptr, packed, size_t(bytes));
  }
  MPI_Status st;
  std::memset(&st, 0, sizeof st);
  PMPI_Status_set_cancelled(&st, 0);
  MpiCalls<Count>::setBytes(st, bytes);
  if (r == TEMPI_SUCCESS) r = finishRecv(w, st);
  releaseWire(w);
  return r;
}

/// Packs `bytes` bytes of (inbuf, incount, type), plan p, to dst; either side may be device
/// memory. The MPI's own error code, if its pack of a host buffer fails, goes to *mpiRc.
template <class Count>
tempi_result packInto(const void *inbuf, Count incount, MPI_Datatype type, const TypePlan &p,
                      const tempi_static_plan *sp, MPI_Comm comm, char *dst, int64_t bytes,
                      bool devIn, bool devOut, int *mpiRc) {
  *mpiRc = MPI_SUCCESS;
  if (bytes <= 0) return TEMPI_SUCCESS;
  if (devIn && devOut && kernelPlan(p)) {
    if (p.kind == TypePlan::Kind::Strided) return device::packNow(p.kernel, inbuf, incount, dst);
    device::Stream s = device::defaultStream();
    tempi_result r = p.ensureUploaded();
    if (r == TEMPI_SUCCESS) r = device::packBlocks(p.blocks, inbuf, incount, dst, s);
    return r == TEMPI_SUCCESS ? device::synchronize(s) : r;
  }
  std::vector<char> host;
  if (devIn) {
    if (tempi_result r = packDeviceToHost(inbuf, incount, type, sp, comm, host, bytes);
        r != TEMPI_SUCCESS)
      return r;
  } else {
    host.resize(size_t(bytes));
    *mpiRc = MpiCalls<Count>::pack(inbuf, incount, type, host.data(), bytes, comm);
    if (*mpiRc != MPI_SUCCESS) return TEMPI_SUCCESS;
  }
  if (devOut) return copyAndSync(dst, host.data(), size_t(bytes));
  std::memcpy(dst, host.data(), size_t(bytes));
  return TEMPI_SUCCESS;
}

/// Unpacks `bytes` bytes at src into (outbuf, outcount, type), plan p; either side may be
/// device memory. The MPI's own error code, if its unpack into a host buffer fails, goes to
/// *mpiRc.
template <class Count>
tempi_result unpackFrom(const char *src, void *outbuf, Count outcount, MPI_Datatype type,
                        const TypePlan &p, const tempi_static_plan *sp, MPI_Comm comm,
                        int64_t bytes, bool devIn, bool devOut, int *mpiRc) {
  *mpiRc = MPI_SUCCESS;
  if (bytes <= 0) return TEMPI_SUCCESS;
  if (devIn && devOut && kernelPlan(p)) {
    if (p.kind == TypePlan::Kind::Strided)
      return device::unpackNow(p.kernel, outbuf, src, outcount);
    device::Stream s = device::defaultStream();
    tempi_result r = p.ensureUploaded();
    if (r == TEMPI_SUCCESS) r = device::unpackBlocks(p.blocks, outbuf, src, outcount, s);
    return r == TEMPI_SUCCESS ? device::synchronize(s) : r;
  }
  std::vector<char> host;
  const char *packed = src;
  if (devIn) {
    host.resize(size_t(bytes));
    if (tempi_result r = copyAndSync(host.data(), src, size_t(bytes)); r != TEMPI_SUCCESS)
      return r;
    packed = host.data();
  }
  if (devOut) return unpackHostToDevice(packed, outbuf, outcount, type, sp, comm, bytes);
  *mpiRc = MpiCalls<Count>::unpack(packed, bytes, outbuf, outcount, type, comm);
  return TEMPI_SUCCESS;
}

} // namespace tempi::packcore
