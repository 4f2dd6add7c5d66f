/* A lattice-Boltzmann flow (D3Q19, BGK collision, pull streaming) on a periodic box split into
 * slabs along x over a ring of ranks, exchanging halos the way LBM codes do: only the 5
 * populations that cross an x face move. Two copies of the same lattice run side by side:
 *  - structure of arrays f[Q][NZ][NY][NXT]: one population's x plane is an MPI_Type_vector (one
 *    double per (z, y) row); the 5 populations crossing to the right are an MPI_Type_create_struct
 *    of that plane at their population offsets, the 5 crossing to the left an
 *    MPI_Type_create_hindexed_block of it (displacements from a loop over a const table);
 *    exchanged with MPI_Irecv/MPI_Isend/MPI_Waitall;
 *  - array of structs g[NZ][NY][NXT][Q]: one cell's 5 populations are an MPI_Type_indexed (or an
 *    MPI_Type_create_indexed_block) nested in two MPI_Type_create_hvector (y rows, z planes);
 *    exchanged with MPI_Sendrecv; on odd steps the whole plane (all 19 populations) moves
 *    instead, as MPI_Type_create_subarray types of the 4-D array.
 * Every rank also runs the whole box serially; the local slab of both copies must match it bit
 * for bit after every step, and the total mass must be conserved. Rank 0 prints mass and
 * momentum per step.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define Q 19
#define NX 6          /* interior cells per rank along x */
#define NY 5
#define NZ 4
#define NXT (NX + 2)  /* with one ghost layer on each side */
#define NCROSS 5      /* populations crossing one x face */
#define STEPS 6
#define OMEGA 1.2

static const int cv[Q][3] = {{0, 0, 0},   {1, 0, 0},   {-1, 0, 0},  {0, 1, 0},  {0, -1, 0},
                             {0, 0, 1},   {0, 0, -1},  {1, 1, 0},   {-1, -1, 0}, {1, -1, 0},
                             {-1, 1, 0},  {1, 0, 1},   {-1, 0, -1}, {1, 0, -1}, {-1, 0, 1},
                             {0, 1, 1},   {0, -1, -1}, {0, 1, -1},  {0, -1, 1}};
static const int right_pops[NCROSS] = {1, 7, 9, 11, 13}; /* cx = +1 */
static const int left_pops[NCROSS] = {2, 8, 10, 12, 14}; /* cx = -1 */

static double f[Q][NZ][NY][NXT], fn[Q][NZ][NY][NXT]; /* structure of arrays */
static double g[NZ][NY][NXT][Q], gn[NZ][NY][NXT][Q]; /* array of structs */

static double weight(int q) { return q == 0 ? 1.0 / 3.0 : q <= 6 ? 1.0 / 18.0 : 1.0 / 36.0; }

static void equilibrium(double rho, const double u[3], double feq[Q]) {
  double uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
  for (int q = 0; q < Q; ++q) {
    double cu = 3.0 * (cv[q][0] * u[0] + cv[q][1] * u[1] + cv[q][2] * u[2]);
    feq[q] = weight(q) * rho * (1.0 + cu + 0.5 * cu * cu - 1.5 * uu);
  }
}

static void collide(double fi[Q]) {
  double rho = 0, u[3] = {0, 0, 0}, feq[Q];
  for (int q = 0; q < Q; ++q) {
    rho += fi[q];
    for (int d = 0; d < 3; ++d) u[d] += cv[q][d] * fi[q];
  }
  for (int d = 0; d < 3; ++d) u[d] /= rho;
  equilibrium(rho, u, feq);
  for (int q = 0; q < Q; ++q) fi[q] += OMEGA * (feq[q] - fi[q]);
}

static void initial(int gx, int y, int z, double fi[Q]) {
  double rho = 1.0 + 0.005 * ((gx * 7 + y * 3 + z * 5) % 11);
  double u[3] = {0.01 * ((gx + 2 * y) % 5 - 2), 0.005 * ((z + gx) % 3 - 1),
                 0.004 * ((y + z) % 4 - 1)};
  equilibrium(rho, u, fi);
}

static int wrap(int i, int n) { return (i % n + n) % n; }

/* The serial lattice over the whole box, r[((q * NZ + z) * NY + y) * gx + x]. */
#define R(a, q, z, y, x) (a)[(((size_t)(q) * NZ + (z)) * NY + (y)) * gxn + (x)]

static void serial_step(double *r, double *rn, int gxn) {
  double fi[Q];
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < gxn; ++x) {
        for (int q = 0; q < Q; ++q) fi[q] = R(r, q, z, y, x);
        collide(fi);
        for (int q = 0; q < Q; ++q) R(r, q, z, y, x) = fi[q];
      }
  for (int q = 0; q < Q; ++q)
    for (int z = 0; z < NZ; ++z)
      for (int y = 0; y < NY; ++y)
        for (int x = 0; x < gxn; ++x)
          R(rn, q, z, y, x) = R(r, q, wrap(z - cv[q][2], NZ), wrap(y - cv[q][1], NY),
                                wrap(x - cv[q][0], gxn));
}

int main(int argc, char **argv) {
  int rank, size, left, right, bad = 0, allbad = 0;
  MPI_Datatype fplane, f_right, f_left;
  MPI_Datatype cell_r, cell_l, row_r, row_l, g_right, g_left;
  MPI_Datatype plane_send_r, plane_recv_r, plane_send_l, plane_recv_l;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  left = (rank + size - 1) % size;
  right = (rank + 1) % size;
  const int gxn = NX * size;
  double *r = malloc(sizeof(double) * Q * NZ * NY * gxn);
  double *rn = malloc(sizeof(double) * Q * NZ * NY * gxn);

  /* --- structure of arrays: the crossing populations of one x plane --- */
  MPI_Type_vector(NZ * NY, 1, NXT, MPI_DOUBLE, &fplane);
  {
    int blens[NCROSS];
    MPI_Aint disps[NCROSS];
    MPI_Datatype types[NCROSS];
    for (int i = 0; i < NCROSS; ++i) {
      blens[i] = 1;
      disps[i] = (MPI_Aint)right_pops[i] * NZ * NY * NXT * sizeof(double);
      types[i] = fplane;
    }
    MPI_Type_create_struct(NCROSS, blens, disps, types, &f_right);
  }
  {
    MPI_Aint disps[NCROSS];
    for (int i = 0; i < NCROSS; ++i)
      disps[i] = (MPI_Aint)left_pops[i] * NZ * NY * NXT * sizeof(double);
    MPI_Type_create_hindexed_block(NCROSS, 1, disps, fplane, &f_left);
  }
  MPI_Type_commit(&f_right);
  MPI_Type_commit(&f_left);

  /* --- array of structs: populations of a cell, rows of cells, planes of rows --- */
  {
    int ones[NCROSS] = {1, 1, 1, 1, 1};
    MPI_Type_indexed(NCROSS, ones, right_pops, MPI_DOUBLE, &cell_r);
    MPI_Type_create_indexed_block(NCROSS, 1, left_pops, MPI_DOUBLE, &cell_l);
  }
  MPI_Type_create_hvector(NY, 1, NXT * Q * sizeof(double), cell_r, &row_r);
  MPI_Type_create_hvector(NY, 1, NXT * Q * sizeof(double), cell_l, &row_l);
  MPI_Type_create_hvector(NZ, 1, NY * NXT * Q * sizeof(double), row_r, &g_right);
  MPI_Type_create_hvector(NZ, 1, NY * NXT * Q * sizeof(double), row_l, &g_left);
  MPI_Type_commit(&g_right);
  MPI_Type_commit(&g_left);
  {
    int sizes[4] = {NZ, NY, NXT, Q}, sub[4] = {NZ, NY, 1, Q}, start[4] = {0, 0, NX, 0};
    MPI_Type_create_subarray(4, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &plane_send_r);
    start[2] = 0;
    MPI_Type_create_subarray(4, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &plane_recv_r);
    start[2] = 1;
    MPI_Type_create_subarray(4, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &plane_send_l);
    start[2] = NX + 1;
    MPI_Type_create_subarray(4, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &plane_recv_l);
  }
  MPI_Type_commit(&plane_send_r);
  MPI_Type_commit(&plane_recv_r);
  MPI_Type_commit(&plane_send_l);
  MPI_Type_commit(&plane_recv_l);

  /* --- initial state: ghosts hold a marker that the streaming must never read unexchanged --- */
  for (int q = 0; q < Q; ++q)
    for (int z = 0; z < NZ; ++z)
      for (int y = 0; y < NY; ++y)
        for (int x = 0; x < NXT; ++x) f[q][z][y][x] = g[z][y][x][q] = -1.0e6;
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int gx = 0; gx < gxn; ++gx) {
        double fi[Q];
        int x = gx - rank * NX + 1;
        initial(gx, y, z, fi);
        for (int q = 0; q < Q; ++q) {
          R(r, q, z, y, gx) = fi[q];
          if (x >= 1 && x <= NX) f[q][z][y][x] = g[z][y][x][q] = fi[q];
        }
      }

  double mass0 = 0, mass0_all;
  for (int q = 0; q < Q; ++q)
    for (int z = 0; z < NZ; ++z)
      for (int y = 0; y < NY; ++y)
        for (int x = 1; x <= NX; ++x) mass0 += f[q][z][y][x];
  MPI_Allreduce(&mass0, &mass0_all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("D3Q19 %d x %d x %d on %d ranks, initial mass %.10f\n", gxn, NY, NZ, size,
                        mass0_all);

  for (int step = 0; step < STEPS; ++step) {
    /* collide */
    for (int z = 0; z < NZ; ++z)
      for (int y = 0; y < NY; ++y)
        for (int x = 1; x <= NX; ++x) {
          double fi[Q];
          for (int q = 0; q < Q; ++q) fi[q] = f[q][z][y][x];
          collide(fi);
          for (int q = 0; q < Q; ++q) f[q][z][y][x] = fi[q];
          collide(g[z][y][x]);
        }
    /* halo exchange: the last interior plane's right-movers go into the right rank's low ghost,
     * the first interior plane's left-movers into the left rank's high ghost */
    {
      MPI_Request req[4];
      MPI_Irecv(&f[0][0][0][0], 1, f_right, left, 10, MPI_COMM_WORLD, &req[0]);
      MPI_Irecv(&f[0][0][0][NX + 1], 1, f_left, right, 11, MPI_COMM_WORLD, &req[1]);
      MPI_Isend(&f[0][0][0][NX], 1, f_right, right, 10, MPI_COMM_WORLD, &req[2]);
      MPI_Isend(&f[0][0][0][1], 1, f_left, left, 11, MPI_COMM_WORLD, &req[3]);
      MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    }
    if (step % 2 == 0) {
      MPI_Sendrecv(&g[0][0][NX][0], 1, g_right, right, 20, &g[0][0][0][0], 1, g_right, left, 20,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Sendrecv(&g[0][0][1][0], 1, g_left, left, 21, &g[0][0][NX + 1][0], 1, g_left, right, 21,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Sendrecv(g, 1, plane_send_r, right, 22, g, 1, plane_recv_r, left, 22, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      MPI_Sendrecv(g, 1, plane_send_l, left, 23, g, 1, plane_recv_l, right, 23, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    }
    /* pull streaming (periodic in y and z within the slab) */
    for (int q = 0; q < Q; ++q)
      for (int z = 0; z < NZ; ++z)
        for (int y = 0; y < NY; ++y)
          for (int x = 1; x <= NX; ++x) {
            int zs = wrap(z - cv[q][2], NZ), ys = wrap(y - cv[q][1], NY), xs = x - cv[q][0];
            fn[q][z][y][x] = f[q][zs][ys][xs];
            gn[z][y][x][q] = g[zs][ys][xs][q];
          }
    for (int q = 0; q < Q; ++q)
      for (int z = 0; z < NZ; ++z)
        for (int y = 0; y < NY; ++y)
          for (int x = 1; x <= NX; ++x) {
            f[q][z][y][x] = fn[q][z][y][x];
            g[z][y][x][q] = gn[z][y][x][q];
          }
    serial_step(r, rn, gxn);
    {
      double *t = r;
      r = rn;
      rn = t;
    }
    /* checks: both copies equal the serial box; mass and momentum */
    double sums[4] = {0, 0, 0, 0}, all[4];
    for (int q = 0; q < Q; ++q)
      for (int z = 0; z < NZ; ++z)
        for (int y = 0; y < NY; ++y)
          for (int x = 1; x <= NX; ++x) {
            double want = R(r, q, z, y, rank * NX + x - 1);
            if (f[q][z][y][x] != want || g[z][y][x][q] != want) {
              if (bad < 5)
                fprintf(stderr, "rank %d step %d: q=%d z=%d y=%d x=%d soa %g aos %g want %g\n",
                        rank, step, q, z, y, x, f[q][z][y][x], g[z][y][x][q], want);
              ++bad;
            }
            sums[0] += f[q][z][y][x];
            for (int d = 0; d < 3; ++d) sums[d + 1] += cv[q][d] * f[q][z][y][x];
          }
    MPI_Allreduce(sums, all, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
      double drift = (all[0] - mass0_all) / mass0_all;
      printf("step %d: mass %.10f (%s) momentum %.8f %.8f %.8f\n", step, all[0],
             drift < 1e-12 && drift > -1e-12 ? "conserved" : "DRIFT", all[1], all[2], all[3]);
      if (!(drift < 1e-12 && drift > -1e-12)) ++bad;
    }
  }

  MPI_Allreduce(&bad, &allbad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("lattice vs serial: %s (%d mismatches)\n", allbad ? "FAILED" : "ok", allbad);

  MPI_Type_free(&fplane);
  MPI_Type_free(&f_right);
  MPI_Type_free(&f_left);
  MPI_Type_free(&cell_r);
  MPI_Type_free(&cell_l);
  MPI_Type_free(&row_r);
  MPI_Type_free(&row_l);
  MPI_Type_free(&g_right);
  MPI_Type_free(&g_left);
  MPI_Type_free(&plane_send_r);
  MPI_Type_free(&plane_recv_r);
  MPI_Type_free(&plane_send_l);
  MPI_Type_free(&plane_recv_l);
  free(r);
  free(rn);
  MPI_Finalize();
  return allbad ? 1 : 0;
}
