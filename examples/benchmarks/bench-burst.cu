/// \file
/// The host cost of a burst of small nonblocking messages: what a halo exchange's 416 requests
/// pay per request in libtempi beyond the MPI's own calls (issue 7, the 64^3 halo gap). Two ranks
/// each post N receives and N sends of a small strided object (a vector of `elems` doubles, every
/// `stride`-th one: 32 packed bytes by default), then wait for all 2N requests.
///
/// Rows (mode=), each timed in this run:
///   mpi-isend       PMPI_Irecv + PMPI_Isend of the packed bytes on host buffers (libtempi is
///                   bypassed even when linked): the MPI's cost of the burst.
///   mpi-persistent  the MPI calls libtempi makes for a deferred burst, on host buffers:
///                   PMPI_Irecv, PMPI_Send_init, PMPI_Startall, PMPI_Waitall, PMPI_Request_free.
///                   libtempi's share is measured against this.
///   device-isend    (libtempi) MPI_Irecv + MPI_Isend of the strided type on device buffers.
///   device-deferred (libtempi) MPI_Irecv + tempi_Isend_deferred, the compile-time tier's form.
/// Columns: exchange_us (median of --reps timings of up to --iters exchanges each, fewer when an
/// exchange is slow: about 0.2 s per timing), recv_post_us and
/// send_post_us (per request), wait_us (the Waitall, per exchange), and for device rows
/// tempi_us_per_request = (exchange - mpi-persistent's exchange) / 2N.
///
///   mpiexec -n 2 bench-burst[-tempi] [--messages N] [--elems E] [--stride S] [--iters K] [--reps R]
/// Every device row is checked first: one exchange into poisoned buffers, each received element
/// must hold the sender's value. Exit 1 on a wrong element, 77 without a GPU.
#include "bench_common.h"
#include "../common/ex_util.h"

#ifdef BENCH_WITH_TEMPI
#include "tempi/tempi.h"
#endif

#include <algorithm>
#include <vector>

namespace {

struct Shape {
  int messages = 208, elems = 4, stride = 8, iters = 200, reps = 5;
  size_t slotDoubles() const { return size_t(elems) * size_t(stride); } // one message's span
  size_t packedBytes() const { return size_t(elems) * sizeof(double); }
};

struct Times {
  double exchange = 0, recvPost = 0, sendPost = 0, wait = 0; // seconds per exchange
};

enum class Mode { MpiIsend, MpiPersistent, DeviceIsend, DeviceDeferred };
const char *modeName(Mode m) {
  switch (m) {
  case Mode::MpiIsend: return "mpi-isend";
  case Mode::MpiPersistent: return "mpi-persistent";
  case Mode::DeviceIsend: return "device-isend";
  case Mode::DeviceDeferred: return "device-deferred";
  }
  return "?";
}

struct Buffers {
  char *hostSend = nullptr, *hostRecv = nullptr; // packed, host rows
  double *devSend = nullptr, *devRecv = nullptr; // strided, device rows
};

/// One exchange in mode m; adds its phases to *t.
void exchange(Mode m, const Shape &s, const Buffers &b, MPI_Datatype type, int peer,
              std::vector<MPI_Request> &reqs, std::vector<MPI_Request> &keep, Times *t) {
  const int n = s.messages;
  const size_t packed = s.packedBytes();
  const double t0 = bench_now();
  for (int i = 0; i < n; ++i) {
    if (m == Mode::MpiIsend || m == Mode::MpiPersistent) {
      PMPI_Irecv(b.hostRecv + size_t(i) * packed, int(packed), MPI_BYTE, peer, i, MPI_COMM_WORLD,
                 &reqs[size_t(i)]);
    } else {
      MPI_Irecv(b.devRecv + size_t(i) * s.slotDoubles(), 1, type, peer, i, MPI_COMM_WORLD,
                &reqs[size_t(i)]);
    }
  }
  const double t1 = bench_now();
  for (int i = 0; i < n; ++i) {
    MPI_Request *r = &reqs[size_t(n + i)];
    switch (m) {
    case Mode::MpiIsend:
      PMPI_Isend(b.hostSend + size_t(i) * packed, int(packed), MPI_BYTE, peer, i, MPI_COMM_WORLD, r);
      break;
    case Mode::MpiPersistent:
      PMPI_Send_init(b.hostSend + size_t(i) * packed, int(packed), MPI_BYTE, peer, i,
                     MPI_COMM_WORLD, r);
      break;
    case Mode::DeviceIsend:
      MPI_Isend(b.devSend + size_t(i) * s.slotDoubles(), 1, type, peer, i, MPI_COMM_WORLD, r);
      break;
    case Mode::DeviceDeferred:
#ifdef BENCH_WITH_TEMPI
      tempi_Isend_deferred(b.devSend + size_t(i) * s.slotDoubles(), 1, type, peer, i,
                           MPI_COMM_WORLD, r, nullptr);
#endif
      break;
    }
  }
  if (m == Mode::MpiPersistent) {
    PMPI_Startall(n, reqs.data() + n);
    std::copy(reqs.begin() + n, reqs.end(), keep.begin());
  }
  const double t2 = bench_now();
  if (m == Mode::MpiIsend || m == Mode::MpiPersistent)
    PMPI_Waitall(2 * n, reqs.data(), MPI_STATUSES_IGNORE);
  else
    MPI_Waitall(2 * n, reqs.data(), MPI_STATUSES_IGNORE);
  if (m == Mode::MpiPersistent)
    for (MPI_Request &k : keep) PMPI_Request_free(&k);
  const double t3 = bench_now();
  t->exchange += t3 - t0;
  t->recvPost += t1 - t0;
  t->sendPost += t2 - t1;
  t->wait += t3 - t2;
}

/// Device rows: one exchange into a poisoned receive buffer; counts elements that do not hold
/// the peer's value (the gaps between them must keep the poison).
long checkedExchange(Mode m, const Shape &s, const Buffers &b, MPI_Datatype type, int rank,
                     std::vector<MPI_Request> &reqs, std::vector<MPI_Request> &keep) {
  const size_t total = size_t(s.messages) * s.slotDoubles();
  std::vector<double> host(total);
  for (size_t i = 0; i < total; ++i) host[i] = rank * 1e6 + double(i);
  CK(cudaMemcpy(b.devSend, host.data(), total * sizeof(double), cudaMemcpyHostToDevice));
  std::fill(host.begin(), host.end(), -1.0);
  CK(cudaMemcpy(b.devRecv, host.data(), total * sizeof(double), cudaMemcpyHostToDevice));
  Times ignored;
  exchange(m, s, b, type, 1 - rank, reqs, keep, &ignored);
  CK(cudaMemcpy(host.data(), b.devRecv, total * sizeof(double), cudaMemcpyDeviceToHost));
  long wrong = 0;
  const int peer = 1 - rank;
  for (size_t i = 0; i < total; ++i) {
    const bool element = (i % s.slotDoubles()) % size_t(s.stride) == 0;
    if (host[i] != (element ? peer * 1e6 + double(i) : -1.0)) ++wrong;
  }
  return wrong;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Shape s;
  bool bad = size != 2;
  for (int a = 1; a < argc && !bad; ++a) {
    auto next = [&](int *v) { bad = a + 1 >= argc || (*v = atoi(argv[++a])) < 1; };
    if (!strcmp(argv[a], "--messages")) next(&s.messages);
    else if (!strcmp(argv[a], "--elems")) next(&s.elems);
    else if (!strcmp(argv[a], "--stride")) next(&s.stride);
    else if (!strcmp(argv[a], "--iters")) next(&s.iters);
    else if (!strcmp(argv[a], "--reps")) next(&s.reps);
    else bad = true;
  }
  if (bad || s.messages > 32767 || s.elems > 4096 || s.stride > 4096) {
    if (rank == 0)
      fprintf(stderr, "usage: mpiexec -n 2 bench-burst [--messages N<=32767] [--elems E] "
                      "[--stride S] [--iters K] [--reps R]  (each at least 1)\n");
    MPI_Finalize();
    return 1;
  }
  ex_require_gpu(rank);
  if (rank == 0) bench_header("bench-burst", "a burst of small nonblocking messages, host cost per request");
  const int peer = 1 - rank;
  MPI_Datatype type;
  MPI_Type_vector(s.elems, 1, s.stride, MPI_DOUBLE, &type);
  MPI_Type_commit(&type);
  Buffers b;
  const size_t packedTotal = size_t(s.messages) * s.packedBytes();
  const size_t stridedTotal = size_t(s.messages) * s.slotDoubles() * sizeof(double);
  b.hostSend = static_cast<char *>(calloc(packedTotal, 1));
  b.hostRecv = static_cast<char *>(calloc(packedTotal, 1));
  CK(cudaMalloc(&b.devSend, stridedTotal));
  CK(cudaMalloc(&b.devRecv, stridedTotal));
  std::vector<MPI_Request> reqs(size_t(2 * s.messages)), keep(size_t(s.messages));

  std::vector<Mode> modes = {Mode::MpiIsend, Mode::MpiPersistent};
  if (bench_tempi_linked()) {
    modes.push_back(Mode::DeviceIsend);
#ifdef BENCH_WITH_TEMPI
    modes.push_back(Mode::DeviceDeferred);
#endif
  }
  long wrongTotal = 0;
  double persistentUs = 0;
  for (Mode m : modes) {
    long wrong = 0;
    if (m == Mode::DeviceIsend || m == Mode::DeviceDeferred)
      wrong = checkedExchange(m, s, b, type, rank, reqs, keep);
    Times warm; // warm-up: pools, arenas, the MPI's connections
    for (int w = 0; w < 10; ++w) exchange(m, s, b, type, peer, reqs, keep, &warm);
    // At most --iters exchanges per timing, fewer when one takes long (MPI_Isend of device
    // buffers synchronizes the GPU per send: tens of ms per exchange on a time-sliced GPU).
    double warmSeconds = warm.exchange / 10;
    MPI_Allreduce(MPI_IN_PLACE, &warmSeconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    const int iters = std::max(3, std::min(s.iters, int(0.2 / std::max(warmSeconds, 1e-9))));
    std::vector<double> exch, recvPost, sendPost, wait;
    for (int r = 0; r < s.reps; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
      Times t;
      for (int it = 0; it < iters; ++it) exchange(m, s, b, type, peer, reqs, keep, &t);
      exch.push_back(t.exchange / iters);
      recvPost.push_back(t.recvPost / iters);
      sendPost.push_back(t.sendPost / iters);
      wait.push_back(t.wait / iters);
    }
    long all = 0;
    MPI_Allreduce(&wrong, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    wrongTotal += all;
    const double exchangeUs = median(exch) * 1e6;
    if (m == Mode::MpiPersistent) persistentUs = exchangeUs;
    if (rank == 0) {
      printf("burst mode=%s messages=%d packed_bytes=%zu iters=%d reps=%d exchange_us=%.1f "
             "recv_post_us=%.3f send_post_us=%.3f wait_us=%.1f",
             modeName(m), s.messages, s.packedBytes(), iters, s.reps, exchangeUs,
             median(recvPost) * 1e6 / s.messages, median(sendPost) * 1e6 / s.messages,
             median(wait) * 1e6);
      if (m == Mode::DeviceIsend || m == Mode::DeviceDeferred)
        printf(" tempi_us_per_request=%.3f wrong=%ld %s", (exchangeUs - persistentUs) / (2 * s.messages),
               all, all ? "FAILED" : "ok");
      printf("\n");
      fflush(stdout);
    }
  }
  MPI_Type_free(&type);
  free(b.hostSend);
  free(b.hostRecv);
  cudaFree(b.devSend);
  cudaFree(b.devRecv);
  MPI_Finalize();
  return wrongTotal ? 1 : 0;
}
