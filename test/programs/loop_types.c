/* Datatypes built by counted loops into arrays, as real halo codes write them: the three
 * interior faces of a cube from rows of 2-D subsizes/starts arrays (one subarray per direction),
 * and per direction a column type with a plane of columns built from it in the same iteration.
 * Each face and each plane goes around a ring with one Irecv/Isend per direction (the datatype
 * read through the loop index) into a zeroed buffer; every received element is checked against
 * the closed form of what the left neighbour sent, and the checksum is printed.
 * NP: 3 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define N 6
#define R 1
#define NT (N + 2 * R)
#define AT(x, y, z) (((x) * NT + (y)) * NT + (z))
#define NCELLS (NT * NT * NT)

static double value(int rank, int i) { return rank * 100000.0 + i; }

/* Whether cell (x, y, z) is in face d (thickness R at the low interior side of dimension d). */
static int in_face(int d, int x, int y, int z) {
  int c[3] = {x, y, z};
  for (int k = 0; k < 3; ++k) {
    int lo = R, hi = (k == d) ? 2 * R : R + N;
    if (c[k] < lo || c[k] >= hi) return 0;
  }
  return 1;
}

/* Whether cell (x, y, z) is in plane type d: N planes of N rows of d+1 elements from the corner. */
static int in_plane(int d, int x, int y, int z) { return x < N && y < N && z <= d; }

int main(int argc, char **argv) {
  int rank, size, left, right, errors = 0, all = 0, d, i;
  static double a[NCELLS], b[3][NCELLS], p[3][NCELLS];
  int sizes[3] = {NT, NT, NT};
  int subsizes[3][3] = {{R, N, N}, {N, R, N}, {N, N, R}};
  int starts[3][3] = {{R, R, R}, {R, R, R}, {R, R, R}};
  MPI_Datatype face[3], col[3], plane[3];
  MPI_Request reqs[12];
  double sum = 0.0, total = 0.0;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;

  for (d = 0; d < 3; d++) {
    MPI_Type_create_subarray(3, sizes, subsizes[d], starts[d], MPI_ORDER_C, MPI_DOUBLE, &face[d]);
    MPI_Type_commit(&face[d]);
  }
  for (int k = 0; k < 3; ++k) {
    MPI_Type_vector(N, k + 1, NT, MPI_DOUBLE, &col[k]);
    MPI_Type_create_hvector(N, 1, NT * NT * sizeof(double), col[k], &plane[k]);
    MPI_Type_commit(&plane[k]);
  }

  for (i = 0; i < NCELLS; ++i) a[i] = value(rank, i);
  memset(b, 0, sizeof b);
  memset(p, 0, sizeof p);
  for (d = 0; d < 3; d++) {
    MPI_Irecv(b[d], 1, face[d], left, d, MPI_COMM_WORLD, &reqs[4 * d]);
    MPI_Irecv(p[d], 1, plane[d], left, 3 + d, MPI_COMM_WORLD, &reqs[4 * d + 1]);
    MPI_Isend(a, 1, face[d], right, d, MPI_COMM_WORLD, &reqs[4 * d + 2]);
    MPI_Isend(a, 1, plane[d], right, 3 + d, MPI_COMM_WORLD, &reqs[4 * d + 3]);
  }
  MPI_Waitall(12, reqs, MPI_STATUSES_IGNORE);

  for (d = 0; d < 3; d++)
    for (int x = 0; x < NT; ++x)
      for (int y = 0; y < NT; ++y)
        for (int z = 0; z < NT; ++z) {
          double want = in_face(d, x, y, z) ? value(left, AT(x, y, z)) : 0.0;
          if (b[d][AT(x, y, z)] != want) ++errors;
          sum += b[d][AT(x, y, z)];
          want = in_plane(d, x, y, z) ? value(left, AT(x, y, z)) : 0.0;
          if (p[d][AT(x, y, z)] != want) ++errors;
          sum += p[d][AT(x, y, z)];
        }

  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("loop_types: %d wrong elements, checksum %.1f\n", all, total);
  for (d = 0; d < 3; d++) {
    MPI_Type_free(&face[d]);
    MPI_Type_free(&plane[d]);
    MPI_Type_free(&col[d]);
  }
  MPI_Finalize();
  return all != 0;
}
