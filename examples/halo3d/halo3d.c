/// \file
/// 3-D stencil halo exchange (Astaroth-like): 8 quantities of double, radius 3, periodic, 26
/// neighbours, on host or device (--device: pitched cudaMalloc3D) buffers. A plain MPI program:
/// TEMPI enters only through tempi-cc or by linking libtempi.
///
///   mpiexec -n 4 halo3d [X [Y [Z]]] [--iters N] [--warmup N] [--device] [--variant V]
///
/// Variants: isend (one Isend/Irecv per face and quantity: 416 requests per exchange, face types
/// from MPI_Type_create_subarray with sizes from the command line), alltoallw (one
/// MPI_Neighbor_alltoallw on a graph communicator, 4-D subarrays covering all quantities), and in
/// the compile-time grid build (-DHALO_N=64, halo3d_fixed.c) isend-fixed and alltoallw-fixed, whose
/// types come from constants. Every exchange is checked cell by cell (halo.h); prints one
/// key=value line per variant with the median exchange time; exits 1 on any wrong cell or bad
/// argument.
#include "halo.h"

#include "../common/ex_util.h"

#ifdef HALO_N
#include "halo3d_fixed.h"
#endif

/// One Isend/Irecv per face and quantity. Types built once from the grid's run-time sizes.
static long run_isend(struct halo *h, int iters, int warmup, double *times) {
  MPI_Datatype send[HALO_NDIRS], recv[HALO_NDIRS];
  int sizes[3] = {h->n[2] + 2 * HALO_R, h->n[1] + 2 * HALO_R, h->px};
  for (int i = 0; i < HALO_NDIRS; ++i) {
    int sub[3], start[3];
    halo_send_region(h, i, sub, start);
    EX_MPI(MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &send[i]));
    EX_MPI(MPI_Type_commit(&send[i]));
    halo_recv_region(h, i, sub, start);
    EX_MPI(MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &recv[i]));
    EX_MPI(MPI_Type_commit(&recv[i]));
  }
  MPI_Request req[2 * HALO_NDIRS * HALO_Q];
  long wrong = 0;
  for (int it = -warmup; it < iters; ++it) {
    halo_prepare(h, it + warmup);
    double t0 = halo_clock_start(h);
    int nreq = 0;
    for (int i = 0; i < HALO_NDIRS; ++i) {
      // My halo on side dir[i] comes from the neighbour at +dir[i], which sent toward -dir[i].
      int from = halo_dir_index(-h->dir[i][0], -h->dir[i][1], -h->dir[i][2]);
      for (int q = 0; q < HALO_Q; ++q)
        EX_MPI(MPI_Irecv(h->base + q * h->slab, 1, recv[i], h->nbr[i], from * HALO_Q + q, h->cart,
                         &req[nreq++]));
    }
    for (int i = 0; i < HALO_NDIRS; ++i)
      for (int q = 0; q < HALO_Q; ++q)
        EX_MPI(MPI_Isend(h->base + q * h->slab, 1, send[i], h->nbr[i], i * HALO_Q + q, h->cart,
                         &req[nreq++]));
    EX_MPI(MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
    double dt = halo_clock_stop(h, t0);
    wrong += halo_check(h, it + warmup, "isend");
    if (it >= 0) times[it] = dt;
  }
  for (int i = 0; i < HALO_NDIRS; ++i) {
    MPI_Type_free(&send[i]);
    MPI_Type_free(&recv[i]);
  }
  return wrong;
}

/// One MPI_Neighbor_alltoallw per exchange on a graph communicator whose i-th destination is the
/// neighbour at +dir[i] and i-th source the one at -dir[i] (so duplicate neighbours on small
/// process grids still match in order).
static long run_alltoallw(struct halo *h, int iters, int warmup, double *times) {
  int srcs[HALO_NDIRS], dsts[HALO_NDIRS];
  MPI_Datatype send[HALO_NDIRS], recv[HALO_NDIRS];
  int sizes[4] = {HALO_Q, h->n[2] + 2 * HALO_R, h->n[1] + 2 * HALO_R, h->px};
  int counts[HALO_NDIRS];
  MPI_Aint displs[HALO_NDIRS];
  for (int i = 0; i < HALO_NDIRS; ++i) {
    int opp = halo_dir_index(-h->dir[i][0], -h->dir[i][1], -h->dir[i][2]);
    dsts[i] = h->nbr[i];
    srcs[i] = h->nbr[opp];
    int sub[4] = {HALO_Q}, start[4] = {0};
    halo_send_region(h, i, sub + 1, start + 1);
    EX_MPI(MPI_Type_create_subarray(4, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &send[i]));
    EX_MPI(MPI_Type_commit(&send[i]));
    halo_recv_region(h, opp, sub + 1, start + 1); // halo on side -dir[i]
    EX_MPI(MPI_Type_create_subarray(4, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &recv[i]));
    EX_MPI(MPI_Type_commit(&recv[i]));
    counts[i] = 1;
    displs[i] = 0;
  }
  MPI_Comm graph;
  EX_MPI(MPI_Dist_graph_create_adjacent(h->cart, HALO_NDIRS, srcs, MPI_UNWEIGHTED, HALO_NDIRS,
                                        dsts, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph));
  long wrong = 0;
  for (int it = -warmup; it < iters; ++it) {
    halo_prepare(h, it + warmup);
    double t0 = halo_clock_start(h);
    EX_MPI(MPI_Neighbor_alltoallw(h->base, counts, displs, send, h->base, counts, displs, recv,
                                  graph));
    double dt = halo_clock_stop(h, t0);
    wrong += halo_check(h, it + warmup, "alltoallw");
    if (it >= 0) times[it] = dt;
  }
  MPI_Comm_free(&graph);
  for (int i = 0; i < HALO_NDIRS; ++i) {
    MPI_Type_free(&send[i]);
    MPI_Type_free(&recv[i]);
  }
  return wrong;
}

static void usage(void) {
  fprintf(stderr,
          "usage: halo3d [X [Y [Z]]] [--iters N] [--warmup N] [--device] "
          "[--variant isend|alltoallw"
#ifdef HALO_N
          "|isend-fixed|alltoallw-fixed"
#endif
          "|all]\n");
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#ifdef HALO_N
  int n[3] = {HALO_N, HALO_N, HALO_N};
#else
  int n[3] = {128, 128, 128};
#endif
  int iters = 10, warmup = 2, device = 0, npos = 0, bad = 0;
  const char *variant = "all";
  for (int a = 1; a < argc && !bad; ++a) {
    char *end = NULL;
    if (!strcmp(argv[a], "--iters") && a + 1 < argc) {
      iters = (int)strtol(argv[++a], &end, 10);
      bad = *end || iters < 1;
    } else if (!strcmp(argv[a], "--warmup") && a + 1 < argc) {
      warmup = (int)strtol(argv[++a], &end, 10);
      bad = *end || warmup < 0;
    } else if (!strcmp(argv[a], "--device")) {
      device = 1;
    } else if (!strcmp(argv[a], "--variant") && a + 1 < argc) {
      variant = argv[++a];
    } else if (argv[a][0] != '-' && npos < 3) {
      long v = strtol(argv[a], &end, 10);
      bad = *end || v < HALO_R || v > 4096;
#ifdef HALO_N
      if (v != HALO_N) {
        if (rank == 0) fprintf(stderr, "halo3d: this build has a fixed %d^3 grid\n", HALO_N);
        bad = 1;
      }
#endif
      n[npos++] = (int)v;
      if (npos == 1) n[1] = n[2] = (int)v;
    } else {
      bad = 1;
    }
  }
  int all = !strcmp(variant, "all");
  int known = all || !strcmp(variant, "isend") || !strcmp(variant, "alltoallw");
#ifdef HALO_N
  known = known || !strcmp(variant, "isend-fixed") || !strcmp(variant, "alltoallw-fixed");
#endif
  if (bad || !known) {
    if (rank == 0) {
      if (!known) fprintf(stderr, "halo3d: unknown variant '%s'\n", variant);
      usage();
    }
    MPI_Finalize();
    return 1;
  }

#ifdef EX_HAVE_CUDA
  if (device) ex_require_gpu(rank);
#endif
  struct halo h;
#ifdef HALO_N
  int px = HALO_PX;
#else
  int px = 0;
#endif
  int failed = halo_init(&h, n, device, px), any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any) {
    MPI_Finalize();
    return 1;
  }
  double *times = (double *)calloc((size_t)iters, sizeof(double));
  long wrong = 0;
  if (all || !strcmp(variant, "isend"))
    wrong += halo_report(&h, "isend", times, iters, run_isend(&h, iters, warmup, times));
  if (all || !strcmp(variant, "alltoallw"))
    wrong += halo_report(&h, "alltoallw", times, iters, run_alltoallw(&h, iters, warmup, times));
#ifdef HALO_N
  if (all || !strcmp(variant, "isend-fixed"))
    wrong += halo_report(&h, "isend-fixed", times, iters,
                         halo_fixed_isend(&h, iters, warmup, times));
  if (all || !strcmp(variant, "alltoallw-fixed"))
    wrong += halo_report(&h, "alltoallw-fixed", times, iters,
                         halo_fixed_alltoallw(&h, iters, warmup, times));
#endif
  free(times);
  halo_free(&h);
  MPI_Finalize();
  return wrong ? 1 : 0;
}
