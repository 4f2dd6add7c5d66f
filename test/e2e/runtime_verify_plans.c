/* runtime_verify_plans: TEMPI_VERIFY_PLANS=1 (runtime/src/host/VerifyPlans.h) catches a static
 * plan that does not describe its datatype, on host buffers and without a GPU.
 *
 *   runtime_verify_plans good        correct hand-made plans through every kind of entry point
 *                                    (pack, p2p, deferred, persistent, collectives, neighbour
 *                                    collectives, _c forms),
 *                                    types with negative strides and lb included: exits 0
 *   runtime_verify_plans bad-<what>  one wrong plan (see `cases` below) in one call: with the mode
 *                                    on the job must abort (exit code 70) with one line naming
 *                                    the plan and what differs; if the call returns, the program
 *                                    prints "bad plan not detected" and exits 0, which is what the
 *                                    mode off must give (verify_plans.cmake checks both)
 *
 * Plans are written as tempi-rewrite writes them (tempi_static_plan, positional). Run with any
 * number of ranks up to 16; every rank sends to itself. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tempi/tempi.h"

/* {abi, shape_key, start, bytes, ndims, counts, strides, extent, lb, size, word, text, slot} */
#define PLAN(start, bytes, nd, counts, strides, extent, lb, size, text)                           \
  {1, 0, start, bytes, nd, counts, strides, extent, lb, size, 4, text, 0}

/* vector(3, 2, 4, MPI_INT): runs of 8 bytes at 0, 16, 32; extent 40, size 24. */
static tempi_static_plan vecPlan =
    PLAN(0, 8, 1, {3}, {16}, 40, 0, 24, "strided(start=0, bytes=8, dims=[(3, 16)], extent=40, lb=0)");
/* hvector(3, 2 ints, -16 bytes): runs at 0, -16, -32 in type-map order; lb -32, extent 40. */
static tempi_static_plan negPlan = PLAN(0, 8, 1, {3}, {-16}, 40, -32, 24,
                                        "strided(start=0, bytes=8, dims=[(3, -16)], extent=40, "
                                        "lb=-32)");
/* resized(vector above, lb -8, extent 64). */
static tempi_static_plan resPlan = PLAN(0, 8, 1, {3}, {16}, 64, -8, 24,
                                        "strided(start=0, bytes=8, dims=[(3, 16)], extent=64, "
                                        "lb=-8)");
/* subarray {4, 6} doubles, subsizes {2, 3} at {1, 2}, C order: 2 runs of 24 bytes at 64, 112. */
static tempi_static_plan subPlan = PLAN(64, 24, 1, {2}, {48}, 192, 0, 48,
                                        "strided(start=64, bytes=24, dims=[(2, 48)], extent=192, "
                                        "lb=0)");
/* MPI_INT itself. */
static tempi_static_plan intPlan =
    PLAN(0, 4, 0, {0}, {0}, 4, 0, 4, "strided(start=0, bytes=4, dims=[], extent=4, lb=0)");

/* Wrong plans of the vector: right size, extent and lb, wrong bytes ... */
static tempi_static_plan reversedPlan = PLAN(32, 8, 1, {3}, {-16}, 40, 0, 24,
                                             "bad-order: runs of the vector reversed");
static tempi_static_plan stridePlan =
    PLAN(0, 8, 1, {3}, {12}, 40, 0, 24, "bad-stride: stride 12 instead of 16");
static tempi_static_plan outsidePlan =
    PLAN(8, 8, 1, {3}, {16}, 40, 0, 24, "bad-outside: first run 8 bytes late");
/* ... or wrong scalars. */
static tempi_static_plan sizePlan =
    PLAN(0, 8, 1, {3}, {16}, 40, 0, 28, "bad-size: size 28 instead of 24");
static tempi_static_plan lbPlan =
    PLAN(0, 8, 1, {3}, {16}, 64, 0, 24, "bad-lb: the resized type's plan with lb 0");

static int rank, nranks;
static MPI_Datatype vec, neg, res, sub;

static void makeTypes(void) {
  MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  MPI_Type_create_hvector(3, 2, -16, MPI_INT, &neg);
  MPI_Type_commit(&neg);
  MPI_Type_create_resized(vec, -8, 64, &res);
  MPI_Type_commit(&res);
  int sizes[2] = {4, 6}, subsizes[2] = {2, 3}, starts[2] = {1, 2};
  MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &sub);
  MPI_Type_commit(&sub);
}

static void freeTypes(void) {
  MPI_Type_free(&vec);
  MPI_Type_free(&neg);
  MPI_Type_free(&res);
  MPI_Type_free(&sub);
}

/* Room for one element per peer (up to 16 ranks) of every type above, and below MID for a
 * negative lb. */
#define BUF 8192
static char bufA[BUF], bufB[BUF];
#define MID(b) ((b) + 1024)

static void fill(void) {
  for (int i = 0; i < BUF; ++i) bufA[i] = (char)(i * 7 + rank), bufB[i] = 0;
}

static int packWith(MPI_Datatype t, const tempi_static_plan *p) {
  char packed[512];
  int pos = 0, sz = 0;
  if (tempi_Pack_size(2, t, MPI_COMM_WORLD, &sz, p) != MPI_SUCCESS) return 1;
  if (tempi_Pack(MID(bufA), 2, t, packed, (int)sizeof packed, &pos, MPI_COMM_WORLD, p) !=
      MPI_SUCCESS)
    return 1;
  int upos = 0;
  return tempi_Unpack(packed, pos, &upos, MID(bufB), 2, t, MPI_COMM_WORLD, p) != MPI_SUCCESS;
}

static int sendrecvWith(MPI_Datatype t, const tempi_static_plan *p) {
  return tempi_Sendrecv(MID(bufA), 2, t, rank, 5, MID(bufB), 2, t, rank, 5, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE, p, p) != MPI_SUCCESS;
}

static int alltoallwWith(MPI_Datatype t, const tempi_static_plan *p, int badPeer,
                         const tempi_static_plan *bad) {
  int *counts = calloc((size_t)nranks, sizeof(int)), *displs = calloc((size_t)nranks, sizeof(int));
  MPI_Datatype *types = calloc((size_t)nranks, sizeof(MPI_Datatype));
  const tempi_static_plan **plans = calloc((size_t)nranks, sizeof(*plans));
  for (int i = 0; i < nranks; ++i) {
    counts[i] = 1;
    displs[i] = 1024 + 256 * i; /* bytes: disjoint parts */
    types[i] = t;
    plans[i] = i == badPeer ? bad : p;
  }
  int rc = tempi_Alltoallw(bufA, counts, displs, types, bufB, counts, displs, types,
                           MPI_COMM_WORLD, plans, plans);
  free(counts), free(displs), free(types), free(plans);
  return rc != MPI_SUCCESS;
}

/* A ring (1-D periodic Cartesian topology): two neighbours, left and right; the receive plan of
 * the right one is `rightRecv`. */
static int neighborWith(MPI_Datatype t, const tempi_static_plan *p,
                        const tempi_static_plan *rightRecv) {
  MPI_Comm ring;
  int dims[1] = {nranks}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  int counts[2] = {1, 1};
  MPI_Aint displs[2] = {1024, 2048};
  MPI_Datatype types[2] = {t, t};
  const tempi_static_plan *sendplans[2] = {p, p}, *recvplans[2] = {p, rightRecv};
  int rc = tempi_Neighbor_alltoallw(bufA, counts, displs, types, bufB, counts, displs, types, ring,
                                    sendplans, recvplans);
  MPI_Comm_free(&ring);
  return rc != MPI_SUCCESS;
}

static int good(void) {
  int errors = 0;
  MPI_Datatype types[] = {vec, neg, res, sub, MPI_INT};
  tempi_static_plan *plans[] = {&vecPlan, &negPlan, &resPlan, &subPlan, &intPlan};
  for (int round = 0; round < 2; ++round) /* the second round meets verified pairs */
    for (int k = 0; k < 5; ++k) {
      MPI_Datatype t = types[k];
      const tempi_static_plan *p = plans[k];
      MPI_Request r[2];
      fill();
      errors += packWith(t, p);
      errors += sendrecvWith(t, p);
      errors += tempi_Sendrecv_replace(MID(bufA), 2, t, rank, 6, rank, 6, MPI_COMM_WORLD,
                                       MPI_STATUS_IGNORE, p) != MPI_SUCCESS;
      errors += tempi_Irecv(MID(bufB), 2, t, rank, 7, MPI_COMM_WORLD, &r[0], p) != MPI_SUCCESS;
      errors += tempi_Isend(MID(bufA), 2, t, rank, 7, MPI_COMM_WORLD, &r[1], p) != MPI_SUCCESS;
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
      errors += tempi_Isend_deferred(MID(bufA), 2, t, rank, 8, MPI_COMM_WORLD, &r[0], p) !=
                MPI_SUCCESS;
      errors += tempi_Recv(MID(bufB), 2, t, rank, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE, p) !=
                MPI_SUCCESS;
      MPI_Wait(&r[0], MPI_STATUS_IGNORE);
      errors += tempi_Recv_init(MID(bufB), 2, t, rank, 9, MPI_COMM_WORLD, &r[0], p) != MPI_SUCCESS;
      errors += tempi_Send_init(MID(bufA), 2, t, rank, 9, MPI_COMM_WORLD, &r[1], p) != MPI_SUCCESS;
      MPI_Startall(2, r);
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
      MPI_Request_free(&r[0]);
      MPI_Request_free(&r[1]);
      errors += alltoallwWith(t, p, -1, NULL);
      errors += neighborWith(t, p, p);
      int *counts = calloc((size_t)nranks, sizeof(int)), *displs = calloc((size_t)nranks, sizeof(int));
      for (int i = 0; i < nranks; ++i) counts[i] = 1, displs[i] = i; /* in extents */
      errors += tempi_Alltoallv(MID(bufA), counts, displs, t, MID(bufB), counts, displs, t,
                                MPI_COMM_WORLD, p, p) != MPI_SUCCESS;
      free(counts), free(displs);
#ifdef TEMPI_HAVE_LARGE_COUNT
      MPI_Count pos = 0;
      char packed[512];
      errors += tempi_Pack_c(MID(bufA), 2, t, packed, sizeof packed, &pos, MPI_COMM_WORLD, p) !=
                MPI_SUCCESS;
      errors += tempi_Sendrecv_c(MID(bufA), 2, t, rank, 10, MID(bufB), 2, t, rank, 10,
                                 MPI_COMM_WORLD, MPI_STATUS_IGNORE, p, p) != MPI_SUCCESS;
#endif
    }
  return errors;
}

/* A vector of its own (no other type holds it) verified, freed, and another type made, which
 * MPICH gives the freed handle: the verified pair must not let the plan pass for the new type. */
static int reuse(void) {
  MPI_Datatype t, old;
  MPI_Type_vector(3, 2, 4, MPI_INT, &t);
  MPI_Type_commit(&t);
  if (packWith(t, &vecPlan)) return 1;
  old = t;
  MPI_Type_free(&t);
  MPI_Type_vector(2, 3, 5, MPI_INT, &t); /* size 24, extent 32 */
  MPI_Type_commit(&t);
  fprintf(stderr, "rank %d: the new type %s the freed handle\n", rank,
          t == old ? "reuses" : "does not reuse");
  int errors = packWith(t, &vecPlan);
  MPI_Type_free(&t);
  return errors;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const char *what = argc > 1 ? argv[1] : "good";
  makeTypes();
  fill();
  int errors = 0;
  if (!strcmp(what, "good")) {
    errors = good();
  } else if (!strcmp(what, "bad-order")) {
    errors = packWith(vec, &reversedPlan);
  } else if (!strcmp(what, "bad-stride")) {
    errors = packWith(vec, &stridePlan);
  } else if (!strcmp(what, "bad-outside")) {
    errors = packWith(vec, &outsidePlan);
  } else if (!strcmp(what, "bad-size")) {
    errors = packWith(vec, &sizePlan);
  } else if (!strcmp(what, "bad-lb")) {
    errors = packWith(res, &lbPlan);
  } else if (!strcmp(what, "bad-sendrecv")) {
    errors = sendrecvWith(vec, &stridePlan);
  } else if (!strcmp(what, "bad-alltoallw")) {
    errors = alltoallwWith(vec, &vecPlan, nranks - 1, &reversedPlan);
  } else if (!strcmp(what, "bad-neighbor")) {
    errors = neighborWith(vec, &vecPlan, &lbPlan);
  } else if (!strcmp(what, "bad-reuse")) {
    errors = reuse();
  } else {
    fprintf(stderr, "runtime_verify_plans: unknown case %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  freeTypes();
  int total = 0;
  MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    if (strncmp(what, "bad", 3) == 0) printf("runtime_verify_plans: %s: bad plan not detected\n", what);
    printf("runtime_verify_plans: %s: %d call(s) failed\n", what, total);
  }
  MPI_Finalize();
  return total ? 1 : 0;
}
