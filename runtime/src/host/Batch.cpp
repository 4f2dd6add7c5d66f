/// \file
/// Batch::run (Batch.h).
#include "Batch.h"

#include "Env.h"

namespace tempi {

tempi_result Batch::Copies::enqueue(device::Stream s) const {
  if (sizes.empty()) return TEMPI_SUCCESS;
  if (settings().copyBatch)
    return device::copyManyAsync(dsts.data(), srcs.data(), sizes.data(), sizes.size(), s);
  for (size_t i = 0; i < sizes.size(); ++i)
    if (tempi_result r = device::copyAsync(dsts[i], srcs[i], sizes[i], s); r != TEMPI_SUCCESS)
      return r;
  return TEMPI_SUCCESS;
}

tempi_result Batch::run() {
  if (empty()) {
    runAfterRun();
    return error_;
  }
  device::Stream s = device::defaultStream();
  tempi_result r = error_;
  auto note = [&r](tempi_result e) {
    if (r == TEMPI_SUCCESS) r = e;
  };
  note(before_.enqueue(s));
  if (r == TEMPI_SUCCESS && !jobs_.empty())
    note(pack_ ? device::packMany(jobs_.data(), jobs_.size(), s)
               : device::unpackMany(jobs_.data(), jobs_.size(), s));
  if (r == TEMPI_SUCCESS) note(after_.enqueue(s));
  note(device::synchronize(s)); // also after an error: the caller releases the staging next
  before_.clear();
  after_.clear();
  jobs_.clear();
  enqueued_ = false;
  error_ = TEMPI_SUCCESS;
  runAfterRun();
  return r;
}

} // namespace tempi
