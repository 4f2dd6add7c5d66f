/* runtime_large_count_host: every MPI-4 large-count (_c) call libtempi interposes, on host
 * buffers, must behave exactly as the plain MPI's.
 *
 * Built twice (run_compare.sh): plain, and with libtempi (or the fake-device libtempi, where the
 * runtime is active) first on the link line. Every rank writes what it observed (received data,
 * MPI_Get_count_c / MPI_Get_elements_c, source, tag, error classes, packed bytes and positions)
 * to <dir>/rank<r>.txt; both builds must write identical transcripts. Each step also checks its
 * own expected values, so a wrong answer shared by both builds still fails. Run with an even
 * number of ranks (pairs r, r^1).
 *
 *   runtime_large_count_host <output-dir>
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

static MPI_Count countOf(const MPI_Status *st, MPI_Datatype t) {
  MPI_Count c = -2;
  MPI_Get_count_c(st, t, &c);
  return c;
}

static void printStatus(const char *what, const MPI_Status *st, MPI_Datatype t) {
  MPI_Count elements = -2;
  MPI_Get_elements_c(st, t, &elements);
  fprintf(out, "%s: source=%d tag=%d count=%lld elements=%lld\n", what, st->MPI_SOURCE,
          st->MPI_TAG, (long long)countOf(st, t), (long long)elements);
}

/* The libtempi builds must really interpose the _c calls. */
static int linkedWithTempi(void) {
  Dl_info info;
  if (!dladdr((void *)&MPI_Send_c, &info) || !info.dli_fname) return 0;
  return strstr(info.dli_fname, "libtempi") != NULL;
}

/* `vec` is vector(4, 2, 5, MPI_INT): 8 ints of a 17-int extent; 2 elements span 37 ints. */
static void blockingModes(MPI_Datatype vec) {
  int src[40], dst[40];
  MPI_Status st;
  for (int i = 0; i < 40; ++i) src[i] = 100 * rank + i;
  /* Send_c (typed) -> Recv_c (contiguous), then back the other way into the typed layout. */
  if (rank < peer) {
    MPI_Send_c(src, 2, vec, peer, 1, MPI_COMM_WORLD);
    for (int i = 0; i < 40; ++i) dst[i] = -1;
    MPI_Recv_c(dst, 2, vec, peer, 2, MPI_COMM_WORLD, &st);
    printStatus("ints->vector status", &st, vec);
    printInts("ints->vector data", dst, 40);
    CHECK(countOf(&st, vec) == 2 && dst[0] == 100 * peer && dst[2] == -1 &&
          dst[5] == 100 * peer + 2 && dst[17] == 100 * peer + 8);
  } else {
    for (int i = 0; i < 40; ++i) dst[i] = -1;
    MPI_Recv_c(dst, 16, MPI_INT, peer, 1, MPI_COMM_WORLD, &st);
    printStatus("vector->ints status", &st, MPI_INT);
    printInts("vector->ints data", dst, 16);
    CHECK(countOf(&st, MPI_INT) == 16 && dst[0] == 100 * peer && dst[2] == 100 * peer + 5 &&
          dst[8] == 100 * peer + 17);
    MPI_Send_c(src, 16, MPI_INT, peer, 2, MPI_COMM_WORLD);
  }
  /* Ssend_c */
  if (rank < peer) {
    MPI_Ssend_c(src, 2, vec, peer, 3, MPI_COMM_WORLD);
  } else {
    for (int i = 0; i < 40; ++i) dst[i] = -1;
    MPI_Recv_c(dst, 2, vec, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    printStatus("ssend status", &st, vec);
    printInts("ssend data", dst, 40);
    CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == 3 && dst[1] == 100 * peer + 1 && dst[2] == -1);
  }
  /* Rsend_c: the receive is posted before the ready send (a zero-byte handshake orders them). */
  if (rank < peer) {
    MPI_Recv_c(NULL, 0, MPI_BYTE, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Rsend_c(src, 3, MPI_INT, peer, 5, MPI_COMM_WORLD);
  } else {
    MPI_Request r;
    for (int i = 0; i < 40; ++i) dst[i] = -1;
    MPI_Irecv_c(dst, 3, MPI_INT, peer, 5, MPI_COMM_WORLD, &r);
    MPI_Send_c(NULL, 0, MPI_BYTE, peer, 4, MPI_COMM_WORLD);
    MPI_Wait(&r, &st);
    printStatus("rsend status", &st, MPI_INT);
    printInts("rsend data", dst, 4);
    CHECK(countOf(&st, MPI_INT) == 3 && dst[2] == 100 * peer + 2 && dst[3] == -1);
  }
  /* Bsend_c */
  int bsize = 0;
  MPI_Pack_size(2, vec, MPI_COMM_WORLD, &bsize);
  bsize += MPI_BSEND_OVERHEAD;
  char *bbuf = malloc(bsize);
  MPI_Buffer_attach(bbuf, bsize);
  if (rank < peer) {
    MPI_Bsend_c(src, 2, vec, peer, 6, MPI_COMM_WORLD);
  } else {
    for (int i = 0; i < 40; ++i) dst[i] = -1;
    MPI_Recv_c(dst, 16, MPI_INT, peer, 6, MPI_COMM_WORLD, &st);
    printStatus("bsend status", &st, MPI_INT);
    printInts("bsend data", dst, 16);
    CHECK(countOf(&st, MPI_INT) == 16 && dst[15] == 100 * peer + 33);
  }
  MPI_Buffer_detach(&bbuf, &bsize);
  free(bbuf);
}

/* A short message ending inside an element, and a truncated receive. */
static void shortAndTruncated(MPI_Datatype vec) {
  int src[40], dst[40];
  MPI_Status st;
  for (int i = 0; i < 40; ++i) src[i] = 7 * rank + i;
  if (rank < peer) {
    MPI_Send_c(src, 5, MPI_INT, peer, 10, MPI_COMM_WORLD);
  } else {
    for (int i = 0; i < 40; ++i) dst[i] = -1;
    MPI_Recv_c(dst, 2, vec, peer, 10, MPI_COMM_WORLD, &st);
    printStatus("short status", &st, vec);
    printInts("short data", dst, 40);
    MPI_Count elements = -1;
    MPI_Get_elements_c(&st, vec, &elements);
    CHECK(countOf(&st, vec) == MPI_UNDEFINED && elements == 5);
  }
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  if (rank < peer) {
    MPI_Send_c(src, 10, MPI_INT, peer, 11, comm);
  } else {
    memset(dst, 0, sizeof dst);
    int rc = MPI_Recv_c(dst, 5, MPI_INT, peer, 11, comm, &st), cls = -1;
    MPI_Error_class(rc, &cls);
    fprintf(out, "truncate: is_truncate=%d\n", cls == MPI_ERR_TRUNCATE);
    CHECK(cls == MPI_ERR_TRUNCATE);
  }
  MPI_Comm_free(&comm);
}

static void nonblocking(MPI_Datatype vec) {
  int src[40], a[40], b[40];
  for (int i = 0; i < 40; ++i) src[i] = 1000 * rank + i;
  for (int i = 0; i < 40; ++i) a[i] = b[i] = -1;
  MPI_Request r[4];
  MPI_Status st[4];
  MPI_Irecv_c(a, 2, vec, peer, 20, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv_c(b, 16, MPI_INT, peer, 21, MPI_COMM_WORLD, &r[1]);
  MPI_Isend_c(src, 16, MPI_INT, peer, 20, MPI_COMM_WORLD, &r[2]);
  MPI_Issend_c(src, 2, vec, peer, 21, MPI_COMM_WORLD, &r[3]);
  MPI_Waitall(4, r, st);
  printStatus("irecv vector status", &st[0], vec);
  printStatus("irecv ints status", &st[1], MPI_INT);
  printInts("irecv vector data", a, 40);
  printInts("irecv ints data", b, 16);
  CHECK(countOf(&st[0], vec) == 2 && a[5] == 1000 * peer + 2 && a[2] == -1);
  CHECK(countOf(&st[1], MPI_INT) == 16 && b[2] == 1000 * peer + 5);
}

static void persistent(MPI_Datatype vec) {
  int src[40], dst[40];
  MPI_Request r[2];
  MPI_Send_init_c(src, 2, vec, peer, 30, MPI_COMM_WORLD, &r[0]);
  MPI_Recv_init_c(dst, 2, vec, peer, 30, MPI_COMM_WORLD, &r[1]);
  for (int it = 0; it < 3; ++it) {
    for (int i = 0; i < 40; ++i) src[i] = 10000 * it + 100 * rank + i;
    for (int i = 0; i < 40; ++i) dst[i] = -it;
    MPI_Status st[2];
    MPI_Startall(2, r);
    MPI_Waitall(2, r, st);
    char what[64];
    snprintf(what, sizeof what, "persistent %d", it);
    printStatus(what, &st[1], vec);
    printInts(what, dst, 40);
    CHECK(dst[18] == 10000 * it + 100 * peer + 18 && dst[2] == -it && r[0] != MPI_REQUEST_NULL);
  }
  MPI_Request_free(&r[0]);
  MPI_Request_free(&r[1]);
}

static void sendrecv(MPI_Datatype vec) {
  int src[40], dst[40];
  MPI_Status st;
  for (int i = 0; i < 40; ++i) src[i] = 50 * rank + i, dst[i] = -1;
  MPI_Sendrecv_c(src, 2, vec, peer, 40, dst, 16, MPI_INT, peer, 40, MPI_COMM_WORLD, &st);
  printStatus("sendrecv status", &st, MPI_INT);
  printInts("sendrecv data", dst, 17);
  CHECK(countOf(&st, MPI_INT) == 16 && dst[15] == 50 * peer + 33 && dst[16] == -1);
  for (int i = 0; i < 40; ++i) src[i] = 60 * rank + i;
  MPI_Sendrecv_replace_c(src, 2, vec, peer, 41, peer, 41, MPI_COMM_WORLD, &st);
  printStatus("replace status", &st, vec);
  printInts("replace data", src, 40);
  CHECK(src[0] == 60 * peer && src[2] == 60 * rank + 2 && src[17] == 60 * peer + 17);
}

static void packSteps(MPI_Datatype vec) {
  int src[40], back[40];
  for (int i = 0; i < 40; ++i) src[i] = 3 * i + rank, back[i] = -1;
  MPI_Count psize = -1;
  MPI_Pack_size_c(2, vec, MPI_COMM_WORLD, &psize);
  fprintf(out, "pack_size_c: %lld\n", (long long)psize);
  CHECK(psize >= 2 * 8 * (MPI_Count)sizeof(int));
  unsigned char packed[256];
  memset(packed, 0, sizeof packed);
  MPI_Count pos = 4;
  int rc = MPI_Pack_c(src, 2, vec, packed, sizeof packed, &pos, MPI_COMM_WORLD);
  fprintf(out, "pack_c: rc=%d position=%lld\n", rc, (long long)pos);
  fprintf(out, "packed:");
  for (MPI_Count i = 0; i < pos; ++i) fprintf(out, " %02x", packed[i]);
  fprintf(out, "\n");
  int ref[16];
  int rpos = 0;
  PMPI_Pack(src, 2, vec, ref, sizeof ref, &rpos, MPI_COMM_WORLD);
  CHECK(rc == MPI_SUCCESS && pos == 4 + 64 && !memcmp(packed + 4, ref, 64));
  MPI_Count upos = 4;
  rc = MPI_Unpack_c(packed, pos, &upos, back, 2, vec, MPI_COMM_WORLD);
  fprintf(out, "unpack_c: rc=%d position=%lld\n", rc, (long long)upos);
  printInts("unpacked", back, 40);
  CHECK(rc == MPI_SUCCESS && upos == pos && back[6] == src[6] && back[2] == -1);
}

static void collectives(MPI_Datatype vec) {
  /* Alltoallv_c: 1 vector element to each rank; displacements in extents. */
  int *s = malloc(size * 17 * 2 * sizeof(int)), *r = malloc(size * 17 * 2 * sizeof(int));
  MPI_Count *cnt = malloc(size * sizeof(MPI_Count));
  MPI_Aint *dsp = malloc(size * sizeof(MPI_Aint)), *bdsp = malloc(size * sizeof(MPI_Aint));
  MPI_Datatype *ty = malloc(size * sizeof(MPI_Datatype));
  MPI_Aint lb, extent;
  MPI_Type_get_extent(vec, &lb, &extent);
  for (int j = 0; j < size; ++j) cnt[j] = 1, dsp[j] = j, bdsp[j] = j * extent, ty[j] = vec;
  for (int i = 0; i < size * 34; ++i) s[i] = 1000 * rank + i, r[i] = -1;
  MPI_Alltoallv_c(s, cnt, dsp, vec, r, cnt, dsp, vec, MPI_COMM_WORLD);
  printInts("alltoallv_c", r, size * 17);
  for (int j = 0; j < size; ++j)
    CHECK(r[17 * j + 1] == 1000 * j + 17 * rank + 1 && r[17 * j + 2] == -1);
  for (int i = 0; i < size * 34; ++i) r[i] = -2;
  MPI_Alltoallw_c(s, cnt, bdsp, ty, r, cnt, bdsp, ty, MPI_COMM_WORLD);
  printInts("alltoallw_c", r, size * 17);
  for (int j = 0; j < size; ++j)
    CHECK(r[17 * j + 5] == 1000 * j + 17 * rank + 5 && r[17 * j + 4] == -2);
  /* Neighbour forms on a periodic ring. */
  MPI_Comm ring;
  int dims[1] = {size}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  MPI_Count nc[2] = {1, 1};
  MPI_Aint nd[2] = {0, 1}, nbd[2] = {0, extent};
  MPI_Datatype nt[2] = {vec, vec};
  for (int i = 0; i < size * 34; ++i) r[i] = -3;
  MPI_Neighbor_alltoallv_c(s, nc, nd, vec, r, nc, nd, vec, ring);
  printInts("neighbor_alltoallv_c", r, 34);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  /* Receive slot 0 from the left neighbour's slot 1 (its send to the right), slot 1 from the
   * right neighbour's slot 0. With 2 ranks both neighbours are the peer and which message lands
   * in which slot is the MPI's matching order: only the transcript comparison checks that. */
  const int ring3 = size > 2;
  CHECK(!ring3 || (r[0] == 1000 * left + 17 && r[17] == 1000 * right + 0));
  for (int i = 0; i < size * 34; ++i) r[i] = -4;
  MPI_Neighbor_alltoallw_c(s, nc, nbd, nt, r, nc, nbd, nt, ring);
  printInts("neighbor_alltoallw_c", r, 34);
  CHECK(r[2] == -4 && (!ring3 || (r[1] == 1000 * left + 18 && r[18] == 1000 * right + 1)));
  MPI_Comm_free(&ring);
  free(s); free(r); free(cnt); free(dsp); free(bdsp); free(ty);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
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
  blockingModes(vec);
  shortAndTruncated(vec);
  nonblocking(vec);
  persistent(vec);
  sendrecv(vec);
  packSteps(vec);
  collectives(vec);
  MPI_Type_free(&vec);

  fprintf(out, "failures=%d\n", failures);
  fclose(out);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return total ? 1 : 0;
}
