/* runtime_host_exact: host-buffer interposition must be exact.
 *
 * Built twice (run_compare.sh): plain, and with libtempi first on the link line. Every rank writes
 * a transcript of what it observed (received data, MPI_Get_count/MPI_Get_elements, source, tag,
 * error classes, Waitany/Waitsome indices, packed bytes) to <dir>/rank<r>.txt; the two builds
 * must write identical transcripts. Each step also checks its own expected values, so a wrong
 * answer shared by both builds still fails. Run with an even number of ranks (pairs r, r^1).
 *
 *   runtime_host_exact <output-dir>
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *out;
static int rank, size, peer, failures;

#define CHECK(cond)                                                                               \
  do {                                                                                            \
    if (!(cond)) {                                                                                \
      fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", rank, __FILE__, __LINE__, #cond);   \
      ++failures;                                                                                 \
    }                                                                                             \
  } while (0)

static void printInts(const char *what, const int *v, int n) {
  fprintf(out, "%s:", what);
  for (int i = 0; i < n; ++i) fprintf(out, " %d", v[i]);
  fprintf(out, "\n");
}

static void printStatus(const char *what, const MPI_Status *st, MPI_Datatype t) {
  int count = -2, elements = -2, cancelled = -2;
  MPI_Get_count(st, t, &count);
  MPI_Get_elements(st, t, &elements);
  MPI_Test_cancelled(st, &cancelled);
  fprintf(out, "%s: source=%d tag=%d count=%d elements=%d cancelled=%d\n", what, st->MPI_SOURCE,
          st->MPI_TAG, count, elements, cancelled);
}

/* The libtempi build must really interpose: MPI_Send must resolve into libtempi. */
static int linkedWithTempi(void) {
  Dl_info info;
  if (!dladdr((void *)&MPI_Send, &info) || !info.dli_fname) return 0;
  return strstr(info.dli_fname, "libtempi") != NULL;
}

static void vectorSteps(MPI_Datatype vec /* vector(4, 2, 5, MPI_INT) */) {
  int src[40], dst[40];
  MPI_Status st;
  for (int i = 0; i < 40; ++i) src[i] = 100 * rank + i;
  /* Typed send, contiguous receive. */
  if (rank < peer) {
    MPI_Send(src, 2, vec, peer, 1, MPI_COMM_WORLD);
  } else {
    memset(dst, -1, sizeof dst);
    MPI_Recv(dst, 16, MPI_INT, peer, 1, MPI_COMM_WORLD, &st);
    printStatus("vector->ints status", &st, MPI_INT);
    printInts("vector->ints data", dst, 16);
    CHECK(dst[0] == 100 * peer + 0 && dst[2] == 100 * peer + 5 && dst[8] == 100 * peer + 17);
  }
  /* Contiguous send, typed receive: the gaps keep their bytes. */
  if (rank > peer) {
    MPI_Send(src, 16, MPI_INT, peer, 2, MPI_COMM_WORLD);
  } else {
    for (int i = 0; i < 40; ++i) dst[i] = -1;
    MPI_Recv(dst, 2, vec, peer, 2, MPI_COMM_WORLD, &st);
    printStatus("ints->vector status", &st, vec);
    printInts("ints->vector data", dst, 40);
    CHECK(dst[0] == 100 * peer && dst[2] == -1 && dst[5] == 100 * peer + 2 && dst[17] == 100 * peer + 8);
  }
  /* A short message ending inside an element: count undefined, elements 5. */
  if (rank < peer) {
    MPI_Send(src, 5, MPI_INT, peer, 3, MPI_COMM_WORLD);
  } else {
    for (int i = 0; i < 40; ++i) dst[i] = -1;
    MPI_Recv(dst, 2, vec, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    printStatus("short status", &st, vec);
    printInts("short data", dst, 40);
    int count = 0, elements = 0;
    MPI_Get_count(&st, vec, &count);
    MPI_Get_elements(&st, vec, &elements);
    CHECK(count == MPI_UNDEFINED && elements == 5 && st.MPI_SOURCE == peer && st.MPI_TAG == 3);
  }
}

static void truncationStep(void) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  int src[10], dst[5];
  for (int i = 0; i < 10; ++i) src[i] = i + 1;
  if (rank < peer) {
    MPI_Send(src, 10, MPI_INT, peer, 4, comm);
  } else {
    MPI_Status st;
    memset(dst, 0, sizeof dst);
    int rc = MPI_Recv(dst, 5, MPI_INT, peer, 4, comm, &st);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    fprintf(out, "truncate: class=%d is_truncate=%d\n", cls, cls == MPI_ERR_TRUNCATE);
    CHECK(cls == MPI_ERR_TRUNCATE);
  }
  MPI_Comm_free(&comm);
}

static void sendModes(void) {
  int v[4], r[4];
  for (int i = 0; i < 4; ++i) v[i] = rank * 10 + i;
  MPI_Status st;
  /* Ssend */
  if (rank < peer) MPI_Ssend(v, 4, MPI_INT, peer, 5, MPI_COMM_WORLD);
  else { MPI_Recv(r, 4, MPI_INT, peer, 5, MPI_COMM_WORLD, &st); printInts("ssend", r, 4); CHECK(r[3] == peer * 10 + 3); }
  /* Bsend */
  int bsize = 4 * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
  char *bbuf = malloc(bsize);
  MPI_Buffer_attach(bbuf, bsize);
  if (rank < peer) MPI_Bsend(v, 4, MPI_INT, peer, 6, MPI_COMM_WORLD);
  else { MPI_Recv(r, 4, MPI_INT, peer, 6, MPI_COMM_WORLD, &st); printInts("bsend", r, 4); CHECK(r[0] == peer * 10); }
  MPI_Buffer_detach(&bbuf, &bsize);
  free(bbuf);
  /* Rsend: the receive is posted before the pair synchronizes. */
  MPI_Request req = MPI_REQUEST_NULL;
  if (rank > peer) MPI_Irecv(r, 4, MPI_INT, peer, 7, MPI_COMM_WORLD, &req);
  MPI_Sendrecv(NULL, 0, MPI_INT, peer, 70, NULL, 0, MPI_INT, peer, 70, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank < peer) MPI_Rsend(v, 4, MPI_INT, peer, 7, MPI_COMM_WORLD);
  else { MPI_Wait(&req, &st); printStatus("rsend status", &st, MPI_INT); printInts("rsend", r, 4); CHECK(req == MPI_REQUEST_NULL); }
}

static void nonblocking(void) {
  enum { N = 4 };
  int v[N][3], r[N][3];
  MPI_Request reqs[N];
  MPI_Status sts[N];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < 3; ++j) v[i][j] = rank * 1000 + i * 10 + j;
  /* Waitall with statuses; the sender's Waitall ignores them. */
  if (rank < peer) {
    for (int i = 0; i < N; ++i) MPI_Isend(v[i], i % 3 + 1, MPI_INT, peer, 10 + i, MPI_COMM_WORLD, &reqs[i]);
    MPI_Waitall(N, reqs, MPI_STATUSES_IGNORE);
  } else {
    for (int i = 0; i < N; ++i) MPI_Irecv(r[i], 3, MPI_INT, peer, 10 + i, MPI_COMM_WORLD, &reqs[i]);
    MPI_Waitall(N, reqs, sts);
    for (int i = 0; i < N; ++i) {
      printStatus("waitall status", &sts[i], MPI_INT);
      printInts("waitall data", r[i], i % 3 + 1);
      CHECK(sts[i].MPI_TAG == 10 + i && reqs[i] == MPI_REQUEST_NULL && r[i][0] == peer * 1000 + i * 10);
    }
  }
  /* Waitany / Testany / Waitsome / Testsome: the set of (index, tag) pairs, sorted. */
  for (int variant = 0; variant < 4; ++variant) {
    if (rank < peer) {
      for (int i = N - 1; i >= 0; --i) MPI_Send(v[i], 3, MPI_INT, peer, 20 + i, MPI_COMM_WORLD);
      continue;
    }
    for (int i = 0; i < N; ++i) MPI_Irecv(r[i], 3, MPI_INT, peer, 20 + i, MPI_COMM_WORLD, &reqs[i]);
    int seen[N] = {0}, done = 0;
    while (done < N) {
      int idx = -1, flag = 0, outcount = 0, indices[N];
      MPI_Status st;
      if (variant == 0) {
        MPI_Waitany(N, reqs, &idx, &st);
        outcount = 1; indices[0] = idx; sts[0] = st;
      } else if (variant == 1) {
        MPI_Testany(N, reqs, &idx, &flag, &st);
        if (!flag || idx == MPI_UNDEFINED) continue;
        outcount = 1; indices[0] = idx; sts[0] = st;
      } else if (variant == 2) {
        MPI_Waitsome(N, reqs, &outcount, indices, sts);
      } else {
        MPI_Testsome(N, reqs, &outcount, indices, sts);
      }
      for (int k = 0; k < outcount; ++k) {
        int i = indices[k];
        CHECK(i >= 0 && i < N && !seen[i] && sts[k].MPI_TAG == 20 + i && r[i][2] == peer * 1000 + i * 10 + 2);
        if (i >= 0 && i < N) seen[i] = 1;
        ++done;
      }
    }
    int idx = 0;
    MPI_Waitany(N, reqs, &idx, MPI_STATUS_IGNORE);
    fprintf(out, "any/some variant %d: all %d seen, then index=%d\n", variant, N, idx);
    CHECK(idx == MPI_UNDEFINED);
  }
  /* Test / Testall loops. */
  if (rank < peer) {
    MPI_Send(v[0], 3, MPI_INT, peer, 30, MPI_COMM_WORLD);
    MPI_Send(v[1], 3, MPI_INT, peer, 31, MPI_COMM_WORLD);
    MPI_Send(v[2], 3, MPI_INT, peer, 32, MPI_COMM_WORLD);
  } else {
    MPI_Request one;
    MPI_Status st;
    int flag = 0;
    MPI_Irecv(r[0], 3, MPI_INT, peer, 30, MPI_COMM_WORLD, &one);
    while (!flag) MPI_Test(&one, &flag, &st);
    printStatus("test status", &st, MPI_INT);
    MPI_Irecv(r[1], 3, MPI_INT, peer, 31, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(r[2], 3, MPI_INT, peer, 32, MPI_COMM_WORLD, &reqs[1]);
    flag = 0;
    while (!flag) MPI_Testall(2, reqs, &flag, sts);
    printStatus("testall status 0", &sts[0], MPI_INT);
    printStatus("testall status 1", &sts[1], MPI_INT);
    printInts("testall data", r[2], 3);
    CHECK(r[2][0] == peer * 1000 + 20);
  }
}

static void persistent(void) {
  int v[6], r[6];
  MPI_Request reqs[2];
  MPI_Status sts[2];
  MPI_Send_init(v, 6, MPI_INT, peer, 40, MPI_COMM_WORLD, &reqs[0]);
  MPI_Recv_init(r, 6, MPI_INT, peer, 40, MPI_COMM_WORLD, &reqs[1]);
  for (int it = 0; it < 3; ++it) {
    for (int i = 0; i < 6; ++i) v[i] = rank * 100 + it * 10 + i;
    MPI_Startall(2, reqs);
    MPI_Waitall(2, reqs, sts);
    printStatus("persistent status", &sts[1], MPI_INT);
    printInts("persistent data", r, 6);
    CHECK(r[5] == peer * 100 + it * 10 + 5 && reqs[0] != MPI_REQUEST_NULL);
  }
  /* Start / Wait on one, then the inactive request completes at once with an empty status. */
  MPI_Start(&reqs[1]);
  MPI_Start(&reqs[0]);
  MPI_Wait(&reqs[1], &sts[1]);
  MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
  MPI_Wait(&reqs[0], &sts[0]);
  printStatus("inactive status", &sts[0], MPI_INT);
  MPI_Request_free(&reqs[0]);
  MPI_Request_free(&reqs[1]);
  CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL);
}

static void cancelAndFree(void) {
  int r[2] = {0, 0}, v[2] = {rank, rank + 1};
  MPI_Request req;
  MPI_Status st;
  MPI_Irecv(r, 2, MPI_INT, peer, 999, MPI_COMM_WORLD, &req);
  MPI_Cancel(&req);
  MPI_Wait(&req, &st);
  int cancelled = 0;
  MPI_Test_cancelled(&st, &cancelled);
  fprintf(out, "cancel: cancelled=%d\n", cancelled);
  CHECK(cancelled == 1);
  /* Request_free of an active send: the message still arrives. */
  if (rank < peer) {
    MPI_Isend(v, 2, MPI_INT, peer, 41, MPI_COMM_WORLD, &req);
    MPI_Request_free(&req);
    CHECK(req == MPI_REQUEST_NULL);
  } else {
    MPI_Recv(r, 2, MPI_INT, peer, 41, MPI_COMM_WORLD, &st);
    printInts("freed isend data", r, 2);
    CHECK(r[0] == peer && r[1] == peer + 1);
  }
  MPI_Sendrecv(NULL, 0, MPI_INT, peer, 42, NULL, 0, MPI_INT, peer, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void sendrecvSteps(MPI_Datatype vec) {
  int a[40], b[40];
  MPI_Status st;
  for (int i = 0; i < 40; ++i) { a[i] = rank * 100 + i; b[i] = -1; }
  MPI_Sendrecv(a, 2, vec, peer, 50, b, 16, MPI_INT, peer, 50, MPI_COMM_WORLD, &st);
  printStatus("sendrecv status", &st, MPI_INT);
  printInts("sendrecv data", b, 16);
  CHECK(b[2] == peer * 100 + 5);
  MPI_Sendrecv_replace(a, 2, vec, peer, 51, peer, 51, MPI_COMM_WORLD, &st);
  printStatus("replace status", &st, vec);
  printInts("replace data", a, 40);
  CHECK(a[0] == peer * 100 && a[2] == rank * 100 + 2 && a[5] == peer * 100 + 5);
}

static void packSteps(MPI_Datatype vec) {
  int a[40];
  char p1[256], p2[256];
  for (int i = 0; i < 40; ++i) a[i] = rank * 7 + i;
  memset(p1, 0, sizeof p1);
  memset(p2, 0, sizeof p2);
  int pos1 = 4, pos2 = 4; /* not at the start */
  MPI_Pack(a, 2, vec, p1, sizeof p1, &pos1, MPI_COMM_WORLD);
  PMPI_Pack(a, 2, vec, p2, sizeof p2, &pos2, MPI_COMM_WORLD);
  int equal = pos1 == pos2 && !memcmp(p1, p2, sizeof p1);
  fprintf(out, "pack: position=%d equal_to_pmpi=%d\n", pos1, equal);
  CHECK(equal && pos1 == 4 + 64);
  int u1[40], u2[40];
  for (int i = 0; i < 40; ++i) u1[i] = u2[i] = -7;
  pos1 = pos2 = 4;
  MPI_Unpack(p1, sizeof p1, &pos1, u1, 2, vec, MPI_COMM_WORLD);
  PMPI_Unpack(p1, sizeof p1, &pos2, u2, 2, vec, MPI_COMM_WORLD);
  equal = pos1 == pos2 && !memcmp(u1, u2, sizeof u1);
  fprintf(out, "unpack: position=%d equal_to_pmpi=%d\n", pos1, equal);
  printInts("unpack data", u1, 40);
  CHECK(equal && u1[1] == a[1] && u1[2] == -7);
  int s1 = 0, s2 = 0;
  MPI_Pack_size(3, vec, MPI_COMM_WORLD, &s1);
  PMPI_Pack_size(3, vec, MPI_COMM_WORLD, &s2);
  fprintf(out, "pack_size: %d equal_to_pmpi=%d\n", s1, s1 == s2);
  CHECK(s1 == s2);
}

/* Commit/free/dup cycles: a handle reused after a free must describe the new type. */
static void typeCycles(void) {
  long checksum = 0;
  for (int i = 1; i <= 24; ++i) {
    MPI_Datatype t, d;
    MPI_Type_vector(i, 1 + i % 3, 2 + i % 3 + i % 5, MPI_INT, &t);
    MPI_Type_commit(&t);
    MPI_Type_dup(t, &d);
    int a[256], b[256], c[256];
    for (int k = 0; k < 256; ++k) { a[k] = k * 3 + i; b[k] = c[k] = -1; }
    MPI_Sendrecv(a, 1, t, rank, 60, b, 1, d, rank, 60, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int pos = 0;
    char packed[1024];
    PMPI_Pack(a, 1, t, packed, sizeof packed, &pos, MPI_COMM_WORLD);
    pos = 0;
    PMPI_Unpack(packed, sizeof packed, &pos, c, 1, t, MPI_COMM_WORLD);
    CHECK(!memcmp(b, c, sizeof b));
    for (int k = 0; k < 256; ++k) checksum += (long)b[k] * (k + 1);
    MPI_Type_free(&d);
    MPI_Type_free(&t);
    CHECK(t == MPI_DATATYPE_NULL);
  }
  fprintf(out, "type cycles checksum=%ld\n", checksum);
}

static void collectives(void) {
  /* Alltoallv: rank r sends (j + 1) ints to rank j. */
  int *scounts = malloc(size * sizeof(int)), *sdispls = malloc(size * sizeof(int));
  int *rcounts = malloc(size * sizeof(int)), *rdispls = malloc(size * sizeof(int));
  int sbuf[64], rbuf[64];
  for (int i = 0; i < 64; ++i) { sbuf[i] = rank * 100 + i; rbuf[i] = -1; }
  for (int j = 0, s = 0, r = 0; j < size; ++j) {
    scounts[j] = j + 1; sdispls[j] = s; s += j + 1;
    rcounts[j] = rank + 1; rdispls[j] = r; r += rank + 1;
  }
  MPI_Alltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
  printInts("alltoallv", rbuf, size * (rank + 1));
  CHECK(rbuf[0] == sdispls[rank]);
  /* Alltoallw: a strided column to every rank, received contiguously. */
  MPI_Datatype col, *stypes = malloc(size * sizeof(MPI_Datatype)), *rtypes = malloc(size * sizeof(MPI_Datatype));
  MPI_Type_vector(3, 1, 4, MPI_INT, &col);
  MPI_Type_commit(&col);
  for (int j = 0; j < size; ++j) {
    scounts[j] = 1; sdispls[j] = j * (int)sizeof(int); stypes[j] = col;
    rcounts[j] = 3; rdispls[j] = 3 * j * (int)sizeof(int); rtypes[j] = MPI_INT;
  }
  for (int i = 0; i < 64; ++i) rbuf[i] = -1;
  MPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, MPI_COMM_WORLD);
  printInts("alltoallw", rbuf, 3 * size);
  CHECK(rbuf[0] == rank && rbuf[1] == rank + 4);
  /* Neighbor collectives on a periodic ring. */
  MPI_Comm ring;
  int dims[1] = {size}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  /* Index 0 is the left neighbour, 1 the right: what I get from the left is what it sends to its
   right. Counts are equal (with 2 ranks both neighbours are one rank and messages pair in order). */
  int nsc[2] = {2, 2}, nsd[2] = {0, 4}, nrc[2] = {2, 2}, nrd[2] = {10, 20};
  for (int i = 0; i < 64; ++i) rbuf[i] = -1;
  MPI_Neighbor_alltoallv(sbuf, nsc, nsd, MPI_INT, rbuf, nrc, nrd, MPI_INT, ring);
  printInts("neighbor_alltoallv", rbuf, 24);
  CHECK(size == 2 || (rbuf[10] == ((rank - 1 + size) % size) * 100 + 4 &&
                      rbuf[20] == ((rank + 1) % size) * 100));
  MPI_Aint wsd[2] = {0, 8 * sizeof(int)}, wrd[2] = {0, 16 * sizeof(int)};
  int wsc[2] = {1, 1}, wrc[2] = {3, 3};
  MPI_Datatype wst[2] = {col, col}, wrt[2] = {MPI_INT, MPI_INT};
  for (int i = 0; i < 64; ++i) rbuf[i] = -1;
  MPI_Neighbor_alltoallw(sbuf, wsc, wsd, wst, rbuf, wrc, wrd, wrt, ring);
  printInts("neighbor_alltoallw", rbuf, 24);
  int left = (rank - 1 + size) % size;
  CHECK(rbuf[0] == left * 100 + 8 || size == 2);
  MPI_Comm_free(&ring);
  MPI_Type_free(&col);
  free(scounts); free(sdispls); free(rcounts); free(rdispls); free(stypes); free(rtypes);
}

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2 || size % 2) {
    if (rank == 0) fprintf(stderr, "usage: mpiexec -n <even> %s <output-dir>\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
  int plain = strstr(name, "-plain") != NULL;
  if (linkedWithTempi() == plain) {
    fprintf(stderr, "rank %d: %s is %slinked with libtempi\n", rank, name, plain ? "" : "not ");
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/rank%d.txt", argv[1], rank);
  out = fopen(path, "w");
  if (!out) { perror(path); MPI_Abort(MPI_COMM_WORLD, 4); }
  peer = rank ^ 1;

  MPI_Datatype vec;
  MPI_Type_vector(4, 2, 5, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  vectorSteps(vec);
  truncationStep();
  sendModes();
  nonblocking();
  persistent();
  cancelAndFree();
  sendrecvSteps(vec);
  packSteps(vec);
  typeCycles();
  collectives();
  MPI_Type_free(&vec);

  fprintf(out, "failures=%d\n", failures);
  fclose(out);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return total ? 1 : 0;
}
