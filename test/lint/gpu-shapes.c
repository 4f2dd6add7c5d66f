// Shapes slow on a GPU whatever the library does; a plain wide-block vector is not reported.
// RUN: tempi-lint %s -- -I%mock_mpi -Xclang -verify=tempi
#include <mpi.h>

void f(void) {
  MPI_Datatype tiny, near, deep, fine;
  MPI_Type_vector(64, 1, 4, MPI_SHORT, &tiny); // tempi-warning {{'tiny' moves contiguous runs of 2 bytes: each costs a whole memory sector on a GPU, at most 6% of copy bandwidth whatever the library does; use a wider element type or a layout with longer runs [tempi-gpu-tiny-blocks]}}
  int bl[8] = {2, 2, 2, 2, 2, 2, 2, 2};
  int disp[8] = {0, 8, 16, 24, 33, 40, 48, 56};
  MPI_Type_indexed(8, bl, disp, MPI_DOUBLE, &near); // tempi-warning {{'near' lists 8 blocks of which 7 follow length 16 and stride 64; 1 does not (block 4: offset 264, 16 bytes), so the whole type takes the block-list kernel instead of a strided one; send the regular part as a vector and the exceptions separately [tempi-gpu-nearly-regular]}}
  int sizes[5] = {4, 4, 4, 4, 4}, subsizes[5] = {2, 2, 2, 2, 2}, starts[5] = {1, 1, 1, 1, 1};
  MPI_Type_create_subarray(5, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &deep); // tempi-warning-re {{'deep' has 4 strided dimensions after every mergeable one is merged ({{.*}}): a GPU pack kernel maps the run and 2 dimensions onto its grid and loops over the other 2 [tempi-gpu-many-dims]}}
  int sizes4[4] = {4, 4, 4, 4}, subsizes4[4] = {2, 2, 2, 2}, starts4[4] = {1, 1, 1, 1};
  MPI_Datatype halo;
  MPI_Type_create_subarray(4, sizes4, subsizes4, starts4, MPI_ORDER_C, MPI_DOUBLE, &halo);
  MPI_Type_vector(64, 4, 8, MPI_DOUBLE, &fine);
}
