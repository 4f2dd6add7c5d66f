/// \file
/// The grid of the 3-D halo-exchange example (Astaroth-like): Q = 8 quantities of double per
/// point, radius R = 3, periodic, 26 neighbours, ranks arranged by MPI_Dims_create.
///
/// Memory layout (host and device alike): the 8 quantities are stacked along z in one pitched
/// allocation (cudaMalloc3D on the device), element (q, z, y, x) at
///   base[q*slab + (z*(ny+2R) + y)*px + x],   slab = (nz+2R)*(ny+2R)*px,
/// with px >= nx+2R the row pitch in elements. Interior points are x in [R, R+nx), likewise y, z.
///
/// Checking: before every exchange the interior holds v(q, global x, y, z, iteration) and every
/// other cell (halo and pitch padding) holds a poison value; after it every halo cell must hold the
/// value of the periodic neighbour's interior point it mirrors, the interior must be unchanged and
/// the padding still poison. halo_check counts wrong cells (and prints the first few).
#ifndef TEMPI_EXAMPLES_HALO_H
#define TEMPI_EXAMPLES_HALO_H

#include <mpi.h>
#include <stddef.h>

enum { HALO_Q = 8, HALO_R = 3, HALO_NDIRS = 26 };

struct halo {
  int n[3];          ///< interior points per rank, x y z
  int px;            ///< row pitch in elements (x extent of the allocation)
  size_t slab;       ///< elements per quantity
  int dims[3];       ///< process grid, x y z
  int coords[3];     ///< this rank's position
  int rank, size;
  MPI_Comm cart;     ///< periodic Cartesian communicator (MPI_Dims_create arrangement)
  int dir[HALO_NDIRS][3];   ///< direction i: (dx, dy, dz) in {-1,0,1}^3 \ {0}
  int nbr[HALO_NDIRS];      ///< rank at coords + dir[i] (periodic)
  int device;        ///< 1: base is device memory; 0: host memory
  double *base;      ///< the grid the exchange works on (device or host)
  double *host;      ///< host mirror (device mode) or == base (host mode)
};

/// Sets up the process grid, the neighbour table and the memory. px_fixed > 0 forces the row
/// pitch (the compile-time grid variant; device memory then comes from cudaMalloc), else
/// cudaMalloc3D picks it on the device and the host rounds rows up to 512 bytes. Returns 0, or
/// prints why and returns 1 (device requested without CUDA support built in, no GPU, bad sizes).
int halo_init(struct halo *h, const int n[3], int device, int px_fixed);
void halo_free(struct halo *h);

/// Index of the direction (dx,dy,dz) in dir[].
int halo_dir_index(int dx, int dy, int dz);

/// Region of the send face toward dir[i] (interior cells next to that side) and of the receive
/// face on side dir[i] (the halo that the neighbour at +dir[i] fills). starts/subsizes in
/// MPI_ORDER_C order (z, y, x).
void halo_send_region(const struct halo *h, int i, int sub[3], int start[3]);
void halo_recv_region(const struct halo *h, int i, int sub[3], int start[3]);

/// Fills the grid for `iter` (interior values, poison elsewhere) and uploads it in device mode.
void halo_prepare(struct halo *h, int iter);
/// Downloads (device mode) and counts wrong cells after the exchange of `iter`.
long halo_check(struct halo *h, int iter, const char *variant);

/// Bytes one rank sends per exchange (26 faces x 8 quantities).
long long halo_bytes_per_exchange(const struct halo *h);

/// Timing of one exchange: a barrier, then the clock; stop returns the slowest rank's seconds.
double halo_clock_start(const struct halo *h);
double halo_clock_stop(const struct halo *h, double t0);

/// Rank 0 prints one line `halo3d variant=... median_ms=... wrong=...` (key=value, parsed by the
/// benchmarks). `wrong` is this rank's count; returns the count summed over all ranks.
long halo_report(const struct halo *h, const char *variant, const double *seconds, int iters,
                 long wrong);

#endif
