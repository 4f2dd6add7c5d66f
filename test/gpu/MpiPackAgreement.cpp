/// \file
/// tempi-gpu-mpi-pack: for random strided shapes (10,000 by default), the device layer's pack
/// of device memory is byte-identical to the MPI's own MPI_Pack of the same bytes on the host,
/// and its unpack to MPI_Unpack (into a buffer poisoned the same way on both sides, compared
/// whole). Each shape is built as an MPI datatype the plain way a program would: a contiguous
/// run of MPI_BYTE, one MPI_Type_create_hvector per outer dimension (negative strides included),
/// a struct placing it at the start offset, resized to the extent; count 1 to 3; base and packed
/// addresses misaligned at random. Exit 77 without a GPU.
/// Usage: mpiexec -n 1 tempi-gpu-mpi-pack [shapes=10000]
#include "gpu/GpuTest.h"
#include "gpu/MpiTypeOf.h"
#include "gpu/RandomShapes.h"
#include "passes/KernelPlan.h"
#include "runtime/src/device/Device.h"

#include <mpi.h>

#include <cstring>
#include <string>
#include <vector>

using namespace tempi;
using namespace tempi::gputest;

int main(int argc, char **argv) {
  skipWithoutGpu("tempi-gpu-mpi-pack");
  MPI_Init(&argc, &argv);
  const int shapes = argc > 1 ? std::atoi(argv[1]) : 10000;
  const uint64_t seed = seedFromEnvironment(5150);
  std::printf("seed %llu (TEMPI_TEST_SEED replays)\n", (unsigned long long)seed);
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(version, &len);
  std::printf("reference: %.60s\n", version);
  std::mt19937_64 rng(seed);
  cudaStream_t s = static_cast<cudaStream_t>(device::defaultStream());
  ShapeLimits lim;
  lim.maxPacked = 64 << 10;
  int failures = 0, checked = 0;
  for (int t = 0; t < shapes && failures < 20; ++t) {
    const StridedBlock shape = randomShape(rng, lim);
    const int count = int(rng() % 3) + 1;
    const int mis = int(rng() % 16), pmis = int(rng() % 16);
    const Span span = spanOf(shape, count);
    const int64_t bufBytes = span.bytes() + 32, baseOff = 8 - span.lo + mis;
    const int64_t packedBytes = count * shape.size(), packedBuf = packedBytes + 32;
    MPI_Datatype type = mpiTypeOf(shape);
    int typeSize = 0;
    MPI_Type_size(type, &typeSize);
    if (typeSize != shape.size()) {
      std::printf("FAIL #%d: MPI type size %d, shape size %lld\n", t, typeSize,
                  (long long)shape.size());
      ++failures;
    }

    std::vector<unsigned char> h(bufBytes), want(packedBuf, 0xA5), got(packedBuf);
    fillRandom(h, rng);
    int position = 0;
    MPI_Pack(h.data() + baseOff, count, type, want.data() + pmis, int(packedBytes), &position,
             MPI_COMM_SELF);
    unsigned char *d = nullptr, *p = nullptr;
    GPUTEST_CUDA(cudaMalloc(&d, bufBytes));
    GPUTEST_CUDA(cudaMalloc(&p, packedBuf));
    GPUTEST_CUDA(cudaMemcpyAsync(d, h.data(), bufBytes, cudaMemcpyHostToDevice, s));
    GPUTEST_CUDA(cudaMemsetAsync(p, 0xA5, packedBuf, s));
    const KernelPlan plan = makePlan(shape);
    if (device::pack(plan, d + baseOff, count, p + pmis, s) != TEMPI_SUCCESS) ++failures;
    GPUTEST_CUDA(cudaStreamSynchronize(s));
    GPUTEST_CUDA(cudaMemcpyAsync(got.data(), p, packedBuf, cudaMemcpyDeviceToHost, s));
    GPUTEST_CUDA(cudaStreamSynchronize(s));
    if (position != packedBytes || want != got) {
      std::printf("FAIL #%d pack: %s count %d base+%d packed+%d (MPI packed %d bytes)\n", t,
                  printStrided(shape).c_str(), count, mis, pmis, position);
      ++failures;
    }

    // unpack: MPI_Unpack on the host and the device unpack, same poison, whole buffer compared
    std::vector<unsigned char> src(packedBuf), wantS(bufBytes, 0x5A), gotS(bufBytes);
    fillRandom(src, rng);
    position = 0;
    MPI_Unpack(src.data() + pmis, int(packedBytes), &position, wantS.data() + baseOff, count,
               type, MPI_COMM_SELF);
    GPUTEST_CUDA(cudaMemcpyAsync(p, src.data(), packedBuf, cudaMemcpyHostToDevice, s));
    GPUTEST_CUDA(cudaMemsetAsync(d, 0x5A, bufBytes, s));
    if (device::unpack(plan, d + baseOff, p + pmis, count, s) != TEMPI_SUCCESS) ++failures;
    GPUTEST_CUDA(cudaStreamSynchronize(s));
    GPUTEST_CUDA(cudaMemcpyAsync(gotS.data(), d, bufBytes, cudaMemcpyDeviceToHost, s));
    GPUTEST_CUDA(cudaStreamSynchronize(s));
    if (wantS != gotS) {
      std::printf("FAIL #%d unpack: %s count %d base+%d packed+%d\n", t,
                  printStrided(shape).c_str(), count, mis, pmis);
      ++failures;
    }
    GPUTEST_CUDA(cudaFree(d));
    GPUTEST_CUDA(cudaFree(p));
    MPI_Type_free(&type);
    ++checked;
  }
  device::finalize();
  std::printf("%s: %d shapes agree with MPI_Pack/MPI_Unpack, %d failures\n",
              failures ? "FAILED" : "PASSED", checked - failures, failures);
  MPI_Finalize();
  return failures ? 1 : 0;
}
