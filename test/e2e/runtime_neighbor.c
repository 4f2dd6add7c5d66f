/* runtime_neighbor: MPI_Neighbor_alltoallw and _alltoallv of device buffers; with the IPC method on
 * libtempi sends each neighbour's part as a point-to-point message (runtime/src/host/NeighborP2P.h),
 * on the fake device layer (its ipc slabs are shared files). Every result is compared, byte for
 * byte over the whole receive buffer (gaps included), with the MPI's own collective
 * (PMPI_Neighbor_alltoallw/v) on host copies of the same data.
 *
 *   - a distributed graph with repeated edges and a self edge, its sources listed in another
 *     order than the destinations (the k-th message from a process lands in the k-th block from
 *     it), with a different layout per block (vector, indexed with holes, contiguous; one
 *     signature), and once with every count 0;
 *   - Cartesian rings: periodic (by point-to-point from 3 ranks on; with 1 or 2 ranks one process
 *     is both neighbours and the MPI's collective is used), and not periodic (MPI_PROC_NULL ends);
 *   - MPI_Neighbor_alltoallv, and MPI_Neighbor_alltoallw_c where the MPI has MPI-4;
 *   - ranks that disagree on where their buffers are (even ranks host, odd ranks device): all must
 *     still take one path, or the job hangs;
 *   - each exchange twice (the private communicator is reused), then the communicator freed;
 *   - with ipc, the device parts did travel by ipc: this process made a slab (and none without).
 *
 *   runtime_neighbor   (any number of ranks; ctest runtime_neighbor_ipc-npN sets
 *                       TEMPI_METHOD=ipc TEMPI_IPC_MIN_BYTES=128)
 * Without TEMPI_METHOD=ipc the same exchanges take the staged path (InterposeCollectives.cpp:
 * one packed MPI collective), checked the same way; a receive block whose neighbour is
 * MPI_PROC_NULL must stay as it was (a bug there until 2026-11-26: its staging was unpacked).
 */
#include "runtime_fake_device.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_check.h"

static int size;

enum { NBLOCKS = 5, BLOCK_BYTES = 4096 };

/* One side of an exchange: NBLOCKS regions of BLOCK_BYTES each, in host memory and a device twin. */
typedef struct {
  unsigned char *host, *dev;
} Side;

static Side makeSide(int nblocks, int seed) {
  Side s;
  size_t bytes = (size_t)(nblocks > 0 ? nblocks : 1) * BLOCK_BYTES;
  s.host = malloc(bytes);
  s.dev = fake_device_alloc(bytes);
  for (size_t i = 0; i < bytes; ++i) s.host[i] = (unsigned char)(i * 13 + (size_t)seed * 101 + 7);
  fake_device_memcpy(s.dev, s.host, bytes);
  return s;
}
static void freeSide(Side *s) {
  free(s->host);
  fake_device_free(s->dev);
}
/* 1 when the device twin equals `ref` over nblocks blocks. */
static int sameAs(const Side *s, const Side *ref, int nblocks) {
  size_t bytes = (size_t)(nblocks > 0 ? nblocks : 1) * BLOCK_BYTES;
  unsigned char *tmp = malloc(bytes);
  fake_device_memcpy(tmp, s->dev, bytes);
  int eq = !memcmp(tmp, ref->host, bytes);
  free(tmp);
  return eq;
}

/* Three layouts of the same signature (48 ints per element), so that any block may receive any
 * block's message (with repeated edges, which block a message lands in is what is tested). */
static MPI_Datatype vec, idx, contig;

static void makeTypes(void) {
  MPI_Type_vector(16, 3, 5, MPI_INT, &vec); /* 192 of 312 bytes */
  MPI_Type_commit(&vec);
  int bl[4] = {20, 1, 3, 24}, disp[4] = {3, 30, 26, 40}; /* out of order, with holes */
  MPI_Datatype t;
  MPI_Type_indexed(4, bl, disp, MPI_INT, &t);
  MPI_Type_create_resized(t, 0, 256, &idx);
  MPI_Type_commit(&idx);
  MPI_Type_free(&t);
  MPI_Type_contiguous(48, MPI_INT, &contig);
  MPI_Type_commit(&contig);
}

/* Block i's type. Every block holds 4 elements: a collective's messages must be exactly as
 * long as their receives. */
static MPI_Datatype typeOf(int i) {
  MPI_Datatype t[NBLOCKS] = {vec, idx, contig, vec, idx};
  return t[i % NBLOCKS];
}
enum { COUNT = 4 };

/* The exchange on `comm` (in/out neighbours), w or v form, with the device twin on this rank
 * when `dev` (and every count 0 when `zero`), compared with the MPI's own on host memory. */
static void exchange(MPI_Comm comm, int in, int out, int useV, int dev, int zero,
                     const char *what) {
  MPI_Aint lb, ext;
  MPI_Type_get_extent(vec, &lb, &ext);
  const int perBlock = (int)(BLOCK_BYTES / ext); /* v: displacements count extents of vec */
  for (int round = 0; round < 2; ++round) {
    Side s = makeSide(out, rank + round), r = makeSide(in, 50 + rank), ref = makeSide(in, 50 + rank);
    int *sc = malloc(sizeof(int) * (size_t)(out + 1)), *rc = malloc(sizeof(int) * (size_t)(in + 1));
    MPI_Aint *sd = malloc(sizeof(MPI_Aint) * (size_t)(out + 1));
    MPI_Aint *rd = malloc(sizeof(MPI_Aint) * (size_t)(in + 1));
    int *sdi = malloc(sizeof(int) * (size_t)(out + 1)), *rdi = malloc(sizeof(int) * (size_t)(in + 1));
    MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * (size_t)(out + 1));
    MPI_Datatype *rt = malloc(sizeof(MPI_Datatype) * (size_t)(in + 1));
    for (int i = 0; i < out; ++i) {
      st[i] = useV ? vec : typeOf(i);
      sc[i] = zero ? 0 : COUNT;
      sd[i] = (MPI_Aint)i * BLOCK_BYTES;
      sdi[i] = i * perBlock;
    }
    for (int j = 0; j < in; ++j) {
      rt[j] = useV ? vec : typeOf(j);
      rc[j] = zero ? 0 : COUNT;
      rd[j] = (MPI_Aint)j * BLOCK_BYTES;
      rdi[j] = j * perBlock;
    }
    void *sb = dev ? (void *)s.dev : (void *)s.host, *rb = dev ? (void *)r.dev : (void *)r.host;
    int err, referr;
    if (useV) {
      err = MPI_Neighbor_alltoallv(sb, sc, sdi, vec, rb, rc, rdi, vec, comm);
      referr = PMPI_Neighbor_alltoallv(s.host, sc, sdi, vec, ref.host, rc, rdi, vec, comm);
    } else {
      err = MPI_Neighbor_alltoallw(sb, sc, sd, st, rb, rc, rd, rt, comm);
      referr = PMPI_Neighbor_alltoallw(s.host, sc, sd, st, ref.host, rc, rd, rt, comm);
    }
    CHECK(err == MPI_SUCCESS && referr == MPI_SUCCESS, "%s: rc %d, reference %d", what, err, referr);
    if (dev) {
      CHECK(sameAs(&r, &ref, in), "%s (round %d): device result differs from the MPI's", what, round);
    } else {
      CHECK(!memcmp(r.host, ref.host, (size_t)(in > 0 ? in : 1) * BLOCK_BYTES),
            "%s (round %d): host result differs from the MPI's", what, round);
    }
    free(sc); free(rc); free(sd); free(rd); free(sdi); free(rdi); free(st); free(rt);
    freeSide(&s); freeSide(&r); freeSide(&ref);
  }
}

#if MPI_VERSION >= 4
static void exchangeC(MPI_Comm comm, int in, int out) {
  Side s = makeSide(out, rank + 9), r = makeSide(in, 60 + rank), ref = makeSide(in, 60 + rank);
  MPI_Count sc[NBLOCKS + 1], rc[NBLOCKS + 1];
  MPI_Aint sd[NBLOCKS + 1], rd[NBLOCKS + 1];
  MPI_Datatype st[NBLOCKS + 1], rt[NBLOCKS + 1];
  for (int i = 0; i < out; ++i) {
    st[i] = typeOf(i);
    sc[i] = COUNT;
    sd[i] = (MPI_Aint)i * BLOCK_BYTES;
  }
  for (int j = 0; j < in; ++j) {
    rt[j] = typeOf(j);
    rc[j] = COUNT;
    rd[j] = (MPI_Aint)j * BLOCK_BYTES;
  }
  int err = MPI_Neighbor_alltoallw_c(s.dev, sc, sd, st, r.dev, rc, rd, rt, comm);
  int referr = PMPI_Neighbor_alltoallw_c(s.host, sc, sd, st, ref.host, rc, rd, rt, comm);
  CHECK(err == MPI_SUCCESS && referr == MPI_SUCCESS, "alltoallw_c: rc %d, reference %d", err,
        referr);
  CHECK(sameAs(&r, &ref, in), "alltoallw_c: device result differs from the MPI's");
  freeSide(&s); freeSide(&r); freeSide(&ref);
}
#endif

static int mod(int a) { return ((a % size) + size) % size; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  fake_device_select(rank);
  makeTypes();

  /* Distributed graph: to r+k for k in {1, -1, 0, 1, 2}, from r-k with the ks in another order,
   * so r+1 is a destination twice (and r-1 a source twice), r itself once. */
  int ks[NBLOCKS] = {1, -1, 0, 1, 2}, kr[NBLOCKS] = {2, 1, 0, -1, 1};
  int dests[NBLOCKS], srcs[NBLOCKS];
  for (int i = 0; i < NBLOCKS; ++i) {
    dests[i] = mod(rank + ks[i]);
    srcs[i] = mod(rank - kr[i]);
  }
  MPI_Comm graph;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, NBLOCKS, srcs, MPI_UNWEIGHTED, NBLOCKS, dests,
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph);
  exchange(graph, NBLOCKS, NBLOCKS, 0, 1, 0, "dist graph, w, device");
  exchange(graph, NBLOCKS, NBLOCKS, 0, 1, 1, "dist graph, w, device, zero counts");
  exchange(graph, NBLOCKS, NBLOCKS, 1, 1, 0, "dist graph, v, device");
  exchange(graph, NBLOCKS, NBLOCKS, 0, rank % 2, 0, "dist graph, w, device on odd ranks");
  exchange(graph, NBLOCKS, NBLOCKS, 0, 0, 0, "dist graph, w, host");
#if MPI_VERSION >= 4
  exchangeC(graph, NBLOCKS, NBLOCKS);
#endif
  MPI_Comm_free(&graph);

  /* Cartesian rings, periodic and not. */
  for (int periodic = 0; periodic < 2; ++periodic) {
    int dims[1] = {size}, periods[1] = {periodic};
    MPI_Comm ring;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    char what[64];
    snprintf(what, sizeof what, "ring periodic=%d, w, device", periodic);
    exchange(ring, 2, 2, 0, 1, 0, what);
    snprintf(what, sizeof what, "ring periodic=%d, v, device on odd ranks", periodic);
    exchange(ring, 2, 2, 1, rank % 2, 0, what);
    MPI_Comm_free(&ring);
  }

  /* With ipc, every rank sent device parts of more than TEMPI_IPC_MIN_BYTES to another rank;
   * without, the MPI's collective moved staged bytes and no slab exists. */
  const char *method = getenv("TEMPI_METHOD");
  const int ipc = method && !strcmp(method, "ipc");
  const long slabs = fake_device_ipc_slabs(); /* -1: not observable (real CUDA) */
  if (slabs >= 0 && size > 1 && ipc) CHECK(slabs > 0, "no ipc slab was made: not sent by ipc");
  if (slabs >= 0 && !ipc) CHECK(slabs == 0, "an ipc slab was made without TEMPI_METHOD=ipc");
  MPI_Type_free(&vec);
  MPI_Type_free(&idx);
  MPI_Type_free(&contig);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("runtime_neighbor: %d ranks, %d failures\n", size, total);
  MPI_Finalize();
  return total ? 1 : 0;
}
