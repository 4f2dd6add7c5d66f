/* 3-D periodic halo exchange of the 6 faces with MPI_Type_create_subarray: the z faces in C
 * order, the x and y faces described in Fortran order (reversed sizes), as codes mixing C and
 * Fortran conventions do. MPI_Isend/MPI_Irecv/MPI_Waitall, then every halo cell is checked.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NL 8                 /* interior cells per dimension */
#define NT (NL + 2)          /* with one halo layer */
#define AT(x, y, z) (((x) * NT + (y)) * NT + (z))   /* C order: z fastest */

static double value(int gx, int gy, int gz) { return gx * 10000.0 + gy * 100.0 + gz; }

int main(int argc, char **argv) {
  int rank, size, dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1}, coords[3];
  int nbr[6], d, x, y, z, errors = 0, all_errors = 0;
  MPI_Comm cart;
  MPI_Request reqs[12];
  MPI_Datatype send_face[6], recv_face[6];
  double *grid, sum = 0.0, total = 0.0;
  int sizes[3] = {NT, NT, NT};

  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 3, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 3, coords);
  for (d = 0; d < 3; ++d) MPI_Cart_shift(cart, d, 1, &nbr[2 * d], &nbr[2 * d + 1]);

  /* Face k = 2*d (low side) and 2*d+1 (high side). */
  {
    /* z faces, C order */
    int sub[3] = {NL, NL, 1}, s_lo[3] = {1, 1, 1}, s_hi[3] = {1, 1, NL};
    int r_lo[3] = {1, 1, 0}, r_hi[3] = {1, 1, NL + 1};
    MPI_Type_create_subarray(3, sizes, sub, s_lo, MPI_ORDER_C, MPI_DOUBLE, &send_face[4]);
    MPI_Type_create_subarray(3, sizes, sub, s_hi, MPI_ORDER_C, MPI_DOUBLE, &send_face[5]);
    MPI_Type_create_subarray(3, sizes, sub, r_lo, MPI_ORDER_C, MPI_DOUBLE, &recv_face[4]);
    MPI_Type_create_subarray(3, sizes, sub, r_hi, MPI_ORDER_C, MPI_DOUBLE, &recv_face[5]);
  }
  {
    /* x faces in Fortran order: dimension 0 of the Fortran description is z. */
    int fsub[3] = {NL, NL, 1}, fs_lo[3] = {1, 1, 1}, fs_hi[3] = {1, 1, NL};
    int fr_lo[3] = {1, 1, 0}, fr_hi[3] = {1, 1, NL + 1};
    MPI_Type_create_subarray(3, sizes, fsub, fs_lo, MPI_ORDER_FORTRAN, MPI_DOUBLE, &send_face[0]);
    MPI_Type_create_subarray(3, sizes, fsub, fs_hi, MPI_ORDER_FORTRAN, MPI_DOUBLE, &send_face[1]);
    MPI_Type_create_subarray(3, sizes, fsub, fr_lo, MPI_ORDER_FORTRAN, MPI_DOUBLE, &recv_face[0]);
    MPI_Type_create_subarray(3, sizes, fsub, fr_hi, MPI_ORDER_FORTRAN, MPI_DOUBLE, &recv_face[1]);
  }
  {
    /* y faces in Fortran order */
    int ysub[3] = {NL, 1, NL}, ys_lo[3] = {1, 1, 1}, ys_hi[3] = {1, NL, 1};
    int yr_lo[3] = {1, 0, 1}, yr_hi[3] = {1, NL + 1, 1};
    MPI_Type_create_subarray(3, sizes, ysub, ys_lo, MPI_ORDER_FORTRAN, MPI_DOUBLE, &send_face[2]);
    MPI_Type_create_subarray(3, sizes, ysub, ys_hi, MPI_ORDER_FORTRAN, MPI_DOUBLE, &send_face[3]);
    MPI_Type_create_subarray(3, sizes, ysub, yr_lo, MPI_ORDER_FORTRAN, MPI_DOUBLE, &recv_face[2]);
    MPI_Type_create_subarray(3, sizes, ysub, yr_hi, MPI_ORDER_FORTRAN, MPI_DOUBLE, &recv_face[3]);
  }
  for (d = 0; d < 6; ++d) {
    MPI_Type_commit(&send_face[d]);
    MPI_Type_commit(&recv_face[d]);
  }

  grid = malloc(sizeof(double) * NT * NT * NT);
  for (x = 0; x < NT; ++x)
    for (y = 0; y < NT; ++y)
      for (z = 0; z < NT; ++z) {
        int interior = x > 0 && x <= NL && y > 0 && y <= NL && z > 0 && z <= NL;
        grid[AT(x, y, z)] = interior ? value(coords[2] * NL + x, coords[1] * NL + y, coords[0] * NL + z) : -1.0;
      }
  /* Note the Cartesian mapping: cart dim 0 moves along the z index (Fortran-style layout),
   * dim 1 along y, dim 2 along x.  Face pair d=0 is x here; we pair it with cart dim 2. */
  {
    int cart_dim_of_face[3] = {2, 1, 0};
    for (d = 0; d < 3; ++d) {
      int lo = nbr[2 * cart_dim_of_face[d]], hi = nbr[2 * cart_dim_of_face[d] + 1];
      MPI_Irecv(grid, 1, recv_face[2 * d], lo, 2 * d, cart, &reqs[4 * d]);
      MPI_Irecv(grid, 1, recv_face[2 * d + 1], hi, 2 * d + 1, cart, &reqs[4 * d + 1]);
      MPI_Isend(grid, 1, send_face[2 * d], lo, 2 * d + 1, cart, &reqs[4 * d + 2]);
      MPI_Isend(grid, 1, send_face[2 * d + 1], hi, 2 * d, cart, &reqs[4 * d + 3]);
    }
  }
  MPI_Waitall(12, reqs, MPI_STATUSES_IGNORE);

  /* Check every face halo cell against the periodic global function. */
  {
    int gn[3] = {dims[2] * NL, dims[1] * NL, dims[0] * NL};
    for (x = 0; x < NT; ++x)
      for (y = 0; y < NT; ++y)
        for (z = 0; z < NT; ++z) {
          int nh = (x == 0 || x == NT - 1) + (y == 0 || y == NT - 1) + (z == 0 || z == NT - 1);
          double want;
          if (nh != 1) continue;   /* interior, edges and corners are not exchanged */
          want = value((coords[2] * NL + x - 1 + gn[0]) % gn[0] + 1,
                       (coords[1] * NL + y - 1 + gn[1]) % gn[1] + 1,
                       (coords[0] * NL + z - 1 + gn[2]) % gn[2] + 1);
          if (grid[AT(x, y, z)] != want) {
            if (errors < 3)
              printf("rank %d: halo (%d,%d,%d) = %.0f, expected %.0f\n", rank, x, y, z,
                     grid[AT(x, y, z)], want);
            ++errors;
          }
          sum += grid[AT(x, y, z)] * ((x + 2 * y + 3 * z) % 7 + 1);
        }
  }
  MPI_Reduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, 0, cart);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, cart);
  if (rank == 0)
    printf("dims %d x %d x %d, halo errors %d, halo checksum %.1f\n", dims[0], dims[1], dims[2],
           all_errors, total);
  for (d = 0; d < 6; ++d) {
    MPI_Type_free(&send_face[d]);
    MPI_Type_free(&recv_face[d]);
  }
  free(grid);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
