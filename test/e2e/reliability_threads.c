/* reliability_threads: 4 threads per rank sending and receiving at once through libtempi under
 * MPI_THREAD_MULTIPLE, host and (fake) device buffers, every message checked.
 *
 * Ranks are paired (r, r^1). On each rank, thread t (0..3) exchanges ITERS messages with thread t
 * of the peer on tag t (so threads never steal each other's messages): each iteration it
 * creates and commits its own datatype (one of vector, negative-stride hvector, struct, indexed,
 * contiguous, chosen by iteration), so commits and frees race with other threads' sends; it sends
 * and receives with one of MPI_Isend/MPI_Irecv + MPI_Waitall, MPI_Sendrecv, or MPI_Send/MPI_Recv
 * ordered by rank; and its buffers are host or device memory by (thread, iteration). The receive
 * buffer is then compared, byte for byte including the gaps, with the reference: the peer's
 * buffer (its pattern is a function of rank, thread, iteration) MPI_Pack'ed and MPI_Unpack'ed on
 * host memory into this thread's initial contents. The status (source, tag, count) is checked.
 * At the end libtempi must hold no staging memory and each rank prints the number of messages
 * it checked. RELIABILITY_SKIP_KNOWN=1 leaves out what a known bug breaks (see main).
 *
 *   reliability_threads [ITERS]      (even number of ranks; default 300)
 */
#include "reliability_common.h"

#include <pthread.h>
#include <sys/types.h>

enum { THREADS = 4, MARGIN = 64 };

static int iters = 300, skipKnown;
static int peer;
static long checked[THREADS];

static MPI_Datatype makeType(int which) {
  MPI_Datatype t;
  switch (which % 5) {
  case 0: MPI_Type_vector(5, 3, 7, MPI_INT, &t); break;
  case 1: MPI_Type_create_hvector(4, 2, -24, MPI_DOUBLE, &t); break;
  case 2: {
    int lens[3] = {1, 3, 2};
    MPI_Aint disp[3] = {0, 8, 40};
    MPI_Datatype types[3] = {MPI_CHAR, MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(3, lens, disp, types, &t);
    break;
  }
  case 3: {
    int lens[3] = {2, 1, 4}, disp[3] = {0, 5, 9};
    MPI_Type_indexed(3, lens, disp, MPI_FLOAT, &t);
    break;
  }
  default: MPI_Type_contiguous(37, MPI_CHAR, &t); break;
  }
  MPI_Type_commit(&t);
  return t;
}

typedef struct {
  size_t bytes;
  MPI_Aint shift;
} Span;

static Span spanOf(MPI_Datatype t, int count) {
  MPI_Aint lb, extent, tlb, textent;
  MPI_Type_get_extent(t, &lb, &extent);
  MPI_Type_get_true_extent(t, &tlb, &textent);
  MPI_Aint first = tlb, last = tlb + (MPI_Aint)(count - 1) * extent;
  MPI_Aint lo = first < last ? first : last, hi = (first > last ? first : last) + textent;
  Span s = {(size_t)(hi - lo) + 2 * MARGIN, MARGIN - lo};
  return s;
}

static void pattern(unsigned char *h, size_t n, int rank, int thread, int it) {
  for (size_t i = 0; i < n; ++i) h[i] = (unsigned char)(i * 13 + rank * 71 + thread * 29 + it * 7 + 1);
}

static void *worker(void *arg) {
  const int th = (int)(long)arg;
  for (int it = 0; it < iters; ++it) {
    const int count = 1 + (it + th) % 4;
    MPI_Datatype t = makeType(it + th);
    Span sp = spanOf(t, count);
    const int how = it % 3;
    int sdev = (th + it) & 1, rdev = ((th + it) >> 1) & 1;
    if (skipKnown && how == 0) sdev = rdev = 0; /* known bug 4: see main */
    unsigned char *mine = malloc(sp.bytes), *theirs = malloc(sp.bytes), *expect = malloc(sp.bytes),
                  *got = malloc(sp.bytes);
    pattern(mine, sp.bytes, rel_rank, th, it);
    pattern(theirs, sp.bytes, peer, th, it);
    char *sbuf = rel_alloc(sdev, sp.bytes), *rbuf = rel_alloc(rdev, sp.bytes);
    rel_copy(sbuf, mine, sp.bytes);
    memset(expect, 0xa5, sp.bytes);
    rel_copy(rbuf, expect, sp.bytes);
    MPI_Status st;
    if (how == 0) {
      MPI_Request r[2];
      MPI_Irecv(rbuf + sp.shift, count, t, peer, th, MPI_COMM_WORLD, &r[0]);
      MPI_Isend(sbuf + sp.shift, count, t, peer, th, MPI_COMM_WORLD, &r[1]);
      MPI_Status sts[2];
      MPI_Waitall(2, r, sts);
      st = sts[0];
    } else if (how == 1) {
      MPI_Sendrecv(sbuf + sp.shift, count, t, peer, th, rbuf + sp.shift, count, t, peer, th,
                   MPI_COMM_WORLD, &st);
    } else if (rel_rank < peer) {
      MPI_Send(sbuf + sp.shift, count, t, peer, th, MPI_COMM_WORLD);
      MPI_Recv(rbuf + sp.shift, count, t, peer, th, MPI_COMM_WORLD, &st);
    } else {
      MPI_Recv(rbuf + sp.shift, count, t, peer, th, MPI_COMM_WORLD, &st);
      MPI_Send(sbuf + sp.shift, count, t, peer, th, MPI_COMM_WORLD);
    }
    /* The reference: the peer's buffer packed and unpacked by the MPI on host memory. */
    int psize = 0, pos = 0;
    MPI_Pack_size(count, t, MPI_COMM_WORLD, &psize);
    unsigned char *packed = malloc((size_t)psize);
    MPI_Pack(theirs + sp.shift, count, t, packed, psize, &pos, MPI_COMM_WORLD);
    int upos = 0;
    MPI_Unpack(packed, psize, &upos, expect + sp.shift, count, t, MPI_COMM_WORLD);
    rel_copy(got, rbuf, sp.bytes);
    size_t at = 0;
    while (at < sp.bytes && got[at] == expect[at]) ++at;
    int n = -1;
    MPI_Get_count(&st, t, &n);
    REL_CHECK(at == sp.bytes && n == count && st.MPI_SOURCE == peer && st.MPI_TAG == th,
              "thread %d iteration %d (type %d, how %d, sdev %d rdev %d): first wrong byte %zd of "
              "%zu, count %d/%d, source %d, tag %d", th, it, (it + th) % 5, how, sdev, rdev,
              at == sp.bytes ? (ssize_t)-1 : (ssize_t)at, sp.bytes, n, count, st.MPI_SOURCE,
              st.MPI_TAG);
    ++checked[th];
    free(packed);
    rel_free(sdev, sbuf);
    rel_free(rdev, rbuf);
    free(mine);
    free(theirs);
    free(expect);
    free(got);
    MPI_Type_free(&t);
  }
  return NULL;
}

int main(int argc, char **argv) {
#ifdef REL_CUDA
  rel_skip_without_gpu(argv[0]);
#endif
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rel_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &rel_size);
  if (argc > 1) iters = atoi(argv[1]);
  /* Finding 4 (docs/reliability.md "Findings", fixed 2026-11-25): libtempi's request table was
   * keyed by the MPI's request handle and looked up after PMPI_Wait* had freed it; another
   * thread could get the same handle for its own device request in between, and the two were
   * mixed up. RELIABILITY_SKIP_KNOWN=1 still makes the nonblocking iterations use host buffers
   * only (the device-buffer request table is then not used by several threads). */
  const char *sk = getenv("RELIABILITY_SKIP_KNOWN");
  skipKnown = sk && *sk == '1';
  if (provided != MPI_THREAD_MULTIPLE || rel_size % 2) {
    fprintf(stderr, "reliability_threads: needs MPI_THREAD_MULTIPLE (got %d) and an even number "
            "of ranks (got %d)\n", provided, rel_size);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  peer = rel_rank ^ 1;
  pthread_t threads[THREADS];
  for (long t = 0; t < THREADS; ++t) pthread_create(&threads[t], NULL, worker, (void *)t);
  for (int t = 0; t < THREADS; ++t) pthread_join(threads[t], NULL);
  long total = 0;
  for (int t = 0; t < THREADS; ++t) total += checked[t];
  if (rel_kernel_launches() >= 0) REL_CHECK(rel_kernel_launches() > 0, "no device kernel ran");
  long all = 0;
  int failures = 0;
  MPI_Reduce(&total, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&rel_failures, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  if (rel_runtime_outstanding() >= 0) /* libtempi released every staging buffer at MPI_Finalize */
    REL_CHECK(rel_runtime_outstanding() == 0, "%ld device allocations outstanding",
              rel_runtime_outstanding());
  if (rel_rank == 0)
    printf("reliability_threads: %d ranks x %d threads x %d iterations: %ld messages checked, "
           "%d failures\n", rel_size, THREADS, iters, all, failures);
  return failures != 0 || rel_failures != 0;
}
