/// \file
/// MPI_Pack, MPI_Unpack and MPI_Pack_size. Host buffers go to the MPI unchanged. When either
/// buffer is device memory the packed bytes are exactly MPI_Pack's (the same wire form as a send):
/// device to device runs the pack/unpack kernel straight between the two buffers; any other mix
/// goes through host staging. MPI_Pack_size always asks the MPI (its bound is never smaller than
/// count * size, which is what TEMPI writes).
///
/// Refuses, with MPI_ERR_TRUNCATE through the communicator's error handler, a device pack or
/// unpack that does not fit in outsize / insize (MPICH 4.0 packs what fits without an error on
/// host buffers; TEMPI never writes past the caller's buffer).
#include "DeferredSends.h"
#include "Runtime.h"
#include "Transfer.h"
#include "tempi/tempi.h"

#include <cstring>
#include <vector>

using namespace tempi;

namespace {

bool kernelPlan(const TypePlan &p) { return p.kind != TypePlan::Kind::Mirror; }

/// The packed bytes of (buf, count, type) from a device buffer, into host memory `out`.
tempi_result packDeviceToHost(const void *buf, int count, MPI_Datatype type,
                              const tempi_static_plan *sp, MPI_Comm comm, std::vector<char> &out,
                              int64_t bytes) {
  Wire w;
  if (tempi_result r = wireForSend(buf, count, type, sp, true, w); r != TEMPI_SUCCESS) return r;
  out.resize(size_t(bytes));
  tempi_result r = TEMPI_SUCCESS;
  if (w.mirror) {
    int pos = 0;
    if (PMPI_Pack(w.ptr, count, type, out.data(), int(bytes), &pos, comm) != MPI_SUCCESS)
      r = TEMPI_ERR_MPI;
  } else if (bytes > 0) {
    r = copyAndSync(out.data(), w.ptr, size_t(bytes));
  }
  releaseWire(w);
  return r;
}

/// Unpacks host packed bytes into (buf, count, type) in device memory.
tempi_result unpackHostToDevice(const char *packed, void *buf, int count, MPI_Datatype type,
                                const tempi_static_plan *sp, MPI_Comm comm, int64_t bytes) {
  Wire w;
  if (tempi_result r = wireForRecv(buf, count, type, sp, true, w); r != TEMPI_SUCCESS) return r;
  tempi_result r = TEMPI_SUCCESS;
  if (w.mirror) {
    int pos = 0;
    if (PMPI_Unpack(packed, int(bytes), &pos, w.ptr, count, type, comm) != MPI_SUCCESS)
      r = TEMPI_ERR_MPI;
  } else if (bytes > 0) {
    r = copyAndSync(w.ptr, packed, size_t(bytes));
  }
  MPI_Status st;
  std::memset(&st, 0, sizeof st);
  PMPI_Status_set_cancelled(&st, 0);
  PMPI_Status_set_elements(&st, MPI_BYTE, int(bytes));
  if (r == TEMPI_SUCCESS) r = finishRecv(w, st);
  releaseWire(w);
  return r;
}

} // namespace

extern "C" {

int tempi_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
               int *position, MPI_Comm comm, const tempi_static_plan *plan) {
  TEMPI_FLUSH_DEFERRED();
  const bool devIn = deviceData(inbuf, incount, datatype), devOut = runtime::isDevice(outbuf);
  if (!devIn && !devOut)
    return PMPI_Pack(inbuf, incount, datatype, outbuf, outsize, position, comm);
  TypePlanPtr p = planFor(datatype, plan);
  if (p->invalid) // not a type the MPI knows: it reports that
    return PMPI_Pack(inbuf, incount, datatype, outbuf, outsize, position, comm);
  const int64_t bytes = int64_t(incount < 0 ? 0 : incount) * p->size;
  if (*position < 0 || *position + bytes > outsize)
    return runtime::raiseCode(comm, MPI_ERR_TRUNCATE, "MPI_Pack of a device buffer: outsize too small");
  char *dst = static_cast<char *>(outbuf) + *position;
  tempi_result r = TEMPI_SUCCESS;
  if (devIn && devOut && kernelPlan(*p) && bytes > 0) {
    device::Stream s = device::defaultStream();
    if (p->kind == TypePlan::Kind::Strided) {
      r = device::pack(p->kernel, inbuf, incount, dst, s);
    } else if ((r = p->ensureUploaded()) == TEMPI_SUCCESS) {
      r = device::packBlocks(p->blocks, inbuf, incount, dst, s);
    }
    if (r == TEMPI_SUCCESS) r = device::synchronize(s);
  } else if (bytes > 0) {
    std::vector<char> host;
    if (devIn) {
      r = packDeviceToHost(inbuf, incount, datatype, plan, comm, host, bytes);
    } else {
      host.resize(size_t(bytes));
      int pos = 0;
      int rc = PMPI_Pack(inbuf, incount, datatype, host.data(), int(bytes), &pos, comm);
      if (rc != MPI_SUCCESS) return rc;
    }
    if (r == TEMPI_SUCCESS) {
      if (devOut)
        r = copyAndSync(dst, host.data(), size_t(bytes));
      else
        std::memcpy(dst, host.data(), size_t(bytes));
    }
  }
  if (r != TEMPI_SUCCESS) return runtime::raise(comm, r, "MPI_Pack of a device buffer");
  *position += int(bytes);
  return MPI_SUCCESS;
}

int tempi_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                 MPI_Datatype datatype, MPI_Comm comm, const tempi_static_plan *plan) {
  TEMPI_FLUSH_DEFERRED();
  const bool devIn = runtime::isDevice(inbuf), devOut = deviceData(outbuf, outcount, datatype);
  if (!devIn && !devOut)
    return PMPI_Unpack(inbuf, insize, position, outbuf, outcount, datatype, comm);
  TypePlanPtr p = planFor(datatype, plan);
  if (p->invalid) // not a type the MPI knows: it reports that
    return PMPI_Unpack(inbuf, insize, position, outbuf, outcount, datatype, comm);
  const int64_t bytes = int64_t(outcount < 0 ? 0 : outcount) * p->size;
  if (*position < 0 || *position + bytes > insize)
    return runtime::raiseCode(comm, MPI_ERR_TRUNCATE, "MPI_Unpack into a device buffer: insize too small");
  const char *src = static_cast<const char *>(inbuf) + *position;
  tempi_result r = TEMPI_SUCCESS;
  if (devIn && devOut && kernelPlan(*p) && bytes > 0) {
    device::Stream s = device::defaultStream();
    if (p->kind == TypePlan::Kind::Strided) {
      r = device::unpack(p->kernel, outbuf, src, outcount, s);
    } else if ((r = p->ensureUploaded()) == TEMPI_SUCCESS) {
      r = device::unpackBlocks(p->blocks, outbuf, src, outcount, s);
    }
    if (r == TEMPI_SUCCESS) r = device::synchronize(s);
  } else if (bytes > 0) {
    std::vector<char> host;
    const char *packed = src;
    if (devIn) {
      host.resize(size_t(bytes));
      r = copyAndSync(host.data(), src, size_t(bytes));
      packed = host.data();
    }
    if (r == TEMPI_SUCCESS) {
      if (devOut) {
        r = unpackHostToDevice(packed, outbuf, outcount, datatype, plan, comm, bytes);
      } else {
        int pos = 0;
        int rc = PMPI_Unpack(packed, int(bytes), &pos, outbuf, outcount, datatype, comm);
        if (rc != MPI_SUCCESS) return rc;
      }
    }
  }
  if (r != TEMPI_SUCCESS) return runtime::raise(comm, r, "MPI_Unpack into a device buffer");
  *position += int(bytes);
  return MPI_SUCCESS;
}

int tempi_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size,
                    const tempi_static_plan *) {
  TEMPI_FLUSH_DEFERRED();
  return PMPI_Pack_size(incount, datatype, comm, size);
}

int MPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
             int *position, MPI_Comm comm) {
  return tempi_Pack(inbuf, incount, datatype, outbuf, outsize, position, comm, nullptr);
}
int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
               MPI_Datatype datatype, MPI_Comm comm) {
  return tempi_Unpack(inbuf, insize, position, outbuf, outcount, datatype, comm, nullptr);
}
int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size) {
  return tempi_Pack_size(incount, datatype, comm, size, nullptr);
}

} // extern "C"
