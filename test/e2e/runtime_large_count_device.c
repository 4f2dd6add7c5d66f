/* runtime_large_count_device: libtempi's large-count (_c) calls on device buffers over the fake
 * device layer, every result compared byte for byte (over the whole buffer, gaps included) and
 * status for status (MPI_Get_count_c, MPI_Get_elements_c, source, tag) with the same operation on
 * host buffers through the plain MPI (PMPI_X_c).
 *
 * Rank 0 sends, rank 1 receives (all ranks join the collectives). For each datatype (strided,
 * block list, negative lb, contiguous, pair type) and each of D->H, H->D, D->D: Send_c and
 * Issend_c to Recv_c; Ssend_c to Mprobe+Mrecv_c; Bsend_c to Mprobe+Imrecv_c; Rsend_c to a posted
 * Irecv_c; Isend_c and tempi_Isend_deferred_c to Irecv_c completed in one Waitall with a plain
 * request; Send_init_c/Recv_init_c started twice.
 * Then Sendrecv_c, Sendrecv_replace_c, Pack_c/Unpack_c against PMPI_Pack_c/PMPI_Unpack_c,
 * Pack_size_c, a too small Pack_c/Unpack_c (MPI_ERR_TRUNCATE, nothing written), a negative count
 * (MPI_ERR_COUNT), the four collectives' _c forms with int-sized arguments (the int paths), with
 * displacements over INT_MAX and (w forms) with a count over INT_MAX (the mirrored path), a
 * static plan through
 * tempi_Send_c/tempi_Recv_c, deferred _c sends started in order by the next MPI_Recv_c, and that
 * every staging buffer was released.
 * The fake device memory faults if a device pointer reaches the MPI.
 *
 *   runtime_large_count_device kernels|mirror
 * Also runs on a GPU with runtime_gpu/runtime_cuda_device_api.cpp in place of the fake layer
 * (kernel counts are then not observable and not checked).
 */
#include "runtime_fake_device.h"

#include <tempi/tempi.h>

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "e2e_check.h"

static int size;

enum { MARGIN = 64 };

/* A buffer able to hold `count` elements of `t`: host memory and a device twin. */
typedef struct {
  size_t bytes;
  MPI_Aint shift; /* offset of the MPI buffer pointer inside the allocation */
  unsigned char *host, *dev;
} Buf;

static Buf makeBuf(MPI_Datatype t, MPI_Count count) {
  MPI_Aint lb, extent, tlb, textent;
  MPI_Type_get_extent(t, &lb, &extent);
  MPI_Type_get_true_extent(t, &tlb, &textent);
  MPI_Aint first = tlb, last = tlb + (MPI_Aint)(count - 1) * extent;
  MPI_Aint lo = first < last ? first : last, hi = (first > last ? first : last) + textent;
  Buf b;
  b.bytes = (size_t)(hi - lo) + 2 * MARGIN;
  b.shift = MARGIN - lo;
  b.host = malloc(b.bytes);
  b.dev = fake_device_alloc(b.bytes);
  return b;
}
static void freeBuf(Buf *b) { free(b->host); fake_device_free(b->dev); }
static void fill(Buf *b, int seed) {
  for (size_t i = 0; i < b->bytes; ++i) b->host[i] = (unsigned char)(i * 7 + seed * 13 + 1);
  fake_device_memcpy(b->dev, b->host, b->bytes);
}
static void *hp(Buf *b) { return b->host + b->shift; }
static void *dp(Buf *b) { return b->dev + b->shift; }
/* Byte offset (from the buffer pointer) of the first difference between the device twin and the
 * host buffer, or -1 when they are equal everywhere. */
static ssize_t firstDiff(Buf *b) {
  unsigned char *tmp = malloc(b->bytes);
  fake_device_memcpy(tmp, b->dev, b->bytes);
  size_t at = 0;
  while (at < b->bytes && tmp[at] == b->host[at]) ++at;
  free(tmp);
  return at == b->bytes ? -1 : (ssize_t)at - (ssize_t)b->shift;
}

static void statusEq(const char *what, MPI_Status *a, MPI_Status *b, MPI_Datatype t) {
  MPI_Count ca, cb, ea, eb;
  MPI_Get_count_c(a, t, &ca);
  MPI_Get_count_c(b, t, &cb);
  MPI_Get_elements_c(a, t, &ea);
  MPI_Get_elements_c(b, t, &eb);
  CHECK(ca == cb && ea == eb && a->MPI_SOURCE == b->MPI_SOURCE && a->MPI_TAG == b->MPI_TAG,
        "%s: count %lld/%lld elements %lld/%lld source %d/%d tag %d/%d", what, (long long)ca,
        (long long)cb, (long long)ea, (long long)eb, a->MPI_SOURCE, b->MPI_SOURCE, a->MPI_TAG,
        b->MPI_TAG);
}

typedef struct { const char *name; MPI_Datatype t; MPI_Count count; } Case;

enum Kind { SEND, SSEND, BSEND, RSEND, ISEND, ISSEND, DEFERRED, PERSISTENT, NKINDS };
static const char *kindName[NKINDS] = {"Send_c",  "Ssend_c",  "Bsend_c",          "Rsend_c",
                                       "Isend_c", "Issend_c", "Isend_deferred_c", "Send_init_c"};

/* mode bit 1: the sender uses device memory; bit 2: the receiver does. The reference message
 * (tag + 1000) goes host to host through PMPI_Send_c / PMPI_Recv_c. */
static void p2p(const Case *c, int mode, enum Kind kind) {
  const int sdev = mode & 1, rdev = mode & 2, tag = 100 + mode * 10 + kind;
  char what[160];
  snprintf(what, sizeof what, "%s %s mode=%d", c->name, kindName[kind], mode);
  Buf b = makeBuf(c->t, c->count);
  for (int it = 0; it < (kind == PERSISTENT ? 2 : 1); ++it) {
    if (rank == 0) {
      fill(&b, 1 + it);
      void *buf = sdev ? dp(&b) : hp(&b);
      MPI_Request r;
      switch (kind) {
      case SEND: MPI_Send_c(buf, c->count, c->t, 1, tag, MPI_COMM_WORLD); break;
      case SSEND: MPI_Ssend_c(buf, c->count, c->t, 1, tag, MPI_COMM_WORLD); break;
      case BSEND: {
        int bsize = 0;
        MPI_Pack_size((int)c->count, c->t, MPI_COMM_WORLD, &bsize);
        bsize += MPI_BSEND_OVERHEAD;
        char *bb = malloc(bsize);
        MPI_Buffer_attach(bb, bsize);
        MPI_Bsend_c(buf, c->count, c->t, 1, tag, MPI_COMM_WORLD);
        MPI_Buffer_detach(&bb, &bsize);
        free(bb);
        break;
      }
      case RSEND: /* the receiver posted its receive before this handshake */
        MPI_Recv(NULL, 0, MPI_BYTE, 1, tag + 2000, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Rsend_c(buf, c->count, c->t, 1, tag, MPI_COMM_WORLD);
        break;
      case ISEND:
      case ISSEND:
      case DEFERRED:
        if (kind == ISEND) MPI_Isend_c(buf, c->count, c->t, 1, tag, MPI_COMM_WORLD, &r);
        else if (kind == ISSEND) MPI_Issend_c(buf, c->count, c->t, 1, tag, MPI_COMM_WORLD, &r);
        else tempi_Isend_deferred_c(buf, c->count, c->t, 1, tag, MPI_COMM_WORLD, &r, NULL);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        break;
      case PERSISTENT:
        MPI_Send_init_c(buf, c->count, c->t, 1, tag, MPI_COMM_WORLD, &r);
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Request_free(&r);
        break;
      default: break;
      }
      PMPI_Send_c(hp(&b), c->count, c->t, 1, tag + 1000, MPI_COMM_WORLD);
    } else if (rank == 1) {
      Buf ref = makeBuf(c->t, c->count);
      fill(&b, 50);
      fill(&ref, 50);
      MPI_Status st[2];
      void *buf = rdev ? dp(&b) : hp(&b);
      if (kind == PERSISTENT) {
        MPI_Request r;
        MPI_Recv_init_c(buf, c->count, c->t, 0, tag, MPI_COMM_WORLD, &r);
        MPI_Start(&r);
        MPI_Wait(&r, &st[0]);
        MPI_Request_free(&r);
      } else if (kind == RSEND || kind == ISEND || kind == DEFERRED) {
        MPI_Request r[2];
        MPI_Irecv_c(buf, c->count, c->t, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &r[0]);
        r[1] = MPI_REQUEST_NULL;
        if (kind == RSEND) MPI_Send(NULL, 0, MPI_BYTE, 0, tag + 2000, MPI_COMM_WORLD);
        else PMPI_Irecv_c(hp(&ref), c->count, c->t, 0, tag + 1000, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, st); /* one Waitall over a TEMPI request and a plain one */
        CHECK(r[0] == MPI_REQUEST_NULL, "%s: request not freed", what);
      } else if (kind == SSEND || kind == BSEND) { /* the matched receives' _c forms */
        MPI_Message msg;
        MPI_Mprobe(0, tag, MPI_COMM_WORLD, &msg, &st[0]);
        if (kind == SSEND) {
          MPI_Mrecv_c(buf, c->count, c->t, &msg, &st[0]);
        } else {
          MPI_Request r;
          MPI_Imrecv_c(buf, c->count, c->t, &msg, &r);
          MPI_Wait(&r, &st[0]);
        }
      } else {
        MPI_Recv_c(buf, c->count, c->t, 0, tag, MPI_COMM_WORLD, &st[0]);
      }
      if (!(kind == ISEND || kind == DEFERRED))
        PMPI_Recv_c(hp(&ref), c->count, c->t, 0, tag + 1000, MPI_COMM_WORLD, &st[1]);
      st[1].MPI_TAG -= 1000;
      statusEq(what, &st[0], &st[1], c->t);
      if (rdev) fake_device_memcpy(b.host, b.dev, b.bytes);
      size_t at = 0;
      while (at < b.bytes && b.host[at] == ref.host[at]) ++at;
      CHECK(at == b.bytes, "%s: received bytes differ from the reference at offset %zd of %zu",
            what, (ssize_t)at - (ssize_t)b.shift, b.bytes);
      freeBuf(&ref);
    }
  }
  freeBuf(&b);
}

/* Sendrecv_c device <-> device and Sendrecv_replace_c on a device buffer, against host. */
static void sendrecv(const Case *c) {
  if (rank > 1) return;
  const int peer = 1 - rank;
  Buf s = makeBuf(c->t, c->count), r = makeBuf(c->t, c->count), ref = makeBuf(c->t, c->count);
  fill(&s, rank + 5);
  fill(&r, 9);
  fill(&ref, 9);
  MPI_Status a, b;
  MPI_Sendrecv_c(dp(&s), c->count, c->t, peer, 7, dp(&r), c->count, c->t, peer, 7,
                 MPI_COMM_WORLD, &a);
  PMPI_Sendrecv_c(hp(&s), c->count, c->t, peer, 8, hp(&ref), c->count, c->t, peer, 8,
                  MPI_COMM_WORLD, &b);
  b.MPI_TAG = 7;
  statusEq(c->name, &a, &b, c->t);
  memcpy(r.host, ref.host, r.bytes);
  ssize_t d = firstDiff(&r);
  CHECK(d < 0, "%s: Sendrecv_c bytes differ at %zd", c->name, d);
  fill(&s, rank + 11);
  MPI_Sendrecv_replace_c(dp(&s), c->count, c->t, peer, 9, peer, 9, MPI_COMM_WORLD, &a);
  PMPI_Sendrecv_replace_c(hp(&s), c->count, c->t, peer, 10, peer, 10, MPI_COMM_WORLD, &b);
  b.MPI_TAG = 9;
  statusEq(c->name, &a, &b, c->t);
  d = firstDiff(&s);
  CHECK(d < 0, "%s: Sendrecv_replace_c bytes differ at %zd", c->name, d);
  freeBuf(&s);
  freeBuf(&r);
  freeBuf(&ref);
}

/* Pack_c from device memory into host and device memory, Unpack_c back, against PMPI. */
static void packUnpack(const Case *c) {
  MPI_Count psize = 0, refSize = 0;
  MPI_Pack_size_c(c->count, c->t, MPI_COMM_WORLD, &psize);
  PMPI_Pack_size_c(c->count, c->t, MPI_COMM_WORLD, &refSize);
  CHECK(psize == refSize, "%s: Pack_size_c %lld, PMPI %lld", c->name, (long long)psize,
        (long long)refSize);
  psize += 16;
  Buf b = makeBuf(c->t, c->count);
  fill(&b, 7);
  unsigned char *ref = calloc(psize, 1), *hostOut = calloc(psize, 1);
  unsigned char *devOut = fake_device_alloc(psize), *tmp = malloc(psize);
  fake_device_memcpy(devOut, ref, psize);
  MPI_Count p0 = 8, p1 = 8, p2 = 8;
  PMPI_Pack_c(hp(&b), c->count, c->t, ref, psize, &p0, MPI_COMM_WORLD);
  MPI_Pack_c(dp(&b), c->count, c->t, hostOut, psize, &p1, MPI_COMM_WORLD);
  MPI_Pack_c(dp(&b), c->count, c->t, devOut, psize, &p2, MPI_COMM_WORLD);
  fake_device_memcpy(tmp, devOut, psize);
  CHECK(p0 == p1 && p0 == p2, "%s: Pack_c positions %lld %lld %lld", c->name, (long long)p0,
        (long long)p1, (long long)p2);
  CHECK(!memcmp(ref, hostOut, psize), "%s: device->host Pack_c differs from PMPI_Pack_c", c->name);
  CHECK(!memcmp(ref, tmp, psize), "%s: device->device Pack_c differs from PMPI_Pack_c", c->name);
  /* Host packed bytes into a device buffer, then device packed bytes into one. */
  Buf u = makeBuf(c->t, c->count);
  for (int from = 0; from < 2; ++from) {
    fill(&u, 11);
    MPI_Count q0 = 8, q1 = 8;
    PMPI_Unpack_c(ref, psize, &q0, hp(&u), c->count, c->t, MPI_COMM_WORLD);
    MPI_Unpack_c(from ? (void *)devOut : (void *)ref, psize, &q1, dp(&u), c->count, c->t,
                 MPI_COMM_WORLD);
    ssize_t d = firstDiff(&u);
    CHECK(q0 == q1 && d < 0, "%s: %s->device Unpack_c differs (positions %lld %lld, byte %zd)",
          c->name, from ? "device" : "host", (long long)q0, (long long)q1, d);
  }
  /* Too small: MPI_ERR_TRUNCATE through the error handler, position and buffers untouched. */
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  MPI_Count pos = 9;
  memset(hostOut, 0xee, psize);
  int rc = MPI_Pack_c(dp(&b), c->count, c->t, hostOut, psize - 16, &pos, comm), cls = -1;
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TRUNCATE && pos == 9 && hostOut[9] == 0xee,
        "%s: Pack_c into a too small buffer: class %d position %lld", c->name, cls,
        (long long)pos);
  fill(&u, 12);
  rc = MPI_Unpack_c(ref, psize - 16, &pos, dp(&u), c->count, c->t, comm);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TRUNCATE && pos == 9 && firstDiff(&u) < 0,
        "%s: Unpack_c from a too small buffer: class %d position %lld", c->name, cls,
        (long long)pos);
  /* A negative count: MPI_ERR_COUNT, nothing written. */
  rc = MPI_Pack_c(dp(&b), -1, c->t, hostOut, psize, &pos, comm);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_COUNT && pos == 9, "%s: Pack_c of -1 elements: class %d", c->name, cls);
  rc = MPI_Unpack_c(ref, psize, &pos, dp(&u), -1, c->t, comm);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_COUNT && pos == 9, "%s: Unpack_c of -1 elements: class %d", c->name, cls);
  MPI_Comm_free(&comm);
  free(ref); free(hostOut); free(tmp); fake_device_free(devOut);
  freeBuf(&b); freeBuf(&u);
}

/* The collectives' _c forms. With `far`, every displacement is moved past INT_MAX (v forms:
 * INT_MAX + 7 extents; w forms: 3 GiB) and the buffer pointers back by as many bytes, so no
 * displacement fits an int and the mirrored path runs (Neighbor_alltoallw_c excepted: its int
 * form takes MPI_Aint displacements, so it runs the packed path with them); without, the _c
 * calls run the int forms' packed path. */
static void collectives(const Case *c, int far) {
  MPI_Aint lb, extent;
  MPI_Type_get_extent(c->t, &lb, &extent);
  const MPI_Aint vFar = far ? (MPI_Aint)INT32_MAX + 7 : 0, wFar = far ? (MPI_Aint)3 << 30 : 0;
  Buf s = makeBuf(c->t, c->count * size), r = makeBuf(c->t, c->count * size);
  MPI_Count *cnt = malloc(size * sizeof(MPI_Count));
  MPI_Aint *vd = malloc(size * sizeof(MPI_Aint)), *wd = malloc(size * sizeof(MPI_Aint));
  MPI_Datatype *ty = malloc(size * sizeof(MPI_Datatype));
  for (int j = 0; j < size; ++j) {
    cnt[j] = c->count;
    vd[j] = vFar + j * c->count;          /* in extents */
    wd[j] = wFar + j * c->count * extent; /* in bytes */
    ty[j] = c->t;
  }
#define V(p) ((void *)((uintptr_t)(p) - (uintptr_t)(vFar * extent)))
#define W(p) ((void *)((uintptr_t)(p) - (uintptr_t)wFar))
  char what[160];
  for (int op = 0; op < 4; ++op) {
    fill(&s, rank + 30 + op);
    fill(&r, 40 + op);
    if (op == 0) {
      snprintf(what, sizeof what, "%s Alltoallv_c far=%d", c->name, far);
      MPI_Alltoallv_c(V(dp(&s)), cnt, vd, c->t, V(dp(&r)), cnt, vd, c->t, MPI_COMM_WORLD);
      PMPI_Alltoallv_c(V(hp(&s)), cnt, vd, c->t, V(hp(&r)), cnt, vd, c->t, MPI_COMM_WORLD);
    } else if (op == 1) {
      snprintf(what, sizeof what, "%s Alltoallw_c far=%d", c->name, far);
      MPI_Alltoallw_c(W(dp(&s)), cnt, wd, ty, W(dp(&r)), cnt, wd, ty, MPI_COMM_WORLD);
      PMPI_Alltoallw_c(W(hp(&s)), cnt, wd, ty, W(hp(&r)), cnt, wd, ty, MPI_COMM_WORLD);
    } else {
      /* A periodic ring: two neighbours (the same rank when size is 2). */
      MPI_Comm ring;
      int dims[1] = {size}, periods[1] = {1};
      MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
      if (op == 2) {
        snprintf(what, sizeof what, "%s Neighbor_alltoallv_c far=%d", c->name, far);
        MPI_Neighbor_alltoallv_c(V(dp(&s)), cnt, vd, c->t, V(dp(&r)), cnt, vd, c->t, ring);
        PMPI_Neighbor_alltoallv_c(V(hp(&s)), cnt, vd, c->t, V(hp(&r)), cnt, vd, c->t, ring);
      } else {
        snprintf(what, sizeof what, "%s Neighbor_alltoallw_c far=%d", c->name, far);
        MPI_Neighbor_alltoallw_c(W(dp(&s)), cnt, wd, ty, W(dp(&r)), cnt, wd, ty, ring);
        PMPI_Neighbor_alltoallw_c(W(hp(&s)), cnt, wd, ty, W(hp(&r)), cnt, wd, ty, ring);
      }
      MPI_Comm_free(&ring);
    }
    ssize_t d = firstDiff(&r);
    CHECK(d < 0, "%s: received bytes differ at %zd", what, d);
  }
#undef V
#undef W
  free(cnt); free(vd); free(wd); free(ty);
  freeBuf(&s); freeBuf(&r);
}

/* Alltoallw_c and Neighbor_alltoallw_c where one peer's count is past INT_MAX: that peer's type
 * is empty (size 0), the others move `c` (so the mirrored path runs with real data in it). Each
 * rank sends the huge count to the next rank and receives it from the previous one, never to
 * itself (MPICH 4.0 spends minutes on a local copy of 2^31 empty elements). The neighbour form
 * only with 3 or more ranks (with 2, both neighbours are one rank and which message meets which
 * slot is the MPI's choice). */
static void hugeCountCollectives(const Case *c) {
  const MPI_Count huge = ((MPI_Count)1 << 31) + 5;
  MPI_Datatype empty;
  MPI_Type_contiguous(0, MPI_INT, &empty);
  MPI_Type_commit(&empty);
  MPI_Aint lb, extent;
  MPI_Type_get_extent(c->t, &lb, &extent);
  Buf s = makeBuf(c->t, c->count * size), r = makeBuf(c->t, c->count * size);
  MPI_Count *sc = malloc(size * sizeof(MPI_Count)), *rc = malloc(size * sizeof(MPI_Count));
  MPI_Aint *d = malloc(size * sizeof(MPI_Aint));
  MPI_Datatype *st = malloc(size * sizeof(MPI_Datatype)), *rt = malloc(size * sizeof(MPI_Datatype));
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  for (int j = 0; j < size; ++j) {
    sc[j] = j == next ? huge : c->count;
    st[j] = j == next ? empty : c->t;
    rc[j] = j == prev ? huge : c->count;
    rt[j] = j == prev ? empty : c->t;
    d[j] = j * c->count * extent;
  }
  fill(&s, rank + 70);
  fill(&r, 71);
  MPI_Alltoallw_c(dp(&s), sc, d, st, dp(&r), rc, d, rt, MPI_COMM_WORLD);
  PMPI_Alltoallw_c(hp(&s), sc, d, st, hp(&r), rc, d, rt, MPI_COMM_WORLD);
  ssize_t diff = firstDiff(&r);
  CHECK(diff < 0, "%s: Alltoallw_c with a count past INT_MAX: bytes differ at %zd", c->name, diff);
  if (size >= 3) {
    /* Slot 0 goes to / comes from the left neighbour, slot 1 the right one: sending empties to
     * the left means receiving them from the right. */
    MPI_Comm ring;
    int dims[1] = {size}, periods[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    MPI_Count nsc[2] = {huge, c->count}, nrc[2] = {c->count, huge};
    MPI_Datatype nst[2] = {empty, c->t}, nrt[2] = {c->t, empty};
    MPI_Aint nd[2] = {0, c->count * extent};
    fill(&r, 72);
    MPI_Neighbor_alltoallw_c(dp(&s), nsc, nd, nst, dp(&r), nrc, nd, nrt, ring);
    PMPI_Neighbor_alltoallw_c(hp(&s), nsc, nd, nst, hp(&r), nrc, nd, nrt, ring);
    diff = firstDiff(&r);
    CHECK(diff < 0, "%s: Neighbor_alltoallw_c with a count past INT_MAX: bytes differ at %zd",
          c->name, diff);
    MPI_Comm_free(&ring);
  }
  MPI_Type_free(&empty);
  free(sc); free(rc); free(d); free(st); free(rt);
  freeBuf(&s); freeBuf(&r);
}

/* Deferred _c sends start at the sender's next flushing call (here MPI_Recv_c), in order: two
 * deferred device sends with one tag arrive as the two messages, in the order they were made.
 * Without the flush the receiver's probe times out (a failure, not a hang: it then unblocks the
 * sender, whose MPI_Waitall starts them). */
static void deferredOrder(const Case *c) {
  if (rank > 1) return;
  Buf m[2] = {makeBuf(c->t, c->count), makeBuf(c->t, c->count)};
  if (rank == 0) {
    MPI_Request r[2];
    fill(&m[0], 61);
    fill(&m[1], 62);
    tempi_Isend_deferred_c(dp(&m[0]), c->count, c->t, 1, 600, MPI_COMM_WORLD, &r[0], NULL);
    tempi_Issend_deferred_c(dp(&m[1]), c->count, c->t, 1, 600, MPI_COMM_WORLD, &r[1], NULL);
    MPI_Recv_c(NULL, 0, MPI_BYTE, 1, 601, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  } else {
    int flag = 0;
    for (double t0 = MPI_Wtime(); !flag && MPI_Wtime() - t0 < 10;)
      MPI_Iprobe(0, 600, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(flag, "%s: deferred _c sends not started by the sender's MPI_Recv_c", c->name);
    MPI_Send_c(NULL, 0, MPI_BYTE, 0, 601, MPI_COMM_WORLD);
    MPI_Count psize = 0;
    PMPI_Pack_size_c(c->count, c->t, MPI_COMM_WORLD, &psize);
    unsigned char *packed = malloc(psize);
    for (int k = 0; k < 2; ++k) {
      Buf want = makeBuf(c->t, c->count), src = makeBuf(c->t, c->count);
      fill(&m[k], 5);
      fill(&want, 5);
      fill(&src, 61 + k);
      MPI_Recv_c(hp(&m[k]), c->count, c->t, 0, 600, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Count pos = 0;
      PMPI_Pack_c(hp(&src), c->count, c->t, packed, psize, &pos, MPI_COMM_WORLD);
      pos = 0;
      PMPI_Unpack_c(packed, psize, &pos, hp(&want), c->count, c->t, MPI_COMM_WORLD);
      CHECK(!memcmp(m[k].host, want.host, want.bytes), "%s: deferred message %d differs",
            c->name, k);
      freeBuf(&want);
      freeBuf(&src);
    }
    free(packed);
  }
  freeBuf(&m[0]);
  freeBuf(&m[1]);
}

/* tempi_Send_c / tempi_Recv_c with the static plan of vector(4, 2, 5, MPI_INT). */
static void staticPlan(MPI_Datatype vec) {
  const tempi_static_plan plan = {TEMPI_PLAN_ABI_VERSION, 0, 0, 8, 1, {4}, {20}, 68, 0, 32, 8,
                                  "strided(start=0, bytes=8, dims=[(4, 20)], extent=68, lb=0)", 0};
  Buf b = makeBuf(vec, 2), ref = makeBuf(vec, 2);
  if (rank == 0) {
    fill(&b, 70);
    tempi_Send_c(dp(&b), 2, vec, 1, 500, MPI_COMM_WORLD, &plan);
    PMPI_Send_c(hp(&b), 2, vec, 1, 501, MPI_COMM_WORLD);
  } else if (rank == 1) {
    fill(&b, 80);
    fill(&ref, 80);
    MPI_Status st[2];
    tempi_Recv_c(dp(&b), 2, vec, 0, 500, MPI_COMM_WORLD, &st[0], &plan);
    PMPI_Recv_c(hp(&ref), 2, vec, 0, 501, MPI_COMM_WORLD, &st[1]);
    st[1].MPI_TAG = 500;
    statusEq("static plan", &st[0], &st[1], vec);
    memcpy(b.host, ref.host, b.bytes);
    ssize_t d = firstDiff(&b);
    CHECK(d < 0, "static plan: bytes differ at %zd", d);
  }
  freeBuf(&b);
  freeBuf(&ref);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *mode = argc > 1 ? argv[1] : "kernels";
  MPI_Datatype vec, idx, hv, neg, st, stResized;
  MPI_Type_vector(4, 2, 5, MPI_INT, &vec);
  int ibl[3] = {1, 3, 2}, idisp[3] = {0, 5, 12};
  MPI_Type_indexed(3, ibl, idisp, MPI_FLOAT, &idx);
  MPI_Type_create_hvector(2, 3, 24, MPI_INT, &hv);
  MPI_Type_create_resized(hv, -8, 48, &neg);
  int bl[3] = {1, 1, 3};
  MPI_Aint disp[3] = {0, 8, 20};
  MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
  MPI_Type_create_struct(3, bl, disp, types, &st);
  MPI_Type_create_resized(st, 0, 32, &stResized);
  MPI_Datatype all[] = {vec, idx, neg, stResized};
  for (int i = 0; i < 4; ++i) MPI_Type_commit(&all[i]);
  Case cases[] = {
      {"vector", vec, 3},     {"indexed", idx, 2},        {"negative-lb", neg, 3},
      {"struct", stResized, 2}, {"double", MPI_DOUBLE, 7}, {"double_int", MPI_DOUBLE_INT, 3},
  };
  const int ncases = sizeof cases / sizeof cases[0];
  for (int i = 0; i < ncases; ++i) {
    for (int m = 1; m <= 3; ++m)
      for (int k = 0; k < NKINDS; ++k) p2p(&cases[i], m, (enum Kind)k);
    sendrecv(&cases[i]);
    deferredOrder(&cases[i]);
    packUnpack(&cases[i]);
    collectives(&cases[i], 0);
    collectives(&cases[i], 1);
    hugeCountCollectives(&cases[i]);
  }
  staticPlan(vec);
  for (int i = 0; i < 4; ++i) MPI_Type_free(&all[i]);
  MPI_Type_free(&hv);
  MPI_Type_free(&st);

  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  long outstanding = fake_device_runtime_outstanding(), launches = fake_device_kernel_launches();
  CHECK(outstanding == 0, "%ld staging allocations not released at MPI_Finalize", outstanding);
  /* launches < 0: real CUDA memory (runtime_gpu), where kernels cannot be counted */
  if (!strcmp(mode, "kernels") && launches >= 0)
    CHECK(launches > 0, "no kernel ran (launches %ld)", launches);
  if (!strcmp(mode, "mirror") && launches >= 0)
    CHECK(launches == 0, "kernels ran in mirror mode (%ld)", launches);
  if (failures) fprintf(stderr, "rank %d: %d failures\n", rank, failures);
  return total || failures ? 1 : 0;
}
