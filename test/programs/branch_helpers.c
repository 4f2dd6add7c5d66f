/* Face datatypes of a 3-D block chosen inside helpers by branching on the dimension, the way
 * codes write one helper for all faces: an if/else-if chain, a switch that sets count, block
 * and stride, a struct of faces filled by make_faces(&f, d) with one branch per dimension, and
 * an element-type helper with a return per branch. Each rank sends every face of its block to
 * the next rank of a ring and receives the previous rank's into a zeroed block (MPI_Sendrecv); every cell of
 * the received block is checked (the face holds the sender's values, the rest stays zero) and
 * a checksum is printed.
 * NP: 3 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define NX 6
#define NY 5
#define NZ 4
#define ALL (NX * NY * NZ)

static int at(int z, int y, int x) { return (z * NY + y) * NX + x; }
static double value(int rank, int i) { return rank * 1000.0 + i + 1; }

static MPI_Datatype element_of(int wide) {
  if (wide)
    return MPI_DOUBLE;
  return MPI_FLOAT;
}

/* The x = 0 face (dim 0), the y = 0 face (dim 1) or the z = 0 face (anything else). */
static MPI_Datatype face_if(int dim) {
  MPI_Datatype t;
  if (dim == 0)
    MPI_Type_vector(NY * NZ, 1, NX, MPI_DOUBLE, &t);
  else if (dim == 1)
    MPI_Type_vector(NZ, NX, NX * NY, MPI_DOUBLE, &t);
  else
    MPI_Type_contiguous(NX * NY, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

static MPI_Datatype face_switch(int dim) {
  MPI_Datatype t;
  int count, block, stride;
  switch (dim) {
  case 0:
    count = NY * NZ;
    block = 1;
    stride = NX;
    break;
  case 1:
    count = NZ;
    block = NX;
    stride = NX * NY;
    break;
  default:
    count = 1;
    block = NX * NY;
    stride = NX * NY;
    break;
  }
  MPI_Type_vector(count, block, stride, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

struct faces {
  MPI_Datatype x, y, z;
};

static void make_faces(struct faces *f, int dim) {
  int sizes[3] = {NZ, NY, NX}, sub[3] = {NZ, NY, NX}, start[3] = {0, 0, 0};
  if (dim == 0) {
    sub[2] = 1;
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &f->x);
    MPI_Type_commit(&f->x);
  } else if (dim == 1) {
    sub[1] = 1;
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &f->y);
    MPI_Type_commit(&f->y);
  } else {
    sub[0] = 1;
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &f->z);
    MPI_Type_commit(&f->z);
  }
}

static int on_face(int dim, int z, int y, int x) {
  return dim == 0 ? x == 0 : dim == 1 ? y == 0 : z == 0;
}

/* Counts the cells of the received block `r` that differ from what they must hold after face
 * `dim` came from rank `prev` (the face holds its values, the rest stays zero), adds them to
 * the checksum and zeroes `r` for the next exchange. */
static int check(int dim, int prev, double *r, double *sum) {
  int bad = 0;
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x) {
        const int i = at(z, y, x);
        const double want = on_face(dim, z, y, x) ? value(prev, i) : 0.0;
        bad += r[i] != want;
        *sum += r[i];
      }
  memset(r, 0, ALL * sizeof(double));
  return bad;
}

int main(int argc, char **argv) {
  static double u[ALL], r[ALL];
  int rank, size, bad = 0;
  double sum = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  for (int i = 0; i < ALL; ++i)
    u[i] = value(rank, i);

  MPI_Datatype ix = face_if(0), iy = face_if(1), iz = face_if(2);
  MPI_Datatype sx = face_switch(0), sy = face_switch(1), sz = face_switch(2);
  /* Every element of the z = 0 face, by the element type's helper. */
  MPI_Datatype ez;
  MPI_Type_contiguous(NX * NY, element_of(1), &ez);
  MPI_Type_commit(&ez);
  struct faces f;
  make_faces(&f, 0);
  make_faces(&f, 1);
  make_faces(&f, 2);

  MPI_Sendrecv(u, 1, ix, next, 0, r, 1, ix, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  bad += check(0, prev, r, &sum);
  MPI_Sendrecv(u, 1, iy, next, 1, r, 1, iy, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  bad += check(1, prev, r, &sum);
  MPI_Sendrecv(u, 1, iz, next, 2, r, 1, iz, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  bad += check(2, prev, r, &sum);
  MPI_Sendrecv(u, 1, sx, next, 0, r, 1, sx, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  bad += check(0, prev, r, &sum);
  MPI_Sendrecv(u, 1, sy, next, 1, r, 1, sy, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  bad += check(1, prev, r, &sum);
  MPI_Sendrecv(u, 1, sz, next, 2, r, 1, sz, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  bad += check(2, prev, r, &sum);
  MPI_Sendrecv(u, 1, ez, next, 2, r, 1, ez, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  bad += check(2, prev, r, &sum);
  MPI_Sendrecv(u, 1, f.x, next, 0, r, 1, f.x, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  bad += check(0, prev, r, &sum);
  MPI_Sendrecv(u, 1, f.y, next, 1, r, 1, f.y, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  bad += check(1, prev, r, &sum);
  MPI_Sendrecv(u, 1, f.z, next, 2, r, 1, f.z, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  bad += check(2, prev, r, &sum);

  int all_bad = 0;
  double all_sum = 0;
  MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&sum, &all_sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("branch_helpers: %d wrong cells, checksum %.1f\n", all_bad, all_sum);

  MPI_Type_free(&ix);
  MPI_Type_free(&iy);
  MPI_Type_free(&iz);
  MPI_Type_free(&sx);
  MPI_Type_free(&sy);
  MPI_Type_free(&sz);
  MPI_Type_free(&ez);
  MPI_Type_free(&f.x);
  MPI_Type_free(&f.y);
  MPI_Type_free(&f.z);
  MPI_Finalize();
  return all_bad != 0;
}
