/// \file
/// MPI_Pack, MPI_Unpack and MPI_Pack_size. Host buffers go to the MPI unchanged. When either
/// buffer is device memory the packed bytes are exactly MPI_Pack's (the same wire form as a send):
/// device to device runs the pack/unpack kernel straight between the two buffers; any other mix
/// goes through host staging (PackCore.h, shared with the _c forms). MPI_Pack_size always asks
/// the MPI (its bound is never smaller than count * size, which is what TEMPI writes).
///
/// Refuses, with MPI_ERR_TRUNCATE through the communicator's error handler, a device pack or
/// unpack that does not fit in outsize / insize (MPICH 4.0 packs what fits without an error on
/// host buffers; TEMPI never writes past the caller's buffer).
#include "DeferredSends.h"
#include "PackCore.h"
#include "Runtime.h"
#include "Transfer.h"
#include "VerifyPlans.h"
#include "tempi/tempi.h"


using namespace tempi;

extern "C" {

int tempi_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
               int *position, MPI_Comm comm, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Pack");
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
  int rc = MPI_SUCCESS;
  tempi_result r =
      packcore::packInto(inbuf, incount, datatype, *p, plan, comm, dst, bytes, devIn, devOut, &rc);
  if (rc != MPI_SUCCESS) return rc;
  if (r != TEMPI_SUCCESS) return runtime::raise(comm, r, "MPI_Pack of a device buffer");
  *position += int(bytes);
  return MPI_SUCCESS;
}

int tempi_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                 MPI_Datatype datatype, MPI_Comm comm, const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Unpack");
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
  int rc = MPI_SUCCESS;
  tempi_result r = packcore::unpackFrom(src, outbuf, outcount, datatype, *p, plan, comm, bytes,
                                        devIn, devOut, &rc);
  if (rc != MPI_SUCCESS) return rc;
  if (r != TEMPI_SUCCESS) return runtime::raise(comm, r, "MPI_Unpack into a device buffer");
  *position += int(bytes);
  return MPI_SUCCESS;
}

int tempi_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size,
                    const tempi_static_plan *plan) {
  verify::plan(plan, datatype, "tempi_Pack_size");
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
