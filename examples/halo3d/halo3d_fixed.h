/// \file
/// The compile-time-grid variants of the halo exchange (halo3d_fixed.c, generated). Built only with
/// -DHALO_N=<points per rank per dimension>; the row pitch HALO_PX is a constant too (rows rounded up
/// to 512 bytes, as halo.c does on the host), so every datatype argument is known at compile time.
#ifndef TEMPI_EXAMPLES_HALO3D_FIXED_H
#define TEMPI_EXAMPLES_HALO3D_FIXED_H

#include "halo.h"

#ifndef HALO_N
#error "halo3d_fixed needs -DHALO_N=<points per rank per dimension>"
#endif
#define HALO_PX ((((HALO_N + 2 * HALO_R) * 8 + 511) / 512 * 512) / 8)

long halo_fixed_isend(struct halo *h, int iters, int warmup, double *times);
long halo_fixed_alltoallw(struct halo *h, int iters, int warmup, double *times);

#endif
