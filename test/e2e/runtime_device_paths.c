/* runtime_device_paths: libtempi's device-buffer paths on the fake device layer, every result
 * compared with the same operation on host buffers through the plain MPI (the reference).
 *
 * Sender rank 0, receiver rank 1 (other ranks join the collectives). For each datatype (regular,
 * irregular, negative lb, pair type, contiguous) and each of D->H, H->D, D->D it checks, byte for
 * byte over the whole buffer including the gaps, and status for status (count, elements, source,
 * tag): blocking, nonblocking in one Waitall with a plain host request, persistent, a short
 * message ending inside an element, truncation, MPI_Pack/MPI_Unpack against PMPI_Pack/PMPI_Unpack,
 * Sendrecv_replace and Alltoallw; MPI_Request_get_status polling a device receive. Then Cancel,
 * Request_free of a pending device receive (data checked after MPI_Finalize), and that libtempi
 * released every staging buffer at MPI_Finalize.
 * The fake device memory faults if a device pointer reaches the MPI.
 *
 *   runtime_device_paths kernels|mirror|gpu (kernels: the type cache planned and kernels ran;
 *                                            gpu: real CUDA memory, counts not observable)
 *   runtime_device_paths errors             (with TEMPI_FAKE_FAIL=pack: errors are reported)
 *   runtime_device_paths MODE pmpi          the same, the MPI initialized and finalized with
 *                                           PMPI_Init/PMPI_Finalize, as a Fortran main's MPI
 *                                           does: libtempi starts at its first call and stops
 *                                           in MPI_Finalize (runtime/src/host/Lifecycle.h)
 *   runtime_device_paths MODE pmpi-finalize MPI_Init, then PMPI_Finalize: libtempi stops in
 *                                           MPI_Finalize all the same
 */
#include "runtime_fake_device.h"

#include <tempi/tempi.h>

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "e2e_check.h"

static int size;

enum { MARGIN = 64 };

/* A buffer able to hold `count` elements of `t`: host memory and a device twin. */
typedef struct {
  size_t bytes;       /* allocation */
  MPI_Aint shift;     /* offset of the MPI buffer pointer inside the allocation */
  unsigned char *host;
  unsigned char *dev;
} Buf;

static Buf makeBuf(MPI_Datatype t, int count) {
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
/* 1 when the device twin equals the host buffer everywhere. */
static int same(Buf *b) {
  unsigned char *tmp = malloc(b->bytes);
  fake_device_memcpy(tmp, b->dev, b->bytes);
  int eq = !memcmp(tmp, b->host, b->bytes);
  free(tmp);
  return eq;
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
}

typedef struct { const char *name; MPI_Datatype t; int count; } Case;

/* mode bit 1: sender uses device memory; bit 2: receiver does. */
static void p2p(const Case *c, int mode, int kind /* 0 blocking, 1 nonblocking, 2 persistent */) {
  const int sdev = mode & 1, rdev = mode & 2, tag = 100 + mode * 10 + kind;
  char what[128];
  snprintf(what, sizeof what, "%s mode=%d kind=%d", c->name, mode, kind);
  Buf b = makeBuf(c->t, c->count);
  for (int it = 0; it < (kind == 2 ? 2 : 1); ++it) {
    if (rank == 0) {
      fill(&b, 1 + it);
      void *buf = sdev ? dp(&b) : hp(&b);
      if (kind == 0) {
        MPI_Send(buf, c->count, c->t, 1, tag, MPI_COMM_WORLD);
      } else if (kind == 1) {
        MPI_Request r;
        MPI_Isend(buf, c->count, c->t, 1, tag, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      } else {
        MPI_Request r;
        MPI_Send_init(buf, c->count, c->t, 1, tag, MPI_COMM_WORLD, &r);
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Request_free(&r);
      }
      MPI_Send(hp(&b), c->count, c->t, 1, tag + 1000, MPI_COMM_WORLD); /* the reference */
    } else if (rank == 1) {
      Buf ref = makeBuf(c->t, c->count);
      fill(&b, 50);
      fill(&ref, 50);
      MPI_Status st[2];
      void *buf = rdev ? dp(&b) : hp(&b);
      if (kind == 0) {
        MPI_Recv(buf, c->count, c->t, 0, tag, MPI_COMM_WORLD, &st[0]);
        MPI_Recv(hp(&ref), c->count, c->t, 0, tag + 1000, MPI_COMM_WORLD, &st[1]);
      } else if (kind == 1) { /* one Waitall over a TEMPI request and a plain one */
        MPI_Request r[2];
        MPI_Irecv(buf, c->count, c->t, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(hp(&ref), c->count, c->t, 0, tag + 1000, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, st);
        CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL, "%s", what);
      } else {
        MPI_Request r[2];
        MPI_Recv_init(buf, c->count, c->t, 0, tag, MPI_COMM_WORLD, &r[0]);
        MPI_Recv_init(hp(&ref), c->count, c->t, 0, tag + 1000, MPI_COMM_WORLD, &r[1]);
        MPI_Startall(2, r);
        MPI_Waitall(2, r, st);
        MPI_Request_free(&r[0]);
        MPI_Request_free(&r[1]);
      }
      st[1].MPI_TAG -= 1000;
      statusEq(what, &st[0], &st[1], c->t);
      if (rdev) fake_device_memcpy(b.host, b.dev, b.bytes);
      size_t at = 0;
      while (at < b.bytes && b.host[at] == ref.host[at]) ++at;
      CHECK(at == b.bytes, "%s: received bytes differ from the reference at offset %zd of %zu "
            "(%d, expected %d)", what, (ssize_t)at - (ssize_t)b.shift, b.bytes,
            at < b.bytes ? b.host[at] : -1, at < b.bytes ? ref.host[at] : -1);
      freeBuf(&ref);
    }
  }
  freeBuf(&b);
}

static void shortMessage(const Case *c, int shortBytes);
static void truncated(const Case *c);

/* The largest byte count <= target that ends a basic element of `t` (where MPI_Get_elements steps
 * up; MPICH 5 asserts when a receive ends inside a basic element, which is erroneous anyway). */
static int basicBoundary(MPI_Datatype t, int target) {
  for (int b = target; b > 0; --b) {
    MPI_Status st;
    int here = -1, before = -1;
    MPI_Status_set_elements(&st, MPI_BYTE, b);
    MPI_Get_elements(&st, t, &here);
    MPI_Status_set_elements(&st, MPI_BYTE, b - 1);
    MPI_Get_elements(&st, t, &before);
    if (here != MPI_UNDEFINED && (before == MPI_UNDEFINED || here > before)) return b;
  }
  return 0;
}

/* A message that ends inside an element, and one that is too long (truncation). */
static void shortAndTruncated(const Case *c) {
  int size1;
  MPI_Type_size(c->t, &size1);
  /* Ends on a basic element; and, where the MPI accepts it (MPI_Get_elements defined there:
   * MPICH 4, Open MPI), one byte into the next basic element, which the MPI does not store. */
  const int raw = size1 + size1 / 2 + 1, boundary = basicBoundary(c->t, raw);
  MPI_Status probe;
  int defined = MPI_UNDEFINED;
  MPI_Status_set_elements(&probe, MPI_BYTE, raw);
  MPI_Get_elements(&probe, c->t, &defined);
  shortMessage(c, boundary);
  if (raw != boundary && defined != MPI_UNDEFINED) shortMessage(c, raw);
  truncated(c);
}

static void shortMessage(const Case *c, int shortBytes) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  if (rank == 0) {
    Buf src = makeBuf(MPI_BYTE, shortBytes);
    fill(&src, 3);
    MPI_Send(dp(&src), shortBytes, MPI_BYTE, 1, 1, comm); /* contiguous device send */
    MPI_Send(hp(&src), shortBytes, MPI_BYTE, 1, 2, comm);
    freeBuf(&src);
  } else if (rank == 1) {
    Buf a = makeBuf(c->t, c->count), ref = makeBuf(c->t, c->count);
    MPI_Status st[2];
    fill(&a, 9);
    fill(&ref, 9);
    MPI_Recv(dp(&a), c->count, c->t, 0, 1, comm, &st[0]);
    /* MPICH 4.0 calls a message that ends inside a basic element truncated; a status after an
     * error is undefined, so it is compared only where the MPI accepted the message. */
    if (MPI_Recv(hp(&ref), c->count, c->t, 0, 2, comm, &st[1]) == MPI_SUCCESS) {
      st[1].MPI_TAG = 1;
      statusEq(c->name, &st[0], &st[1], c->t);
    }
    fake_device_memcpy(a.host, a.dev, a.bytes);
    size_t at = 0;
    while (at < a.bytes && a.host[at] == ref.host[at]) ++at;
    CHECK(at == a.bytes, "%s: short message (%d bytes) differs from offset %zd (of %zu): %d vs %d",
          c->name, shortBytes, (ssize_t)at - (ssize_t)a.shift, a.bytes,
          at < a.bytes ? a.host[at] : -1, at < a.bytes ? ref.host[at] : -1);
    freeBuf(&a);
    freeBuf(&ref);
  }
  MPI_Comm_free(&comm);
}

static void truncated(const Case *c) {
  const int longCount = c->count + 1;
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  if (rank == 0) {
    Buf big = makeBuf(c->t, longCount);
    fill(&big, 4);
    MPI_Send(dp(&big), longCount, c->t, 1, 3, comm);
    MPI_Send(hp(&big), longCount, c->t, 1, 4, comm);
    freeBuf(&big);
  } else if (rank == 1) {
    Buf a = makeBuf(c->t, c->count), ref = makeBuf(c->t, c->count);
    MPI_Status st[2];
    fill(&a, 9);
    fill(&ref, 9);
    int rc1 = MPI_Recv(dp(&a), c->count, c->t, 0, 3, comm, &st[0]);
    int rc2 = MPI_Recv(hp(&ref), c->count, c->t, 0, 4, comm, &st[1]);
    int c1, c2;
    MPI_Error_class(rc1, &c1);
    MPI_Error_class(rc2, &c2);
    CHECK(c1 == c2 && c1 == MPI_ERR_TRUNCATE, "%s: truncation classes %d/%d", c->name, c1, c2);
    freeBuf(&a);
    freeBuf(&ref);
  }
  MPI_Comm_free(&comm);
}

static void packUnpack(const Case *c) {
  int psize = 0;
  MPI_Pack_size(c->count, c->t, MPI_COMM_WORLD, &psize);
  psize += 16;
  Buf b = makeBuf(c->t, c->count);
  fill(&b, 7);
  unsigned char *ref = calloc(psize, 1), *hostOut = calloc(psize, 1), *devOut = fake_device_alloc(psize);
  fake_device_memcpy(devOut, ref, psize);
  int p0 = 8, p1 = 8, p2 = 8;
  PMPI_Pack(hp(&b), c->count, c->t, ref, psize, &p0, MPI_COMM_WORLD);
  MPI_Pack(dp(&b), c->count, c->t, hostOut, psize, &p1, MPI_COMM_WORLD);
  MPI_Pack(dp(&b), c->count, c->t, devOut, psize, &p2, MPI_COMM_WORLD);
  unsigned char *tmp = malloc(psize);
  fake_device_memcpy(tmp, devOut, psize);
  CHECK(p0 == p1 && p0 == p2, "%s: pack positions %d %d %d", c->name, p0, p1, p2);
  CHECK(!memcmp(ref, hostOut, psize), "%s: device->host MPI_Pack differs from PMPI_Pack", c->name);
  CHECK(!memcmp(ref, tmp, psize), "%s: device->device MPI_Pack differs from PMPI_Pack", c->name);
  /* Unpack from host and from device packed bytes into device buffers. */
  Buf u = makeBuf(c->t, c->count);
  fill(&u, 11);
  int q0 = 8, q1 = 8, q2 = 8;
  PMPI_Unpack(ref, psize, &q0, hp(&u), c->count, c->t, MPI_COMM_WORLD);
  MPI_Unpack(ref, psize, &q1, dp(&u), c->count, c->t, MPI_COMM_WORLD);
  CHECK(q0 == q1 && same(&u), "%s: host->device MPI_Unpack differs", c->name);
  fill(&u, 11);
  PMPI_Unpack(ref, psize, &q0 /* unused */, hp(&u), 0, c->t, MPI_COMM_WORLD);
  q0 = 8;
  PMPI_Unpack(ref, psize, &q0, hp(&u), c->count, c->t, MPI_COMM_WORLD);
  MPI_Unpack(devOut, psize, &q2, dp(&u), c->count, c->t, MPI_COMM_WORLD);
  CHECK(q0 == q2 && same(&u), "%s: device->device MPI_Unpack differs", c->name);
  free(tmp); free(ref); free(hostOut); fake_device_free(devOut);
  freeBuf(&b); freeBuf(&u);
}

static void replaceAndAlltoallw(const Case *c) {
  Buf b = makeBuf(c->t, c->count);
  fill(&b, rank + 20);
  if (size >= 2 && rank < 2) {
    MPI_Status st[2];
    int peer = 1 - rank;
    MPI_Sendrecv_replace(dp(&b), c->count, c->t, peer, 5, peer, 5, MPI_COMM_WORLD, &st[0]);
    MPI_Sendrecv_replace(hp(&b), c->count, c->t, peer, 6, peer, 6, MPI_COMM_WORLD, &st[1]);
    st[1].MPI_TAG = 5;
    statusEq(c->name, &st[0], &st[1], c->t);
    CHECK(same(&b), "%s: Sendrecv_replace bytes differ", c->name);
  }
  /* Alltoallw: every rank sends `count` elements to everyone, into its own slot. */
  Buf s = makeBuf(c->t, c->count), r = makeBuf(c->t, c->count * size);
  fill(&s, rank + 30);
  fill(&r, 40);
  MPI_Aint lb, extent;
  MPI_Type_get_extent(c->t, &lb, &extent);
  int *cnt = malloc(size * sizeof(int)), *sd = malloc(size * sizeof(int)), *rd = malloc(size * sizeof(int));
  MPI_Datatype *ty = malloc(size * sizeof(MPI_Datatype));
  for (int j = 0; j < size; ++j) { cnt[j] = c->count; sd[j] = 0; rd[j] = (int)(j * c->count * extent); ty[j] = c->t; }
  MPI_Alltoallw(dp(&s), cnt, sd, ty, dp(&r), cnt, rd, ty, MPI_COMM_WORLD);
  MPI_Alltoallw(hp(&s), cnt, sd, ty, hp(&r), cnt, rd, ty, MPI_COMM_WORLD);
  CHECK(same(&r), "%s: Alltoallw bytes differ", c->name);
  free(cnt); free(sd); free(rd); free(ty);
  freeBuf(&b); freeBuf(&s); freeBuf(&r);
}


/* Waitany / Waitsome / Testsome / Testany over device and host receives mixed: indices and
 * statuses must be the right ones and every device receive must land. Ranks 0 -> 1. */
static void requestFamilies(void) {
  enum { N = 6 };
  for (int variant = 0; variant < 4; ++variant) {
    if (rank == 0) {
      int v[N][8];
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < 8; ++j) v[i][j] = variant * 1000 + i * 10 + j;
      Buf d = makeBuf(MPI_INT, 8 * N);
      memcpy(d.host + d.shift, v, sizeof v);
      fake_device_memcpy(d.dev, d.host, d.bytes);
      for (int i = N - 1; i >= 0; --i) /* device sends for odd i, Ssend for one of them */
        if (i % 2) MPI_Send((int *)dp(&d) + 8 * i, 8, MPI_INT, 1, 300 + i, MPI_COMM_WORLD);
        else if (i == 2) MPI_Ssend(v[i], 8, MPI_INT, 1, 300 + i, MPI_COMM_WORLD);
        else MPI_Send(v[i], 8, MPI_INT, 1, 300 + i, MPI_COMM_WORLD);
      freeBuf(&d);
    } else if (rank == 1) {
      Buf d = makeBuf(MPI_INT, 8 * N);
      fill(&d, 3);
      int h[N][8];
      MPI_Request r[N];
      for (int i = 0; i < N; ++i) {
        void *buf = i % 3 == 0 ? (void *)h[i] : (void *)((int *)dp(&d) + 8 * i);
        MPI_Irecv(buf, 8, MPI_INT, 0, 300 + i, MPI_COMM_WORLD, &r[i]);
      }
      int seen[N] = {0}, done = 0;
      while (done < N) {
        int idx, flag = 0, outcount = 0, indices[N];
        MPI_Status sts[N];
        if (variant == 0) { MPI_Waitany(N, r, &idx, &sts[0]); outcount = 1; indices[0] = idx; }
        else if (variant == 1) { MPI_Testany(N, r, &idx, &flag, &sts[0]); if (!flag) continue; outcount = 1; indices[0] = idx; }
        else if (variant == 2) MPI_Waitsome(N, r, &outcount, indices, sts);
        else MPI_Testsome(N, r, &outcount, indices, sts);
        for (int k = 0; k < outcount; ++k) {
          int i = indices[k], count = -1;
          MPI_Get_count(&sts[k], MPI_INT, &count);
          CHECK(i >= 0 && i < N && !seen[i] && sts[k].MPI_TAG == 300 + i && count == 8 && r[i] == MPI_REQUEST_NULL,
                "variant %d index %d tag %d count %d", variant, i, sts[k].MPI_TAG, count);
          if (i >= 0 && i < N) seen[i] = 1;
          ++done;
        }
      }
      fake_device_memcpy(d.host, d.dev, d.bytes);
      for (int i = 0; i < N; ++i) {
        const int *got = i % 3 == 0 ? h[i] : (const int *)(d.host + d.shift) + 8 * i;
        CHECK(got[0] == variant * 1000 + i * 10 && got[7] == variant * 1000 + i * 10 + 7,
              "variant %d request %d data %d", variant, i, got[0]);
      }
      freeBuf(&d);
    }
  }
}

/* Persistent device requests restarted with Startall, Testall to finish, Request_free of an
 * inactive one; Isend + Request_free of a device send; Sendrecv device <-> device. */
static void persistentAndFree(MPI_Datatype vec) {
  Buf s = makeBuf(vec, 2), r = makeBuf(vec, 2), ref = makeBuf(vec, 2);
  const int peer = rank ^ 1;
  if (peer >= size) { freeBuf(&s); freeBuf(&r); freeBuf(&ref); return; }
  MPI_Request req[2];
  MPI_Send_init(dp(&s), 2, vec, peer, 400, MPI_COMM_WORLD, &req[0]);
  MPI_Recv_init(dp(&r), 2, vec, peer, 400, MPI_COMM_WORLD, &req[1]);
  for (int it = 0; it < 3; ++it) {
    fill(&s, rank * 10 + it);
    fill(&r, 77);
    MPI_Startall(2, req);
    int flag = 0;
    MPI_Status st[2];
    while (!flag) MPI_Testall(2, req, &flag, st);
    /* Reference: the same exchange on host buffers. */
    memcpy(ref.host, r.host, r.bytes); /* r.host still holds the fill */
    MPI_Sendrecv(hp(&s), 2, vec, peer, 401, hp(&ref), 2, vec, peer, 401, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fake_device_memcpy(r.host, r.dev, r.bytes);
    CHECK(!memcmp(r.host, ref.host, r.bytes), "persistent iteration %d", it);
    CHECK(req[0] != MPI_REQUEST_NULL && req[1] != MPI_REQUEST_NULL, "persistent handles kept");
  }
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
  /* Sendrecv device -> device against host -> host. */
  fill(&s, rank + 90);
  fill(&r, 5);
  memcpy(ref.host, r.host, r.bytes);
  MPI_Status a, b;
  MPI_Sendrecv(dp(&s), 2, vec, peer, 402, dp(&r), 2, vec, peer, 402, MPI_COMM_WORLD, &a);
  MPI_Sendrecv(hp(&s), 2, vec, peer, 403, hp(&ref), 2, vec, peer, 403, MPI_COMM_WORLD, &b);
  b.MPI_TAG = 402;
  statusEq("sendrecv", &a, &b, vec);
  fake_device_memcpy(r.host, r.dev, r.bytes);
  CHECK(!memcmp(r.host, ref.host, r.bytes), "device Sendrecv");
  /* Isend of a device buffer, freed at once: the message still arrives intact. */
  MPI_Request fr;
  fill(&s, rank + 100);
  MPI_Isend(dp(&s), 2, vec, peer, 404, MPI_COMM_WORLD, &fr);
  MPI_Request_free(&fr);
  fill(&ref, 6);
  MPI_Recv(hp(&ref), 2, vec, peer, 404, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  Buf expect = makeBuf(vec, 2);
  fill(&expect, peer + 100);
  fill(&r, 6);
  int pos = 0;
  unsigned char packed[512];
  PMPI_Pack(hp(&expect), 2, vec, packed, sizeof packed, &pos, MPI_COMM_WORLD);
  pos = 0;
  PMPI_Unpack(packed, sizeof packed, &pos, hp(&r), 2, vec, MPI_COMM_WORLD);
  CHECK(!memcmp(r.host, ref.host, r.bytes), "freed device Isend data");
  MPI_Barrier(MPI_COMM_WORLD);
  freeBuf(&expect); freeBuf(&s); freeBuf(&r); freeBuf(&ref);
}

/* MPI_Request_get_status polling a device receive (one-shot, then a persistent one run twice):
 * once it reports completion the data must be in the buffer, before any Wait; the Wait that
 * follows reports the same status. Reference: the same message into host memory. */
static void getStatusPolls(MPI_Datatype vec) {
  const int peer = rank ^ 1;
  if (peer >= size) return;
  Buf r = makeBuf(vec, 2), ref = makeBuf(vec, 2), s = makeBuf(vec, 2), h = makeBuf(vec, 2);
  MPI_Request persistent, hostPersistent;
  MPI_Recv_init(dp(&r), 2, vec, peer, 502, MPI_COMM_WORLD, &persistent);
  MPI_Recv_init(hp(&h), 2, vec, peer, 502, MPI_COMM_WORLD, &hostPersistent);
  for (int round = 0; round < 3; ++round) {
    const int tag = round == 0 ? 501 : 502;
    fill(&s, rank * 7 + round);
    fill(&r, 40 + round);
    memcpy(ref.host, r.host, r.bytes);
    /* The device receive, and the same receive into host memory (straight to the MPI: what
     * the MPI itself reports), posted in that order: the two sends of one tag match them so. */
    MPI_Request req = persistent, hreq = hostPersistent;
    if (round == 0) {
      MPI_Irecv(dp(&r), 2, vec, peer, tag, MPI_COMM_WORLD, &req);
      MPI_Irecv(hp(&h), 2, vec, peer, tag, MPI_COMM_WORLD, &hreq);
    } else {
      MPI_Start(&persistent);
      MPI_Start(&hostPersistent);
    }
    MPI_Send(hp(&s), 2, vec, peer, tag, MPI_COMM_WORLD);
    MPI_Send(hp(&s), 2, vec, peer, tag, MPI_COMM_WORLD);
    MPI_Sendrecv(hp(&s), 2, vec, peer, 503, hp(&ref), 2, vec, peer, 503, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    int flag = 0;
    MPI_Status polled, waited, hpolled, hwaited;
    while (!flag) MPI_Request_get_status(req, &flag, &polled);
    fake_device_memcpy(r.host, r.dev, r.bytes);
    CHECK(!memcmp(r.host, ref.host, r.bytes), "data in place when get_status reports it (round %d)",
          round);
    MPI_Wait(&req, &waited);
    for (flag = 0; !flag;) MPI_Request_get_status(hreq, &flag, &hpolled);
    MPI_Wait(&hreq, &hwaited);
    /* The status of a Wait after get_status is the MPI's to choose (MPICH 5.0.2 returns an
     * empty one for a persistent request, 4.0.2 the message's): libtempi must give the same. */
    statusEq("get_status, device against host", &polled, &hpolled, vec);
    statusEq("wait after get_status, device against host", &waited, &hwaited, vec);
    CHECK(round == 0 ? req == MPI_REQUEST_NULL : req == persistent, "request after wait");
  }
  MPI_Request_free(&persistent);
  MPI_Request_free(&hostPersistent);
  freeBuf(&r); freeBuf(&ref); freeBuf(&s); freeBuf(&h);
}

/* Commit/free cycles with the type cache active: a reused handle must not serve a stale plan.
 * Each round sends a differently shaped type from device memory and compares with host. */
static void typeCycles(void) {
  if (size < 2 || rank > 1) return;
  for (int i = 1; i <= 12; ++i) {
    MPI_Datatype t, d;
    MPI_Type_vector(i, 1 + i % 3, 2 + i % 3 + i % 5, i % 2 ? MPI_INT : MPI_SHORT, &t);
    MPI_Type_commit(&t);
    MPI_Type_dup(t, &d);
    Case c = {"cycle", d, 1 + i % 2};
    p2p(&c, 1 + i % 3, i % 3);
    MPI_Type_free(&t);
    MPI_Type_free(&d);
  }
}

/* Alltoallv and neighbour collectives on device buffers against host. */
static void moreCollectives(MPI_Datatype vec) {
  int *cnt = malloc(size * sizeof(int)), *dsp = malloc(size * sizeof(int));
  for (int j = 0; j < size; ++j) { cnt[j] = 1; dsp[j] = j; }
  Buf s = makeBuf(vec, size), r = makeBuf(vec, size);
  fill(&s, rank + 1);
  fill(&r, 2);
  MPI_Alltoallv(dp(&s), cnt, dsp, vec, dp(&r), cnt, dsp, vec, MPI_COMM_WORLD);
  MPI_Alltoallv(hp(&s), cnt, dsp, vec, hp(&r), cnt, dsp, vec, MPI_COMM_WORLD);
  CHECK(same(&r), "device Alltoallv");
  MPI_Comm ring;
  int dims[1] = {size}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  int nc[2] = {1, 1}, nd[2] = {0, 1};
  fill(&r, 3);
  MPI_Neighbor_alltoallv(dp(&s), nc, nd, vec, dp(&r), nc, nd, vec, ring);
  MPI_Neighbor_alltoallv(hp(&s), nc, nd, vec, hp(&r), nc, nd, vec, ring);
  CHECK(same(&r), "device Neighbor_alltoallv");
  MPI_Aint lb, extent;
  MPI_Type_get_extent(vec, &lb, &extent);
  MPI_Aint wd[2] = {0, extent};
  MPI_Datatype wt[2] = {vec, vec};
  fill(&r, 4);
  MPI_Neighbor_alltoallw(dp(&s), nc, wd, wt, dp(&r), nc, wd, wt, ring);
  MPI_Neighbor_alltoallw(hp(&s), nc, wd, wt, hp(&r), nc, wd, wt, ring);
  CHECK(same(&r), "device Neighbor_alltoallw");
  MPI_Comm_free(&ring);
  free(cnt); free(dsp);
  freeBuf(&s); freeBuf(&r);
}


/* tempi_Send / tempi_Recv with a static plan (what rewritten code passes): the plan replaces the
 * commit-time one; a plan that does not match the datatype is ignored (logged), never trusted:
 * neither one of another size ("bad") nor one of the same size, extent and lb that covers other
 * bytes ("liar", what a wrong proof in the rewriter would emit). */
static void staticPlans(MPI_Datatype vec /* vector(4, 2, 5, MPI_INT) */) {
  const tempi_static_plan good = {TEMPI_PLAN_ABI_VERSION, 0, 0, 8, 1, {4}, {20}, 68, 0, 32, 8,
                                  "strided(start=0, bytes=8, dims=[(4, 20)], extent=68, lb=0)", 0};
  const tempi_static_plan bad = {TEMPI_PLAN_ABI_VERSION, 0, 0, 4, 1, {4}, {20}, 68, 0, 16, 4,
                                 "a plan of another type", 0};
  const tempi_static_plan liar = {TEMPI_PLAN_ABI_VERSION, 0, 0, 4, 1, {8}, {8}, 68, 0, 32, 4,
                                  "same size, extent and lb, other bytes", 0};
  const tempi_static_plan *plans[3] = {&good, &bad, &liar};
  static const char *names[3] = {"good", "bad", "liar"};
  for (int which = 0; which < 3; ++which) {
    const tempi_static_plan *plan = plans[which];
    Buf b = makeBuf(vec, 2), ref = makeBuf(vec, 2);
    if (rank == 0) {
      fill(&b, 70 + which);
      tempi_Send(dp(&b), 2, vec, 1, 500, MPI_COMM_WORLD, plan);
      MPI_Send(hp(&b), 2, vec, 1, 501, MPI_COMM_WORLD);
    } else if (rank == 1) {
      fill(&b, 80);
      fill(&ref, 80);
      MPI_Status st[2];
      tempi_Recv(dp(&b), 2, vec, 0, 500, MPI_COMM_WORLD, &st[0], plan);
      MPI_Recv(hp(&ref), 2, vec, 0, 501, MPI_COMM_WORLD, &st[1]);
      st[1].MPI_TAG = 500;
      statusEq("static plan", &st[0], &st[1], vec);
      fake_device_memcpy(b.host, b.dev, b.bytes);
      CHECK(!memcmp(b.host, ref.host, b.bytes), "static plan %s: bytes differ", names[which]);
    }
    freeBuf(&b);
    freeBuf(&ref);
  }
}

static int errorsMode(void) {
  /* TEMPI_FAKE_FAIL=pack: packing fails; the call reports it through the error handler. */
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  MPI_Datatype vec;
  MPI_Type_vector(4, 2, 5, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  Buf b = makeBuf(vec, 2);
  fill(&b, 1);
  int cls = -1, rc;
  rc = MPI_Send(dp(&b), 2, vec, (rank + 1) % size, 1, comm);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_OTHER, "failed pack in MPI_Send: class %d", cls);
  MPI_Request req = MPI_REQUEST_NULL;
  rc = MPI_Isend(dp(&b), 2, vec, (rank + 1) % size, 1, comm, &req);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_OTHER && req == MPI_REQUEST_NULL, "failed pack in MPI_Isend: class %d", cls);
  unsigned char out[256];
  int pos = 0;
  rc = MPI_Pack(dp(&b), 2, vec, out, sizeof out, &pos, comm);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_OTHER && pos == 0, "failed MPI_Pack: class %d pos %d", cls, pos);
  pos = 0;
  rc = MPI_Pack(dp(&b), 2, vec, out, 8, &pos, comm);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TRUNCATE, "MPI_Pack into a too small buffer: class %d", cls);
  /* A receive whose unpack fails: the message is consumed, the error reported, nothing hangs. */
  if (size >= 2 && rank < 2) {
    int v[40] = {0};
    if (rank == 0) {
      MPI_Send(v, 16, MPI_INT, 1, 2, comm);
      MPI_Send(v, 16, MPI_INT, 1, 3, comm);
    } else {
      rc = MPI_Recv(dp(&b), 2, vec, 0, 2, comm, MPI_STATUS_IGNORE);
      MPI_Error_class(rc, &cls);
      CHECK(cls == MPI_ERR_OTHER, "failed unpack in MPI_Recv: class %d", cls);
      rc = MPI_Irecv(dp(&b), 2, vec, 0, 3, comm, &req);
      CHECK(rc == MPI_SUCCESS, "MPI_Irecv: %d", rc);
      rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
      MPI_Error_class(rc, &cls);
      CHECK(cls == MPI_ERR_OTHER && req == MPI_REQUEST_NULL, "failed unpack in MPI_Wait: class %d", cls);
    }
  }
  freeBuf(&b);
  MPI_Type_free(&vec);
  MPI_Comm_free(&comm);
  return 0;
}

int main(int argc, char **argv) {
  const int bypassInit = argc > 2 && !strcmp(argv[2], "pmpi");
  const int bypassFinalize = bypassInit || (argc > 2 && !strcmp(argv[2], "pmpi-finalize"));
  if (bypassInit)
    PMPI_Init(&argc, &argv);
  else
    MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *mode = argc > 1 ? argv[1] : "kernels";
  if (!strcmp(mode, "errors")) {
    errorsMode();
  } else {
    MPI_Datatype vec, sub, st, stResized, idx, hv, neg;
    MPI_Type_vector(4, 2, 5, MPI_INT, &vec);
    int sizes[3] = {8, 6, 5}, subs[3] = {4, 3, 2}, starts[3] = {1, 2, 3};
    MPI_Type_create_subarray(3, sizes, subs, starts, MPI_ORDER_C, MPI_DOUBLE, &sub);
    int bl[3] = {1, 1, 3};
    MPI_Aint disp[3] = {0, 8, 20};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MPI_Type_create_struct(3, bl, disp, types, &st);
    MPI_Type_create_resized(st, 0, 32, &stResized);
    int ibl[3] = {1, 3, 2}, idisp[3] = {0, 5, 12};
    MPI_Type_indexed(3, ibl, idisp, MPI_FLOAT, &idx);
    MPI_Type_create_hvector(2, 3, 24, MPI_INT, &hv);
    MPI_Type_create_resized(hv, -8, 48, &neg);
    MPI_Datatype all[] = {vec, sub, stResized, idx, neg};
    for (int i = 0; i < 5; ++i) MPI_Type_commit(&all[i]);
    Case cases[] = {
        {"vector", all[0], 2},   {"subarray3d", all[1], 2}, {"struct", all[2], 3},
        {"indexed", all[3], 2},  {"negative-lb", all[4], 3}, {"double", MPI_DOUBLE, 7},
        {"double_int", MPI_DOUBLE_INT, 3},
    };
    const int ncases = sizeof cases / sizeof cases[0];
    for (int i = 0; i < ncases; ++i) {
      for (int m = 1; m <= 3; ++m)
        for (int kind = 0; kind < 3; ++kind) p2p(&cases[i], m, kind);
      shortAndTruncated(&cases[i]);
      packUnpack(&cases[i]);
      replaceAndAlltoallw(&cases[i]);
    }
    requestFamilies();
    staticPlans(all[0]);
    persistentAndFree(all[0]);
    getStatusPolls(all[0]);
    typeCycles();
    moreCollectives(all[1]);
    /* Cancel a device receive: nothing moves. */
    Buf c = makeBuf(MPI_INT, 4);
    fill(&c, 5);
    MPI_Request req;
    MPI_Status status;
    MPI_Irecv(dp(&c), 4, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &req);
    MPI_Cancel(&req);
    MPI_Wait(&req, &status);
    int cancelled = 0;
    MPI_Test_cancelled(&status, &cancelled);
    CHECK(cancelled && same(&c), "cancelled device receive");
    freeBuf(&c);
    for (int i = 0; i < 5; ++i) MPI_Type_free(&all[i]);
    MPI_Type_free(&st);
    MPI_Type_free(&hv);
  }
  /* Request_free of a pending device receive: the data lands by MPI_Finalize. */
  Buf f = makeBuf(MPI_INT, 16);
  fill(&f, 60);
  if (rank == 1) {
    MPI_Request req;
    MPI_Irecv(dp(&f), 16, MPI_INT, 0, 77, MPI_COMM_WORLD, &req);
    MPI_Request_free(&req);
    CHECK(req == MPI_REQUEST_NULL, "freed request");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    int v[16];
    for (int i = 0; i < 16; ++i) v[i] = 1000 + i;
    MPI_Send(v, 16, MPI_INT, 1, 77, MPI_COMM_WORLD);
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (bypassFinalize)
    PMPI_Finalize();
  else
    MPI_Finalize();
  if (rank == 1) {
    int v[16];
    fake_device_memcpy(v, dp(&f), sizeof v);
    CHECK(v[0] == 1000 && v[15] == 1015, "freed device receive landed: %d %d", v[0], v[15]);
  }
  long outstanding = fake_device_runtime_outstanding(), launches = fake_device_kernel_launches();
  CHECK(outstanding == 0, "%ld staging allocations not released at MPI_Finalize", outstanding);
  if (!strcmp(mode, "kernels") && launches >= 0) CHECK(launches > 0, "no kernel ran (launches %ld)", launches);
  if (!strcmp(mode, "mirror") && launches >= 0) CHECK(launches == 0, "kernels ran in mirror mode (%ld)", launches);
  freeBuf(&f);
  if (failures) fprintf(stderr, "rank %d: %d failures\n", rank, failures);
  return total || failures ? 1 : 0;
}
