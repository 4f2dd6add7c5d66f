/// \file
/// Batch::run (Batch.h).
#include "Batch.h"

namespace tempi {

tempi_result Batch::run() {
  if (empty()) return error_;
  device::Stream s = device::defaultStream();
  tempi_result r = error_;
  auto note = [&r](tempi_result e) {
    if (r == TEMPI_SUCCESS) r = e;
  };
  for (const Copy &c : before_) note(device::copyAsync(c.dst, c.src, c.bytes, s));
  if (r == TEMPI_SUCCESS && !jobs_.empty())
    note(pack_ ? device::packMany(jobs_.data(), jobs_.size(), s)
               : device::unpackMany(jobs_.data(), jobs_.size(), s));
  if (r == TEMPI_SUCCESS)
    for (const Copy &c : after_) note(device::copyAsync(c.dst, c.src, c.bytes, s));
  note(device::synchronize(s)); // also after an error: the caller releases the staging next
  before_.clear();
  after_.clear();
  jobs_.clear();
  enqueued_ = false;
  error_ = TEMPI_SUCCESS;
  return r;
}

} // namespace tempi
