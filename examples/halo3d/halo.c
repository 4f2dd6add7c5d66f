/// \file
/// Grid setup, filling and checking for the halo-exchange example (see halo.h). No exchange code
/// lives here: the variants (halo3d.c, halo3d_fixed.c) build their own datatypes.
#include "halo.h"

#include "../common/ex_util.h"

#include <stdint.h>

static const double kPoison = -1.0;

int halo_dir_index(int dx, int dy, int dz) {
  int k = (dz + 1) * 9 + (dy + 1) * 3 + (dx + 1); // 0..26, 13 is (0,0,0)
  return k < 13 ? k : k - 1;
}

int halo_init(struct halo *h, const int n[3], int device, int px_fixed) {
  memset(h, 0, sizeof *h);
  for (int a = 0; a < 3; ++a) {
    if (n[a] < HALO_R) {
      fprintf(stderr, "halo3d: the grid must be at least %d points per rank in each dimension\n",
              HALO_R);
      return 1;
    }
    h->n[a] = n[a];
  }
  MPI_Comm_size(MPI_COMM_WORLD, &h->size);
  int d[3] = {0, 0, 0}, periods[3] = {1, 1, 1};
  MPI_Dims_create(h->size, 3, d);
  for (int a = 0; a < 3; ++a) h->dims[a] = d[a];
  EX_MPI(MPI_Cart_create(MPI_COMM_WORLD, 3, h->dims, periods, 0, &h->cart));
  MPI_Comm_rank(h->cart, &h->rank);
  MPI_Cart_coords(h->cart, h->rank, 3, h->coords);
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if (!dx && !dy && !dz) continue;
        int i = halo_dir_index(dx, dy, dz);
        h->dir[i][0] = dx; h->dir[i][1] = dy; h->dir[i][2] = dz;
        int c[3] = {h->coords[0] + dx, h->coords[1] + dy, h->coords[2] + dz};
        for (int a = 0; a < 3; ++a) c[a] = (c[a] % h->dims[a] + h->dims[a]) % h->dims[a];
        MPI_Cart_rank(h->cart, c, &h->nbr[i]);
      }

  const size_t wx = (size_t)(n[0] + 2 * HALO_R), wy = (size_t)(n[1] + 2 * HALO_R),
               wz = (size_t)(n[2] + 2 * HALO_R);
  h->device = device;
  if (px_fixed > 0) {
    if ((size_t)px_fixed < wx) {
      fprintf(stderr, "halo3d: fixed pitch %d < row width %zu\n", px_fixed, wx);
      return 1;
    }
    h->px = px_fixed;
  } else {
    h->px = (int)(((wx * sizeof(double) + 511) / 512 * 512) / sizeof(double));
  }
  if (device) {
#ifdef EX_HAVE_CUDA
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
      fprintf(stderr, "halo3d: --device given but no CUDA device is usable\n");
      return 1;
    }
    EX_CUDA(cudaSetDevice(ex_node_local_rank() % ndev));
    if (px_fixed > 0) {
      EX_CUDA(cudaMalloc((void **)&h->base, (size_t)h->px * wy * wz * HALO_Q * sizeof(double)));
    } else {
      struct cudaPitchedPtr pp;
      struct cudaExtent extent = {wx * sizeof(double), wy, wz * HALO_Q};
      EX_CUDA(cudaMalloc3D(&pp, extent));
      if (pp.pitch % sizeof(double)) {
        fprintf(stderr, "halo3d: cudaMalloc3D pitch %zu is not a multiple of 8\n", pp.pitch);
        return 1;
      }
      h->base = (double *)pp.ptr;
      h->px = (int)(pp.pitch / sizeof(double));
    }
#else
    fprintf(stderr, "halo3d: --device needs a build with CUDA (EX_HAVE_CUDA)\n");
    return 1;
#endif
  }
  h->slab = (size_t)h->px * wy * wz;
  size_t bytes = h->slab * HALO_Q * sizeof(double);
  // Device mode: a pinned mirror, so cudaMemcpy to the device has completed when it returns (from
  // pageable memory the last DMA may still be in flight, unordered with non-default streams).
#ifdef EX_HAVE_CUDA
  if (device) {
    if (cudaMallocHost((void **)&h->host, bytes) != cudaSuccess) h->host = NULL;
  } else
#endif
    h->host = (double *)aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  if (!h->host) {
    fprintf(stderr, "halo3d: cannot allocate %zu bytes of host memory\n", bytes);
    return 1;
  }
  if (!device) h->base = h->host;
  return 0;
}

void halo_free(struct halo *h) {
#ifdef EX_HAVE_CUDA
  if (h->device) {
    cudaFree(h->base);
    cudaFreeHost(h->host);
  } else
#endif
    free(h->host);
  MPI_Comm_free(&h->cart);
}

static void region(const struct halo *h, int i, int send, int sub[3], int start[3]) {
  // MPI_ORDER_C: index 0 is z, 2 is x.
  for (int a = 0; a < 3; ++a) {
    int d = h->dir[i][a], n = h->n[a], s, c;
    if (d == 0) { s = HALO_R; c = n; }
    else if (send) { s = d < 0 ? HALO_R : n; c = HALO_R; }
    else { s = d < 0 ? 0 : n + HALO_R; c = HALO_R; }
    sub[2 - a] = c;
    start[2 - a] = s;
  }
}
void halo_send_region(const struct halo *h, int i, int sub[3], int start[3]) {
  region(h, i, 1, sub, start);
}
void halo_recv_region(const struct halo *h, int i, int sub[3], int start[3]) {
  region(h, i, 0, sub, start);
}

/// The value of quantity q at global point g in iteration iter: distinct for every point,
/// quantity and iteration, and exact in a double.
static double value(const struct halo *h, int q, const long g[3], int iter) {
  long gx = (long)h->dims[0] * h->n[0], gy = (long)h->dims[1] * h->n[1],
       gz = (long)h->dims[2] * h->n[2];
  return (double)((((long)(iter % 1024) * HALO_Q + q) * gz + g[2]) * gy + g[1]) * (double)gx +
         (double)g[0];
}

/// Global coordinate (periodic) of local cell index l along axis a, for any l in the box.
static long global_of(const struct halo *h, int a, int l) {
  long total = (long)h->dims[a] * h->n[a];
  long g = (long)h->coords[a] * h->n[a] + (l - HALO_R);
  return ((g % total) + total) % total;
}

static int interior(const struct halo *h, int a, int l) {
  return l >= HALO_R && l < HALO_R + h->n[a];
}

void halo_prepare(struct halo *h, int iter) {
  const int wx = h->n[0] + 2 * HALO_R, wy = h->n[1] + 2 * HALO_R, wz = h->n[2] + 2 * HALO_R;
  for (int q = 0; q < HALO_Q; ++q)
    for (int z = 0; z < wz; ++z)
      for (int y = 0; y < wy; ++y) {
        double *row = h->host + q * h->slab + ((size_t)z * wy + y) * h->px;
        int in_zy = interior(h, 2, z) && interior(h, 1, y);
        long g[3] = {0, global_of(h, 1, y), global_of(h, 2, z)};
        for (int x = 0; x < h->px; ++x) {
          if (in_zy && x < wx && interior(h, 0, x)) {
            g[0] = global_of(h, 0, x);
            row[x] = value(h, q, g, iter);
          } else {
            row[x] = kPoison;
          }
        }
      }
#ifdef EX_HAVE_CUDA
  if (h->device) {
    EX_CUDA(cudaMemcpy(h->base, h->host, h->slab * HALO_Q * sizeof(double),
                       cudaMemcpyHostToDevice));
  }
#endif
}

long halo_check(struct halo *h, int iter, const char *variant) {
#ifdef EX_HAVE_CUDA
  if (h->device) {
    EX_CUDA(cudaMemcpy(h->host, h->base, h->slab * HALO_Q * sizeof(double),
                       cudaMemcpyDeviceToHost));
  }
#endif
  const int wx = h->n[0] + 2 * HALO_R, wy = h->n[1] + 2 * HALO_R, wz = h->n[2] + 2 * HALO_R;
  long wrong = 0;
  for (int q = 0; q < HALO_Q; ++q)
    for (int z = 0; z < wz; ++z)
      for (int y = 0; y < wy; ++y) {
        const double *row = h->host + q * h->slab + ((size_t)z * wy + y) * h->px;
        long g[3] = {0, global_of(h, 1, y), global_of(h, 2, z)};
        for (int x = 0; x < h->px; ++x) {
          double want = kPoison;
          if (x < wx) { // every cell of the box: interior or halo (all 26 faces)
            g[0] = global_of(h, 0, x);
            want = value(h, q, g, iter);
          }
          if (row[x] != want) {
            if (wrong < 5)
              fprintf(stderr,
                      "halo3d %s: rank %d iteration %d: cell q=%d z=%d y=%d x=%d holds %.17g, "
                      "expected %.17g\n",
                      variant, h->rank, iter, q, z, y, x, row[x], want);
            ++wrong;
          }
        }
      }
  return wrong;
}

long long halo_bytes_per_exchange(const struct halo *h) {
  long long total = 0;
  for (int i = 0; i < HALO_NDIRS; ++i) {
    int sub[3], start[3];
    halo_send_region(h, i, sub, start);
    total += (long long)sub[0] * sub[1] * sub[2];
  }
  return total * HALO_Q * (long long)sizeof(double);
}

double halo_clock_start(const struct halo *h) {
  MPI_Barrier(h->cart);
  return MPI_Wtime();
}

double halo_clock_stop(const struct halo *h, double t0) {
  double dt = MPI_Wtime() - t0, worst = 0;
  MPI_Allreduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, h->cart);
  return worst;
}

long halo_report(const struct halo *h, const char *variant, const double *seconds, int iters,
                 long wrong) {
  long total = 0;
  MPI_Allreduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, h->cart);
  if (h->rank == 0) {
    double med = ex_median(seconds, iters), lo = iters ? seconds[0] : 0;
    for (int i = 1; i < iters; ++i) lo = seconds[i] < lo ? seconds[i] : lo;
    long long bytes = halo_bytes_per_exchange(h);
    printf("halo3d variant=%s grid=%dx%dx%d ranks=%d dims=%dx%dx%d mem=%s iters=%d "
           "median_ms=%.4f min_ms=%.4f bytes_per_rank=%lld GBps_per_rank=%.3f wrong=%ld %s\n",
           variant, h->n[0], h->n[1], h->n[2], h->size, h->dims[0], h->dims[1], h->dims[2],
           h->device ? "device" : "host", iters, med * 1e3, lo * 1e3, bytes,
           med > 0 ? bytes / med / 1e9 : 0.0, total, total ? "FAILED" : "ok");
    fflush(stdout);
  }
  return total;
}
