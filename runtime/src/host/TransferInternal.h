/// \file
/// What Transfer.cpp shares with IpcRecv.cpp and nobody else needs.
#pragma once

#include "Transfer.h"

namespace tempi {

class Batch;

/// enqueueFinishRecv less its checks (cancelled, IPC notice): moves the packed bytes `status`
/// says arrived from the wire's staging into the caller's buffer (a mirror: copies its span back).
tempi_result unpackArrived(Wire &w, MPI_Status &status, Batch &b);

/// Of `rest` bytes after `before` complete elements of `type`, how many the MPI stores (up to the
/// end of the last complete basic element); *undefinedAtRest: whether this MPI reports such a
/// count as MPI_UNDEFINED.
int64_t completeBasicBytes(MPI_Datatype type, int64_t before, int64_t rest, bool *undefinedAtRest);

namespace ipc {
/// For a wire whose receive completed with `status`: when a notice (Ipc.h) arrived instead of
/// the bytes, reads the message from the sender's memory into the caller's buffer, acknowledges,
/// and sets *handled. Nothing is written when the message is longer than the buffer
/// (TEMPI_ERR_TRUNCATE, status's MPI_ERROR set to MPI_ERR_TRUNCATE).
tempi_result finishIfNotice(Wire &w, MPI_Status &status, Batch &b, bool *handled);
} // namespace ipc

} // namespace tempi
