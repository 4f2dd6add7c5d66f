/// \file
/// What the device layer's files share and nobody else sees: the release hooks finalize() calls.
#pragma once

namespace tempi::device::internal {

void releasePools();   ///< Pools.cpp: every pooled and outstanding allocation
void releaseIpc();     ///< Ipc.cpp: every opened peer handle
void releaseStreams(); ///< Streams.cpp: every per-thread stream

} // namespace tempi::device::internal
