/// \file
/// The performance model's estimates and choice (Model.h).
#include "Model.h"

#include <limits>

namespace tempi {

double estimateUs(Method m, Direction d, int64_t bytes, const ModelParams &p, bool mpiCudaAware,
                  MessageTraits t) {
  const double b = double(bytes) / 1e3; // bytes / (GB/s) in us = bytes / (1e3 * GB/s)
  const double copyGbps = d == Direction::Send ? p.d2hGbps : p.h2dGbps;
  // Contiguous data needs no kernel: every method is one copy, to pinned host memory for staged
  // and one-shot alike, to device staging for device.
  const double hostCopy = p.copyUs + b / copyGbps;
  switch (m) {
  case Method::Staged: return t.contiguous ? hostCopy : p.launchUs + b / p.packGbps + hostCopy;
  case Method::OneShot: return t.contiguous ? hostCopy : p.launchUs + b / p.oneshotGbps;
  case Method::Device:
    if (mpiCudaAware)
      return t.contiguous ? p.copyUs + b / p.packGbps : p.launchUs + b / p.packGbps;
    break;
  case Method::Auto:
  case Method::Ipc: break;
  }
  return std::numeric_limits<double>::infinity();
}

Method chooseMethod(Direction d, int64_t bytes, const ModelParams &p, bool mpiCudaAware,
                    Method forced, MessageTraits t) {
  if (forced == Method::Staged || forced == Method::OneShot) return forced;
  if (forced == Method::Device && mpiCudaAware) return forced;
  Method best = Method::Staged;
  double bestUs = estimateUs(Method::Staged, d, bytes, p, mpiCudaAware, t);
  const double oneshotUs = estimateUs(Method::OneShot, d, bytes, p, mpiCudaAware, t);
  const double margin = t.gpuTimeSliced ? kOneShotMarginTimeSliced : kOneShotMargin;
  if (oneshotUs * (1 + margin) < bestUs) {
    best = Method::OneShot;
    bestUs = oneshotUs;
  }
  const double deviceUs = estimateUs(Method::Device, d, bytes, p, mpiCudaAware, t);
  if (deviceUs < bestUs) best = Method::Device;
  return best;
}

} // namespace tempi
