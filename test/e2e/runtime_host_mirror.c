/* runtime_host_mirror: the calls libtempi mirrors through host memory or newly interposes
 * (InterposeHostMirror.cpp, InterposeHostMirrorNeighbor.cpp, InterposeP2PMore.cpp;
 * docs/runtime.md "Host-mirrored calls"), every result compared byte for
 * byte (whole buffers, the gaps of derived types and a margin included) with the same call made
 * by the plain MPI (PMPI_X, always blocking) on host buffers.
 *
 * Calls: Bcast, Reduce, Allreduce, Scan, Exscan, Reduce_scatter, Reduce_scatter_block,
 * Allgather(v), Gather(v), Scatter(v), Alltoall, Neighbor_allgather(v), Neighbor_alltoall (on a
 * periodic 1-D Cartesian communicator), each blocking and as MPI_I + MPI_Wait, each with
 * MPI_IN_PLACE where the call allows it, rooted ones at roots 0 and size-1; Ialltoallv,
 * Ialltoallw, Ineighbor_alltoallv, Ineighbor_alltoallw; Bcast, Reduce, Allreduce, Gather,
 * Scatter, Allgather, Alltoall, Reduce_scatter(_block) (and I forms) on an intercommunicator
 * between groups of 1 and size-1 ranks; one Waitall over three nonblocking
 * collectives and a plain request; Ibsend and Irsend to Recv; Bsend_init, Ssend_init and
 * Rsend_init started twice; Mprobe + Mrecv and Imrecv; Isendrecv and Isendrecv_replace (MPI-4
 * only); receives one element longer than the message (statuses compared: count, elements,
 * source, tag). Datatypes: MPI_INT (op MPI_BXOR),
 * MPI_LONG (MPI_MAX), and in every call without an op a vector of ints (gaps) and a resized
 * vector with a negative lower bound (MPICH defines no predefined op on derived types).
 *
 *   runtime_host_mirror device   (HOST_MIRROR_DEVICE: fake device layer; every send/receive
 *                                 placement host|device; "device" memory faults if it reaches
 *                                 the MPI; no staging left at the end)
 *   runtime_host_mirror errors   (HOST_MIRROR_DEVICE, TEMPI_FAKE_FAIL=copy: each call reports
 *                                 MPI_ERR_OTHER, starts nothing, leaks nothing)
 *   runtime_host_mirror <dir>    (host buffers only; writes <dir>/rank<r>.txt: a digest of every
 *                                 result and status, compared with the plain MPI's by
 *                                 run_compare.sh)
 */
#ifdef HOST_MIRROR_DEVICE
#include "runtime_fake_device.h"
#endif

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "e2e_check.h"

static int size;
static FILE *transcript;

enum { MARGIN = 64 };
enum Where { REF, HOST, DEV };
static const char *whereName[] = {"ref", "host", "dev"};

/* Room for `count` elements of `t`: the reference (plain MPI), the host and the device copy. */
typedef struct {
  size_t bytes;
  MPI_Aint shift; /* offset of the MPI buffer pointer inside the allocation */
  unsigned char *ref, *host, *dev;
} Buf;

static Buf makeBuf(MPI_Datatype t, MPI_Count count) {
  MPI_Aint lb, extent, tlb, textent;
  MPI_Type_get_extent(t, &lb, &extent);
  MPI_Type_get_true_extent(t, &tlb, &textent);
  if (count < 1)
    count = 1;
  MPI_Aint first = tlb, last = tlb + (MPI_Aint)(count - 1) * extent;
  MPI_Aint lo = first < last ? first : last, hi = (first > last ? first : last) + textent;
  Buf b;
  b.bytes = (size_t)(hi - lo) + 2 * MARGIN;
  b.shift = MARGIN - lo;
  b.ref = malloc(b.bytes);
  b.host = malloc(b.bytes);
#ifdef HOST_MIRROR_DEVICE
  b.dev = fake_device_alloc(b.bytes);
#else
  b.dev = NULL;
#endif
  return b;
}
static void freeBuf(Buf *b) {
  free(b->ref);
  free(b->host);
#ifdef HOST_MIRROR_DEVICE
  fake_device_free(b->dev);
#endif
}
static void fill(Buf *b, int seed) {
  for (size_t i = 0; i < b->bytes; ++i)
    b->ref[i] = (unsigned char)(i * 7 + seed * 13 + 1);
  memcpy(b->host, b->ref, b->bytes);
#ifdef HOST_MIRROR_DEVICE
  fake_device_memcpy(b->dev, b->ref, b->bytes);
#endif
}
static void *at(Buf *b, enum Where w) {
  unsigned char *base = w == REF ? b->ref : w == HOST ? b->host : b->dev;
  return base + b->shift;
}

/* Compares the result in `w` with the reference, and writes a digest to the transcript. */
static void same(const char *what, Buf *b, enum Where w) {
  unsigned char *got = b->host;
  unsigned char *tmp = NULL;
  if (w == DEV) {
    tmp = malloc(b->bytes);
#ifdef HOST_MIRROR_DEVICE
    fake_device_memcpy(tmp, b->dev, b->bytes);
#endif
    got = tmp;
  }
  size_t i = 0;
  while (i < b->bytes && got[i] == b->ref[i])
    ++i;
  CHECK(i == b->bytes, "%s: %s result differs from the plain MPI's at offset %zd of %zu", what,
        whereName[w], (ssize_t)i - (ssize_t)b->shift, b->bytes);
  if (transcript) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a of the whole buffer */
    for (size_t k = 0; k < b->bytes; ++k)
      h = (h ^ got[k]) * 1099511628211ull;
    fprintf(transcript, "%s: %zu bytes, digest %016llx\n", what, b->bytes, (unsigned long long)h);
  }
  free(tmp);
}

static void statusEq(const char *what, MPI_Status *a, MPI_Status *b, MPI_Datatype t) {
  int ca, cb, ea, eb;
  MPI_Get_count(a, t, &ca);
  MPI_Get_count(b, t, &cb);
  MPI_Get_elements(a, t, &ea);
  MPI_Get_elements(b, t, &eb);
  CHECK(ca == cb && ea == eb && a->MPI_SOURCE == b->MPI_SOURCE && a->MPI_TAG == b->MPI_TAG,
        "%s: count %d/%d elements %d/%d source %d/%d tag %d/%d", what, ca, cb, ea, eb,
        a->MPI_SOURCE, b->MPI_SOURCE, a->MPI_TAG, b->MPI_TAG);
  if (transcript)
    fprintf(transcript, "%s: status count %d elements %d source %d tag %d\n", what, ca, ea,
            a->MPI_SOURCE, a->MPI_TAG);
}

static void rcOk(const char *what, int rc) {
  CHECK(rc == MPI_SUCCESS, "%s: returned %d", what, rc);
}

typedef struct {
  const char *name;
  MPI_Datatype t;
  int count;
  MPI_Op op; /* MPI_OP_NULL: a derived type (MPICH defines no predefined op on those) */
} Case;

/* One collective: where its send and receive buffers live in the call under test, MPI_IN_PLACE,
 * nonblocking (MPI_I + MPI_Wait). */
typedef struct {
  const Case *c;
  enum Where sw, rw;
  int inPlace, nb;
} Run;

static void describe(char *out, size_t n, const char *call, const Run *r, int root) {
  snprintf(out, n, "%s%s %s send=%s recv=%s%s root=%d", r->nb ? "I" : "", call, r->c->name,
           whereName[r->sw], whereName[r->rw], r->inPlace ? " in-place" : "", root);
}

/* The call under test, blocking or nonblocking + MPI_Wait. */
#define TEST_CALL(name, iname, ...)                                                                \
  do {                                                                                             \
    if (r->nb) {                                                                                   \
      MPI_Request q_ = MPI_REQUEST_NULL;                                                           \
      rc = MPI_##iname(__VA_ARGS__, &q_);                                                          \
      if (rc == MPI_SUCCESS)                                                                       \
        rc = MPI_Wait(&q_, MPI_STATUS_IGNORE);                                                     \
      CHECK(q_ == MPI_REQUEST_NULL, "%s: request not completed", what);                            \
    } else {                                                                                       \
      rc = MPI_##name(__VA_ARGS__);                                                                \
    }                                                                                              \
  } while (0)

/* The plain MPI's nonblocking neighbor alltoall call as the reference of a nonblocking test: on
 * a 2-rank ring both neighbors are the same rank, and Open MPI 4.1.6's blocking and nonblocking
 * neighbor alltoall match those two messages in opposite orders (the standard leaves the order
 * between duplicate neighbors open), so only the same call is a fair reference. */
#define REF_NB(iname, ...)                                                                         \
  do {                                                                                             \
    MPI_Request q_ = MPI_REQUEST_NULL;                                                             \
    rcOk(what, PMPI_##iname(__VA_ARGS__, &q_));                                                    \
    rcOk(what, PMPI_Wait(&q_, MPI_STATUS_IGNORE));                                                 \
  } while (0)

#define SEND(b) (r->inPlace ? MPI_IN_PLACE : at(&(b), r->sw))
#define SENDREF(b) (r->inPlace ? MPI_IN_PLACE : at(&(b), REF))

/* v-variant layout: part i holds count + i % 2 elements, one element of gap between parts. */
static void vLayout(int count, int counts[], int displs[], int *total) {
  int d = 0;
  for (int i = 0; i < size; ++i) {
    counts[i] = count + i % 2;
    displs[i] = d;
    d += counts[i] + 1;
  }
  *total = d;
}

static void bcast(const Run *r, int root) {
  char what[200];
  describe(what, sizeof what, "Bcast", r, root);
  const Case *c = r->c;
  Buf b = makeBuf(c->t, c->count);
  fill(&b, rank + 1);
  int rc;
  rcOk(what, PMPI_Bcast(at(&b, REF), c->count, c->t, root, MPI_COMM_WORLD));
  TEST_CALL(Bcast, Ibcast, at(&b, r->rw), c->count, c->t, root, MPI_COMM_WORLD);
  rcOk(what, rc);
  same(what, &b, r->rw);
  freeBuf(&b);
}

static void reduce(const Run *r, int root) {
  char what[200];
  describe(what, sizeof what, "Reduce", r, root);
  const Case *c = r->c;
  Buf s = makeBuf(c->t, c->count), d = makeBuf(c->t, c->count);
  fill(&s, rank + 2);
  fill(&d, rank + 3);
  int rc;
  rcOk(what, PMPI_Reduce(SENDREF(s), at(&d, REF), c->count, c->t, c->op, root, MPI_COMM_WORLD));
  TEST_CALL(Reduce, Ireduce, SEND(s), at(&d, r->rw), c->count, c->t, c->op, root, MPI_COMM_WORLD);
  rcOk(what, rc);
  same(what, &d, r->rw);
  freeBuf(&s);
  freeBuf(&d);
}

static void allLike(const Run *r, int which) {
  static const char *names[] = {"Allreduce", "Scan", "Exscan"};
  char what[200];
  describe(what, sizeof what, names[which], r, -1);
  const Case *c = r->c;
  Buf s = makeBuf(c->t, c->count), d = makeBuf(c->t, c->count);
  fill(&s, rank + 4);
  fill(&d, rank + 5);
  int rc;
  if (which == 0) {
    rcOk(what, PMPI_Allreduce(SENDREF(s), at(&d, REF), c->count, c->t, c->op, MPI_COMM_WORLD));
    TEST_CALL(Allreduce, Iallreduce, SEND(s), at(&d, r->rw), c->count, c->t, c->op, MPI_COMM_WORLD);
  } else if (which == 1) {
    rcOk(what, PMPI_Scan(SENDREF(s), at(&d, REF), c->count, c->t, c->op, MPI_COMM_WORLD));
    TEST_CALL(Scan, Iscan, SEND(s), at(&d, r->rw), c->count, c->t, c->op, MPI_COMM_WORLD);
  } else {
    rcOk(what, PMPI_Exscan(SENDREF(s), at(&d, REF), c->count, c->t, c->op, MPI_COMM_WORLD));
    TEST_CALL(Exscan, Iexscan, SEND(s), at(&d, r->rw), c->count, c->t, c->op, MPI_COMM_WORLD);
  }
  rcOk(what, rc);
  if (!(which == 2 && rank == 0))
    same(what, &d, r->rw); /* Exscan: rank 0's is undefined */
  freeBuf(&s);
  freeBuf(&d);
}

static void reduceScatter(const Run *r, int block) {
  char what[200];
  describe(what, sizeof what, block ? "Reduce_scatter_block" : "Reduce_scatter", r, -1);
  const Case *c = r->c;
  int counts[64], total = 0;
  for (int i = 0; i < size; ++i)
    total += counts[i] = block ? c->count : c->count + i % 2;
  Buf s = makeBuf(c->t, total), d = makeBuf(c->t, r->inPlace ? total : counts[rank]);
  fill(&s, rank + 6);
  fill(&d, rank + 7);
  int rc;
  if (block) {
    rcOk(what,
         PMPI_Reduce_scatter_block(SENDREF(s), at(&d, REF), c->count, c->t, c->op, MPI_COMM_WORLD));
    TEST_CALL(Reduce_scatter_block, Ireduce_scatter_block, SEND(s), at(&d, r->rw), c->count, c->t,
              c->op, MPI_COMM_WORLD);
  } else {
    rcOk(what, PMPI_Reduce_scatter(SENDREF(s), at(&d, REF), counts, c->t, c->op, MPI_COMM_WORLD));
    TEST_CALL(Reduce_scatter, Ireduce_scatter, SEND(s), at(&d, r->rw), counts, c->t, c->op,
              MPI_COMM_WORLD);
  }
  rcOk(what, rc);
  same(what, &d, r->rw);
  freeBuf(&s);
  freeBuf(&d);
}

static void allgather(const Run *r, int v) {
  char what[200];
  describe(what, sizeof what, v ? "Allgatherv" : "Allgather", r, -1);
  const Case *c = r->c;
  int counts[64], displs[64], total;
  vLayout(c->count, counts, displs, &total);
  if (!v)
    total = size * c->count;
  const int mine = v ? counts[rank] : c->count;
  Buf s = makeBuf(c->t, mine), d = makeBuf(c->t, total);
  fill(&s, rank + 8);
  fill(&d, rank + 9);
  int rc;
  if (v) {
    rcOk(what, PMPI_Allgatherv(SENDREF(s), mine, c->t, at(&d, REF), counts, displs, c->t,
                               MPI_COMM_WORLD));
    TEST_CALL(Allgatherv, Iallgatherv, SEND(s), mine, c->t, at(&d, r->rw), counts, displs, c->t,
              MPI_COMM_WORLD);
  } else {
    rcOk(what, PMPI_Allgather(SENDREF(s), mine, c->t, at(&d, REF), mine, c->t, MPI_COMM_WORLD));
    TEST_CALL(Allgather, Iallgather, SEND(s), mine, c->t, at(&d, r->rw), mine, c->t,
              MPI_COMM_WORLD);
  }
  rcOk(what, rc);
  same(what, &d, r->rw);
  freeBuf(&s);
  freeBuf(&d);
}

static void gather(const Run *r, int v, int root) {
  char what[200];
  describe(what, sizeof what, v ? "Gatherv" : "Gather", r, root);
  const Case *c = r->c;
  int counts[64], displs[64], total;
  vLayout(c->count, counts, displs, &total);
  if (!v)
    total = size * c->count;
  const int mine = v ? counts[rank] : c->count;
  Buf s = makeBuf(c->t, mine), d = makeBuf(c->t, total);
  fill(&s, rank + 10);
  fill(&d, rank + 11);
  /* The root's receive arguments only: elsewhere they are not significant (NULL is allowed). */
  void *dref = rank == root ? at(&d, REF) : NULL, *dtest = rank == root ? at(&d, r->rw) : NULL;
  int rc;
  if (v) {
    rcOk(what,
         PMPI_Gatherv(SENDREF(s), mine, c->t, dref, counts, displs, c->t, root, MPI_COMM_WORLD));
    TEST_CALL(Gatherv, Igatherv, SEND(s), mine, c->t, dtest, counts, displs, c->t, root,
              MPI_COMM_WORLD);
  } else {
    rcOk(what, PMPI_Gather(SENDREF(s), mine, c->t, dref, mine, c->t, root, MPI_COMM_WORLD));
    TEST_CALL(Gather, Igather, SEND(s), mine, c->t, dtest, mine, c->t, root, MPI_COMM_WORLD);
  }
  rcOk(what, rc);
  if (rank == root)
    same(what, &d, r->rw);
  freeBuf(&s);
  freeBuf(&d);
}

static void scatter(const Run *r, int v, int root) {
  char what[200];
  describe(what, sizeof what, v ? "Scatterv" : "Scatter", r, root);
  const Case *c = r->c;
  int counts[64], displs[64], total;
  vLayout(c->count, counts, displs, &total);
  if (!v)
    total = size * c->count;
  const int mine = v ? counts[rank] : c->count;
  Buf s = makeBuf(c->t, total), d = makeBuf(c->t, mine);
  fill(&s, rank + 12);
  fill(&d, rank + 13);
  void *sref = rank == root ? at(&s, REF) : NULL, *stest = rank == root ? at(&s, r->sw) : NULL;
  /* In place: the root's receive buffer is MPI_IN_PLACE and its send buffer is the one result. */
  void *dref = r->inPlace ? MPI_IN_PLACE : at(&d, REF);
  void *dtest = r->inPlace ? MPI_IN_PLACE : at(&d, r->rw);
  if (r->inPlace)
    stest = at(&s, r->rw);
  int rc;
  if (v) {
    rcOk(what, PMPI_Scatterv(sref, counts, displs, c->t, dref, mine, c->t, root, MPI_COMM_WORLD));
    TEST_CALL(Scatterv, Iscatterv, stest, counts, displs, c->t, dtest, mine, c->t, root,
              MPI_COMM_WORLD);
  } else {
    rcOk(what, PMPI_Scatter(sref, mine, c->t, dref, mine, c->t, root, MPI_COMM_WORLD));
    TEST_CALL(Scatter, Iscatter, stest, mine, c->t, dtest, mine, c->t, root, MPI_COMM_WORLD);
  }
  rcOk(what, rc);
  if (r->inPlace)
    same(what, &s, r->rw); /* untouched */
  else
    same(what, &d, r->rw);
  freeBuf(&s);
  freeBuf(&d);
}

static void alltoall(const Run *r) {
  char what[200];
  describe(what, sizeof what, "Alltoall", r, -1);
  const Case *c = r->c;
  Buf s = makeBuf(c->t, size * c->count), d = makeBuf(c->t, size * c->count);
  fill(&s, rank + 14);
  fill(&d, rank + 15);
  int rc;
  rcOk(what,
       PMPI_Alltoall(SENDREF(s), c->count, c->t, at(&d, REF), c->count, c->t, MPI_COMM_WORLD));
  TEST_CALL(Alltoall, Ialltoall, SEND(s), c->count, c->t, at(&d, r->rw), c->count, c->t,
            MPI_COMM_WORLD);
  rcOk(what, rc);
  same(what, &d, r->rw);
  freeBuf(&s);
  freeBuf(&d);
}

static MPI_Comm ring; /* a periodic 1-D Cartesian communicator: two neighbors each */

/* Neighbor_allgather(v) and Neighbor_alltoall on the ring (no MPI_IN_PLACE in these calls). */
static void neighbors(const Run *r) {
  if (r->inPlace)
    return;
  const Case *c = r->c;
  const int counts[2] = {c->count, c->count}, displs[2] = {0, c->count + 1};
  for (int which = 0; which < 3; ++which) {
    char what[200];
    describe(what, sizeof what,
             which == 0   ? "Neighbor_allgather"
             : which == 1 ? "Neighbor_allgatherv"
                          : "Neighbor_alltoall",
             r, -1);
    Buf s = makeBuf(c->t, 2 * c->count), d = makeBuf(c->t, 2 * c->count + 1);
    fill(&s, rank + 40);
    fill(&d, rank + 41);
    int rc;
    if (which == 0) {
      rcOk(what,
           PMPI_Neighbor_allgather(at(&s, REF), c->count, c->t, at(&d, REF), c->count, c->t, ring));
      TEST_CALL(Neighbor_allgather, Ineighbor_allgather, at(&s, r->sw), c->count, c->t,
                at(&d, r->rw), c->count, c->t, ring);
    } else if (which == 1) {
      rcOk(what, PMPI_Neighbor_allgatherv(at(&s, REF), c->count, c->t, at(&d, REF), counts, displs,
                                          c->t, ring));
      TEST_CALL(Neighbor_allgatherv, Ineighbor_allgatherv, at(&s, r->sw), c->count, c->t,
                at(&d, r->rw), counts, displs, c->t, ring);
    } else {
      if (r->nb)
        REF_NB(Ineighbor_alltoall, at(&s, REF), c->count, c->t, at(&d, REF), c->count, c->t, ring);
      else
        rcOk(what, PMPI_Neighbor_alltoall(at(&s, REF), c->count, c->t, at(&d, REF), c->count, c->t,
                                          ring));
      TEST_CALL(Neighbor_alltoall, Ineighbor_alltoall, at(&s, r->sw), c->count, c->t, at(&d, r->rw),
                c->count, c->t, ring);
    }
    rcOk(what, rc);
    same(what, &d, r->rw);
    freeBuf(&s);
    freeBuf(&d);
  }
}

/* The nonblocking forms of the v/w exchanges (libtempi packs only the blocking ones): Ialltoallv
 * and Ialltoallw (also in place) against the blocking plain MPI, and their neighborhood forms
 * against the plain nonblocking ones (REF_NB). */
static void ialltoallvw(const Run *r) {
  if (!r->nb)
    return;
  const Case *c = r->c;
  MPI_Aint lb, extent;
  MPI_Type_get_extent(c->t, &lb, &extent);
  for (int which = 0; which < 4; ++which) {
    const int neighbor = which >= 2, n = neighbor ? 2 : size;
    if (neighbor && r->inPlace)
      continue;
    char what[200];
    static const char *names[] = {"alltoallv", "alltoallw", "neighbor_alltoallv",
                                  "neighbor_alltoallw"};
    describe(what, sizeof what, names[which], r, -1);
    /* Counts symmetric between ranks (count + (i + j) % 2 on the world; uniform on the ring),
     * one element of gap between parts. */
    int counts[64], displs[64], bytes[64], total = 0;
    MPI_Aint abytes[64];
    MPI_Datatype types[64];
    for (int j = 0; j < n; ++j) {
      counts[j] = neighbor ? c->count : c->count + (rank + j) % 2;
      displs[j] = total;
      bytes[j] = (int)(displs[j] * extent);
      abytes[j] = displs[j] * extent;
      types[j] = c->t;
      total += counts[j] + 1;
    }
    Buf s = makeBuf(c->t, total), d = makeBuf(c->t, total);
    fill(&s, rank + 50);
    fill(&d, rank + 51);
    MPI_Comm comm = neighbor ? ring : MPI_COMM_WORLD;
    void *sref = SENDREF(s), *stest = SEND(s);
    MPI_Request q = MPI_REQUEST_NULL;
    int rc;
    switch (which) {
    case 0:
      rcOk(what,
           PMPI_Alltoallv(sref, counts, displs, c->t, at(&d, REF), counts, displs, c->t, comm));
      rc = MPI_Ialltoallv(stest, counts, displs, c->t, at(&d, r->rw), counts, displs, c->t, comm,
                          &q);
      break;
    case 1:
      rcOk(what,
           PMPI_Alltoallw(sref, counts, bytes, types, at(&d, REF), counts, bytes, types, comm));
      rc = MPI_Ialltoallw(stest, counts, bytes, types, at(&d, r->rw), counts, bytes, types, comm,
                          &q);
      break;
    case 2:
      REF_NB(Ineighbor_alltoallv, sref, counts, displs, c->t, at(&d, REF), counts, displs, c->t,
             comm);
      rc = MPI_Ineighbor_alltoallv(stest, counts, displs, c->t, at(&d, r->rw), counts, displs, c->t,
                                   comm, &q);
      break;
    default:
      REF_NB(Ineighbor_alltoallw, sref, counts, abytes, types, at(&d, REF), counts, abytes, types,
             comm);
      rc = MPI_Ineighbor_alltoallw(stest, counts, abytes, types, at(&d, r->rw), counts, abytes,
                                   types, comm, &q);
      break;
    }
    rcOk(what, rc);
    rcOk(what, MPI_Wait(&q, MPI_STATUS_IGNORE));
    same(what, &d, r->rw);
    freeBuf(&s);
    freeBuf(&d);
  }
}

/* Every collective of one Run. In an in-place run of a rooted call only the root passes
 * MPI_IN_PLACE; the other ranks make the ordinary call. */
static void collectives(const Run *r) {
  for (int root = 0; root<size; root += size - 1> 0 ? size - 1 : 1) {
    Run nr = *r;
    if (r->inPlace && rank != root)
      nr.inPlace = 0;
    if (!r->inPlace)
      bcast(r, root);
    if (r->c->op != MPI_OP_NULL)
      reduce(&nr, root);
    gather(&nr, 0, root);
    gather(&nr, 1, root);
    scatter(&nr, 0, root);
    scatter(&nr, 1, root);
  }
  if (r->c->op != MPI_OP_NULL) {
    for (int k = 0; k < 3; ++k)
      allLike(r, k);
    reduceScatter(r, 0);
    reduceScatter(r, 1);
  }
  allgather(r, 0);
  allgather(r, 1);
  alltoall(r);
  neighbors(r);
  ialltoallvw(r);
}

/* One Waitall over an Iallreduce, an Iallgather, an Ibcast and a plain Irecv/Isend pair. */
/* Rooted and all-to-all collectives on an intercommunicator between rank 0 and the others
 * (groups of 1 and size-1, so local and remote sizes differ with 4 ranks); group A's rank 0 is
 * the root (MPI_ROOT there; root 0 in group B). Buffers have room for the larger group; the
 * whole buffer is compared. */
static MPI_Comm inter;
static int interRemote, interLocal;

static void intercollectives(const Run *r) {
  if (r->inPlace)
    return; /* MPI_IN_PLACE is not allowed on intercommunicators */
  const Case *c = r->c;
  const int big = (interRemote > interLocal ? interRemote : interLocal) + 1;
  const int root = rank == 0 ? MPI_ROOT : 0;
  /* Reduce_scatter(_block): both groups must reduce the same number of elements, and each
   * process sends its group's total: count * local * remote elements in either group. */
  const int block = c->count * interRemote;
  int counts[64];
  for (int i = 0; i < interLocal; ++i)
    counts[i] = block;
  for (int which = 0; which < 9; ++which) {
    static const char *names[] = {
        "inter Bcast",         "inter Reduce",    "inter Allreduce", "inter Gather",
        "inter Scatter",       "inter Allgather", "inter Alltoall",  "inter Reduce_scatter_block",
        "inter Reduce_scatter"};
    const int reduces = which == 1 || which == 2 || which >= 7;
    if (reduces && c->op == MPI_OP_NULL)
      continue;
    char what[200];
    describe(what, sizeof what, names[which], r, root);
    const int room = big * (c->count + 1) + c->count * interLocal * interRemote;
    Buf s = makeBuf(c->t, room), d = makeBuf(c->t, room);
    fill(&s, rank + 60);
    fill(&d, rank + 61);
    void *sr = at(&s, REF), *st = at(&s, r->sw), *dr = at(&d, REF), *dt = at(&d, r->rw);
    const int n = c->count;
    int rc = MPI_SUCCESS;
    switch (which) {
    case 0:
      rcOk(what, PMPI_Bcast(dr, n, c->t, root, inter));
      TEST_CALL(Bcast, Ibcast, dt, n, c->t, root, inter);
      break;
    case 1:
      rcOk(what, PMPI_Reduce(sr, dr, n, c->t, c->op, root, inter));
      TEST_CALL(Reduce, Ireduce, st, dt, n, c->t, c->op, root, inter);
      break;
    case 2:
      rcOk(what, PMPI_Allreduce(sr, dr, n, c->t, c->op, inter));
      TEST_CALL(Allreduce, Iallreduce, st, dt, n, c->t, c->op, inter);
      break;
    case 3:
      rcOk(what, PMPI_Gather(sr, n, c->t, dr, n, c->t, root, inter));
      TEST_CALL(Gather, Igather, st, n, c->t, dt, n, c->t, root, inter);
      break;
    case 4:
      rcOk(what, PMPI_Scatter(sr, n, c->t, dr, n, c->t, root, inter));
      TEST_CALL(Scatter, Iscatter, st, n, c->t, dt, n, c->t, root, inter);
      break;
    case 5:
      rcOk(what, PMPI_Allgather(sr, n, c->t, dr, n, c->t, inter));
      TEST_CALL(Allgather, Iallgather, st, n, c->t, dt, n, c->t, inter);
      break;
    case 6:
      rcOk(what, PMPI_Alltoall(sr, n, c->t, dr, n, c->t, inter));
      TEST_CALL(Alltoall, Ialltoall, st, n, c->t, dt, n, c->t, inter);
      break;
    case 7:
      rcOk(what, PMPI_Reduce_scatter_block(sr, dr, block, c->t, c->op, inter));
      TEST_CALL(Reduce_scatter_block, Ireduce_scatter_block, st, dt, block, c->t, c->op, inter);
      break;
    default:
      rcOk(what, PMPI_Reduce_scatter(sr, dr, counts, c->t, c->op, inter));
      TEST_CALL(Reduce_scatter, Ireduce_scatter, st, dt, counts, c->t, c->op, inter);
      break;
    }
    rcOk(what, rc);
    same(what, &d, r->rw);
    same(what, &s, r->sw); /* inputs untouched */
    freeBuf(&s);
    freeBuf(&d);
  }
}

static void mixedWaitall(const Case *c, enum Where w) {
  char what[200];
  snprintf(what, sizeof what, "Waitall(Iallreduce, Iallgather, Ibcast, Isend, Irecv) %s %s",
           c->name, whereName[w]);
  Buf a = makeBuf(c->t, c->count), ad = makeBuf(c->t, c->count);
  Buf g = makeBuf(c->t, c->count), gd = makeBuf(c->t, size * c->count);
  Buf b = makeBuf(c->t, c->count);
  fill(&a, rank + 20);
  fill(&ad, rank + 21);
  fill(&g, rank + 22);
  fill(&gd, rank + 23);
  fill(&b, rank + 24);
  rcOk(what, PMPI_Allreduce(at(&a, REF), at(&ad, REF), c->count, c->t, c->op, MPI_COMM_WORLD));
  rcOk(what,
       PMPI_Allgather(at(&g, REF), c->count, c->t, at(&gd, REF), c->count, c->t, MPI_COMM_WORLD));
  rcOk(what, PMPI_Bcast(at(&b, REF), c->count, c->t, 0, MPI_COMM_WORLD));
  int sv = rank, rv = -1;
  MPI_Request q[5];
  MPI_Status st[5];
  rcOk(what, MPI_Iallreduce(at(&a, w), at(&ad, w), c->count, c->t, c->op, MPI_COMM_WORLD, &q[0]));
  rcOk(what, MPI_Iallgather(at(&g, w), c->count, c->t, at(&gd, w), c->count, c->t, MPI_COMM_WORLD,
                            &q[1]));
  rcOk(what, MPI_Ibcast(at(&b, HOST), c->count, c->t, 0, MPI_COMM_WORLD, &q[2]));
  rcOk(what, MPI_Irecv(&rv, 1, MPI_INT, (rank + size - 1) % size, 77, MPI_COMM_WORLD, &q[3]));
  rcOk(what, MPI_Isend(&sv, 1, MPI_INT, (rank + 1) % size, 77, MPI_COMM_WORLD, &q[4]));
  rcOk(what, MPI_Waitall(5, q, st));
  for (int i = 0; i < 5; ++i)
    CHECK(q[i] == MPI_REQUEST_NULL, "%s: request %d not freed", what, i);
  CHECK(rv == (rank + size - 1) % size, "%s: plain Irecv got %d", what, rv);
  same(what, &ad, w);
  same(what, &gd, w);
  same(what, &b, HOST);
  freeBuf(&a);
  freeBuf(&ad);
  freeBuf(&g);
  freeBuf(&gd);
  freeBuf(&b);
}

/* Point to point around a ring: each rank sends to the next and receives from the previous. The
 * reference message goes through PMPI_Sendrecv on host buffers. Receives are one element longer
 * than the message, so statuses say how much arrived. */
enum P2P {
  IBSEND,
  IRSEND,
  MRECV,
  IMRECV,
  ISENDRECV,
  ISENDRECV_REPLACE,
  BSEND_INIT,
  SSEND_INIT,
  RSEND_INIT,
  NP2P
};
static const char *p2pName[] = {"Ibsend",     "Irsend",     "Mrecv",
                                "Imrecv",     "Isendrecv",  "Isendrecv_replace",
                                "Bsend_init", "Ssend_init", "Rsend_init"};

static void p2p(const Case *c, enum Where sw, enum Where rw, enum P2P kind) {
#if MPI_VERSION < 4
  if (kind == ISENDRECV || kind == ISENDRECV_REPLACE)
    return;
#endif
#if defined(MPICH_NUMVERSION)
  /* MPICH 4.0.2's own MPI_Isendrecv and MPI_Isendrecv_replace drop a reference to a derived
   * datatype at completion (the type is freed under the program: the next use crashes), and
   * _replace corrupts the data, on plain host buffers; the MPICH 5.0.2 wheel's _replace still
   * gives wrong bytes for a vector on plain host buffers (seen on the GPU machine). The device
   * path hands the MPI the same datatype, so with MPICH both are tested on named types only. */
  if ((kind == ISENDRECV || kind == ISENDRECV_REPLACE) && c->op == MPI_OP_NULL)
    return;
#endif
  char what[200];
  snprintf(what, sizeof what, "%s %s send=%s recv=%s", p2pName[kind], c->name, whereName[sw],
           whereName[rw]);
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size, tag = 30 + kind;
  Buf s = makeBuf(c->t, c->count), d = makeBuf(c->t, c->count + 1);
  fill(&s, rank + 30);
  fill(&d, rank + 31);
  MPI_Status ref, got;
  int rc = MPI_SUCCESS;
  if (kind == ISENDRECV_REPLACE) {
    /* The one buffer: the receive buffer's element count, sent and received in place. */
    rcOk(what, PMPI_Sendrecv_replace(at(&d, REF), c->count, c->t, next, tag, prev, tag,
                                     MPI_COMM_WORLD, &ref));
  } else {
    rcOk(what, PMPI_Sendrecv(at(&s, REF), c->count, c->t, next, tag, at(&d, REF), c->count + 1,
                             c->t, prev, tag, MPI_COMM_WORLD, &ref));
  }
  MPI_Request q[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Status sts[2];
  void *sb = at(&s, sw), *rb = at(&d, rw);
  int bsize = 0;
  char *bb = NULL;
  if (kind == IBSEND || kind == BSEND_INIT) {
    MPI_Pack_size(c->count, c->t, MPI_COMM_WORLD, &bsize);
    bsize += MPI_BSEND_OVERHEAD;
    bb = malloc((size_t)bsize);
    MPI_Buffer_attach(bb, bsize);
  }
  switch (kind) {
  case BSEND_INIT:
  case SSEND_INIT:
  case RSEND_INIT: /* persistent: started twice, packed at each start */
    if (kind == BSEND_INIT)
      rc = MPI_Bsend_init(sb, c->count, c->t, next, tag, MPI_COMM_WORLD, &q[0]);
    if (kind == SSEND_INIT)
      rc = MPI_Ssend_init(sb, c->count, c->t, next, tag, MPI_COMM_WORLD, &q[0]);
    if (kind == RSEND_INIT)
      rc = MPI_Rsend_init(sb, c->count, c->t, next, tag, MPI_COMM_WORLD, &q[0]);
    rcOk(what, rc);
    for (int it = 0; it < 2; ++it) {
      rcOk(what, MPI_Irecv(rb, c->count + 1, c->t, prev, tag, MPI_COMM_WORLD, &q[1]));
      MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted before any ready send */
      rcOk(what, MPI_Start(&q[0]));
      rcOk(what, MPI_Waitall(2, q, sts));
      got = sts[1];
    }
    rcOk(what, MPI_Request_free(&q[0]));
    break;
  case IBSEND:
    rc = MPI_Ibsend(sb, c->count, c->t, next, tag, MPI_COMM_WORLD, &q[0]);
    rcOk(what, rc);
    rcOk(what, MPI_Recv(rb, c->count + 1, c->t, prev, tag, MPI_COMM_WORLD, &got));
    rcOk(what, MPI_Wait(&q[0], MPI_STATUS_IGNORE));
    break;
  case IRSEND:
    rcOk(what, MPI_Irecv(rb, c->count + 1, c->t, prev, tag, MPI_COMM_WORLD, &q[1]));
    MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted before any ready send */
    rcOk(what, MPI_Irsend(sb, c->count, c->t, next, tag, MPI_COMM_WORLD, &q[0]));
    rcOk(what, MPI_Waitall(2, q, sts));
    got = sts[1];
    break;
  case MRECV:
  case IMRECV: {
    rcOk(what, MPI_Isend(sb, c->count, c->t, next, tag, MPI_COMM_WORLD, &q[0]));
    MPI_Message msg;
    MPI_Status probed;
    rcOk(what, MPI_Mprobe(prev, tag, MPI_COMM_WORLD, &msg, &probed));
    if (kind == MRECV) {
      rcOk(what, MPI_Mrecv(rb, c->count + 1, c->t, &msg, &got));
      rcOk(what, MPI_Wait(&q[0], MPI_STATUS_IGNORE));
    } else {
      rcOk(what, MPI_Imrecv(rb, c->count + 1, c->t, &msg, &q[1]));
      CHECK(msg == MPI_MESSAGE_NULL, "%s: message handle not consumed", what);
      rcOk(what, MPI_Waitall(2, q, sts));
      got = sts[1];
    }
    break;
  }
#if MPI_VERSION >= 4
  case ISENDRECV:
    rcOk(what, MPI_Isendrecv(sb, c->count, c->t, next, tag, rb, c->count + 1, c->t, prev, tag,
                             MPI_COMM_WORLD, &q[0]));
    rcOk(what, MPI_Wait(&q[0], &got));
    break;
  case ISENDRECV_REPLACE:
    rcOk(what,
         MPI_Isendrecv_replace(rb, c->count, c->t, next, tag, prev, tag, MPI_COMM_WORLD, &q[0]));
    rcOk(what, MPI_Wait(&q[0], &got));
    break;
#endif
  default:
    break;
  }
  if (bb) {
    MPI_Buffer_detach(&bb, &bsize);
    free(bb);
  }
  CHECK(q[0] == MPI_REQUEST_NULL && q[1] == MPI_REQUEST_NULL, "%s: requests not freed", what);
  statusEq(what, &got, &ref, c->t);
  same(what, &d, rw);
  freeBuf(&s);
  freeBuf(&d);
}

#ifdef HOST_MIRROR_DEVICE
/* TEMPI_FAKE_FAIL=copy: every device copy fails. Each call returns MPI_ERR_OTHER through the
 * communicator's handler, starts nothing (so no rank waits for another), leaks nothing. */
static void errorsMode(void) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  int *a = fake_device_alloc(64 * sizeof(int)), *b = fake_device_alloc(64 * sizeof(int) * size);
  int cls = -1, rc;
  MPI_Request q = MPI_REQUEST_NULL;
#define EXPECT_FAIL(call)                                                                          \
  do {                                                                                             \
    rc = (call);                                                                                   \
    MPI_Error_class(rc, &cls);                                                                     \
    CHECK(cls == MPI_ERR_OTHER && q == MPI_REQUEST_NULL, "%s: class %d", #call, cls);              \
  } while (0)
  EXPECT_FAIL(MPI_Allreduce(a, b, 8, MPI_INT, MPI_BXOR, comm));
  EXPECT_FAIL(MPI_Iallreduce(a, b, 8, MPI_INT, MPI_BXOR, comm, &q));
  EXPECT_FAIL(MPI_Bcast(a, 8, MPI_INT, 0, comm));
  EXPECT_FAIL(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_INT, b, (int[64]){8, 8, 8, 8},
                             (int[64]){0, 8, 16, 24}, MPI_INT, comm));
  EXPECT_FAIL(MPI_Ialltoall(a, 1, MPI_INT, b, 1, MPI_INT, comm, &q));
  EXPECT_FAIL(MPI_Ibsend(a, 8, MPI_INT, (rank + 1) % size, 1, comm, &q));
#if MPI_VERSION >= 4
  EXPECT_FAIL(MPI_Isendrecv(a, 8, MPI_INT, (rank + 1) % size, 1, b, 8, MPI_INT,
                            (rank + size - 1) % size, 1, comm, &q));
#endif
  /* Nothing was sent: a plain exchange now gets the message it expects. */
  int v = rank, w = -1;
  PMPI_Sendrecv(&v, 1, MPI_INT, (rank + 1) % size, 1, &w, 1, MPI_INT, (rank + size - 1) % size, 1,
                comm, MPI_STATUS_IGNORE);
  CHECK(w == (rank + size - 1) % size, "a failed call left a message behind: got %d", w);
  fake_device_free(a);
  fake_device_free(b);
  MPI_Comm_free(&comm);
}
#endif

/* Host buffers, a null request pointer: libtempi hands the call to the MPI as it is, so the
 * error (class, in the transcript) is the plain MPI's. */
static void nullRequests(void) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  int a[8] = {0}, b[8 * 64] = {0}, cls = -1, one[64], zero[64];
  MPI_Datatype ints[64];
  for (int i = 0; i < size; ++i) {
    one[i] = 1;
    zero[i] = (int)(i * sizeof(int));
    ints[i] = MPI_INT;
  }
  int rc[5];
  rc[0] = MPI_Iallreduce(a, b, 8, MPI_INT, MPI_BXOR, comm, NULL);
  rc[1] = MPI_Ibcast(a, 8, MPI_INT, 0, comm, NULL);
  rc[2] = MPI_Ialltoallw(a, one, zero, ints, b, one, zero, ints, comm, NULL);
  rc[3] = MPI_Igatherv(a, 1, MPI_INT, b, one, zero, MPI_INT, 0, comm, NULL);
  rc[4] = MPI_SUCCESS;
#if MPI_VERSION >= 4
  rc[4] = MPI_Isendrecv(a, 1, MPI_INT, rank, 5, b, 1, MPI_INT, rank, 5, comm, NULL);
#endif
  for (int i = 0; i < 5; ++i) {
    MPI_Error_class(rc[i], &cls);
    CHECK(rc[i] != MPI_SUCCESS || i == 4, "null request %d: MPI_SUCCESS", i);
    if (transcript)
      fprintf(transcript, "null request %d: error class %d\n", i, cls);
  }
  MPI_Comm_free(&comm);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 64)
    MPI_Abort(MPI_COMM_WORLD, 2);
  const char *mode = argc > 1 ? argv[1] : "device";
#ifdef HOST_MIRROR_DEVICE
  const int device = 1;
  if (!strcmp(mode, "errors")) {
    errorsMode();
    goto done;
  }
#else
  const int device = 0;
  char path[4096];
  snprintf(path, sizeof path, "%s/rank%d.txt", mode, rank);
  transcript = fopen(path, "w");
  if (!transcript)
    MPI_Abort(MPI_COMM_WORLD, 3);
#if defined(MPICH_VERSION)
  nullRequests(); /* Open MPI 4.1.6 itself segfaults on a null request pointer (seen on the GPU machine) */
#endif
#endif
  {
    int dims[1] = {size}, periods[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    inter = MPI_COMM_NULL;
    if (size >= 2) {
      MPI_Comm local;
      MPI_Comm_split(MPI_COMM_WORLD, rank == 0, rank, &local);
      MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank == 0 ? 1 : 0, 99, &inter);
      MPI_Comm_size(local, &interLocal);
      MPI_Comm_remote_size(inter, &interRemote);
      MPI_Comm_free(&local);
    }
    MPI_Datatype vec, neg;
    MPI_Type_vector(3, 2, 4, MPI_INT, &vec); /* 6 ints over 10: gaps between the blocks */
    MPI_Type_create_resized(vec, -8, 48, &neg);
    MPI_Type_commit(&vec);
    MPI_Type_commit(&neg);
    Case cases[] = {
        {"int", MPI_INT, 5, MPI_BXOR},
        {"long", MPI_LONG, 3, MPI_MAX},
        {"vector", vec, 2, MPI_OP_NULL},
        {"negative-lb", neg, 2, MPI_OP_NULL},
    };
    const int ncases = sizeof cases / sizeof cases[0];
    const enum Where places[2] = {HOST, DEV};
    for (int i = 0; i < ncases; ++i) {
      for (int si = 0; si < 1 + device; ++si)
        for (int ri = 0; ri < 1 + device; ++ri)
          for (int nb = 0; nb < 2; ++nb) {
            Run r = {&cases[i], places[si], places[ri], 0, nb};
            collectives(&r);
            if (inter != MPI_COMM_NULL)
              intercollectives(&r);
            if (si == ri) {
              r.inPlace = 1;
              collectives(&r);
            }
          }
      if (cases[i].op != MPI_OP_NULL)
        for (int w = 0; w < 1 + device; ++w)
          mixedWaitall(&cases[i], places[w]);
      for (int si = 0; si < 1 + device; ++si)
        for (int ri = 0; ri < 1 + device; ++ri)
          for (int k = 0; k < NP2P; ++k)
            p2p(&cases[i], places[si], places[ri], (enum P2P)k);
    }
    MPI_Type_free(&vec);
    MPI_Type_free(&neg);
    MPI_Comm_free(&ring);
    if (inter != MPI_COMM_NULL)
      MPI_Comm_free(&inter);
  }
#ifdef HOST_MIRROR_DEVICE
done:
  CHECK(fake_device_runtime_outstanding() == 0, "%ld staging buffers not released",
        fake_device_runtime_outstanding());
#endif
  if (transcript)
    fclose(transcript);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("runtime_host_mirror %s: %d failures\n", mode, total);
  MPI_Finalize();
  return total ? 1 : 0;
}
