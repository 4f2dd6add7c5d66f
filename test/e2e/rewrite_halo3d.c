/* End-to-end (tempi-rewrite): a 3-D halo exchange with 26 neighbours and 8 quantities, written
 * the way stencil codes are: one subarray type per neighbour kind (3 faces, 3 edges, 1 corner)
 * built once with constant sizes, and Isend/Irecv at per-direction buffer offsets. The test
 * rewrites this file with tempi-rewrite, runs original and rewritten with 4 ranks on host
 * buffers, and compares every rank's whole grid (halos included) byte for byte.
 *   rewrite_halo3d <output-dir>      (writes <output-dir>/rank<r>.txt) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define NX 6
#define NY 5
#define NZ 4
#define NQ 8
#define SX (NX + 2)
#define SY (NY + 2)
#define SZ (NZ + 2)
#define IDX(x, y, z) (((z) * SY + (y)) * SX + (x))

static double q[NQ][SZ * SY * SX];

static int neighbour(MPI_Comm cart, int dx, int dy, int dz) {
  int me, coords[3], dims[3], periods[3], r;
  MPI_Comm_rank(cart, &me);
  MPI_Cart_get(cart, 3, dims, periods, coords);
  coords[0] += dz; coords[1] += dy; coords[2] += dx;
  MPI_Cart_rank(cart, coords, &r);
  return r;
}

/* Start index of the region sent towards (dx,dy,dz) (send) or received from it (halo). */
static int origin(int dx, int dy, int dz, int send) {
  int x = dx < 0 ? (send ? 1 : 0) : dx > 0 ? (send ? NX : NX + 1) : 1;
  int y = dy < 0 ? (send ? 1 : 0) : dy > 0 ? (send ? NY : NY + 1) : 1;
  int z = dz < 0 ? (send ? 1 : 0) : dz > 0 ? (send ? NZ : NZ + 1) : 1;
  return IDX(x, y, z);
}

int main(int argc, char **argv) {
  int rank, size, dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1};
  MPI_Comm cart;
  MPI_Request req[26 * NQ * 2];
  int nreq = 0, dx, dy, dz, k;
  int sizes[3] = {SZ, SY, SX};
  int fx[3] = {NZ, NY, 1}, fy[3] = {NZ, 1, NX}, fz[3] = {1, NY, NX};
  int exy[3] = {NZ, 1, 1}, exz[3] = {1, NY, 1}, eyz[3] = {1, 1, NX};
  int starts[3] = {0, 0, 0};
  MPI_Datatype face_x, face_y, face_z, edge_xy, edge_xz, edge_yz, corner;
  char path[4096];
  FILE *f;

  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 3, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
  MPI_Comm_rank(cart, &rank);

  MPI_Type_create_subarray(3, sizes, fx, starts, MPI_ORDER_C, MPI_DOUBLE, &face_x);
  MPI_Type_create_subarray(3, sizes, fy, starts, MPI_ORDER_C, MPI_DOUBLE, &face_y);
  MPI_Type_create_subarray(3, sizes, fz, starts, MPI_ORDER_C, MPI_DOUBLE, &face_z);
  MPI_Type_create_subarray(3, sizes, exy, starts, MPI_ORDER_C, MPI_DOUBLE, &edge_xy);
  MPI_Type_create_subarray(3, sizes, exz, starts, MPI_ORDER_C, MPI_DOUBLE, &edge_xz);
  MPI_Type_create_subarray(3, sizes, eyz, starts, MPI_ORDER_C, MPI_DOUBLE, &edge_yz);
  MPI_Type_vector(1, 1, 1, MPI_DOUBLE, &corner);
  MPI_Type_commit(&face_x); MPI_Type_commit(&face_y); MPI_Type_commit(&face_z);
  MPI_Type_commit(&edge_xy); MPI_Type_commit(&edge_xz); MPI_Type_commit(&edge_yz);
  MPI_Type_commit(&corner);

  for (k = 0; k < NQ; ++k) {
    int i;
    for (i = 0; i < SZ * SY * SX; ++i)
      q[k][i] = -1.0;
    for (dz = 1; dz <= NZ; ++dz)
      for (dy = 1; dy <= NY; ++dy)
        for (dx = 1; dx <= NX; ++dx)
          q[k][IDX(dx, dy, dz)] = rank * 100000 + k * 1000 + dz * 100 + dy * 10 + dx;
  }

  for (dz = -1; dz <= 1; ++dz)
    for (dy = -1; dy <= 1; ++dy)
      for (dx = -1; dx <= 1; ++dx) {
        int n = (dx != 0) + (dy != 0) + (dz != 0);
        int dir = (dz + 1) * 9 + (dy + 1) * 3 + (dx + 1);
        int to = neighbour(cart, dx, dy, dz), from = neighbour(cart, -dx, -dy, -dz);
        if (n == 0)
          continue;
        for (k = 0; k < NQ; ++k) {
          double *s = &q[k][origin(dx, dy, dz, 1)];
          double *r = &q[k][origin(-dx, -dy, -dz, 0)];
          int tag = dir * NQ + k;
          if (n == 1 && dx != 0) {
            MPI_Irecv(r, 1, face_x, from, tag, cart, &req[nreq++]);
            MPI_Isend(s, 1, face_x, to, tag, cart, &req[nreq++]);
          } else if (n == 1 && dy != 0) {
            MPI_Irecv(r, 1, face_y, from, tag, cart, &req[nreq++]);
            MPI_Isend(s, 1, face_y, to, tag, cart, &req[nreq++]);
          } else if (n == 1) {
            MPI_Irecv(r, 1, face_z, from, tag, cart, &req[nreq++]);
            MPI_Isend(s, 1, face_z, to, tag, cart, &req[nreq++]);
          } else if (n == 2 && dz == 0) {
            MPI_Irecv(r, 1, edge_xy, from, tag, cart, &req[nreq++]);
            MPI_Isend(s, 1, edge_xy, to, tag, cart, &req[nreq++]);
          } else if (n == 2 && dy == 0) {
            MPI_Irecv(r, 1, edge_xz, from, tag, cart, &req[nreq++]);
            MPI_Isend(s, 1, edge_xz, to, tag, cart, &req[nreq++]);
          } else if (n == 2) {
            MPI_Irecv(r, 1, edge_yz, from, tag, cart, &req[nreq++]);
            MPI_Isend(s, 1, edge_yz, to, tag, cart, &req[nreq++]);
          } else {
            MPI_Irecv(r, 1, corner, from, tag, cart, &req[nreq++]);
            MPI_Isend(s, 1, corner, to, tag, cart, &req[nreq++]);
          }
        }
      }
  MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);

  snprintf(path, sizeof path, "%s/rank%d.txt", argc > 1 ? argv[1] : ".", rank);
  f = fopen(path, "w");
  if (!f)
    return 1;
  for (k = 0; k < NQ; ++k) {
    int i;
    for (i = 0; i < SZ * SY * SX; ++i)
      fprintf(f, "%d %d %.17g\n", k, i, q[k][i]);
  }
  fclose(f);
  MPI_Type_free(&face_x); MPI_Type_free(&face_y); MPI_Type_free(&face_z);
  MPI_Type_free(&edge_xy); MPI_Type_free(&edge_xz); MPI_Type_free(&edge_yz);
  MPI_Type_free(&corner);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
