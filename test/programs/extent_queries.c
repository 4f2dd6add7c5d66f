/* Datatypes whose strides and counts come from MPI_Type_size and MPI_Type_get_extent of other
 * derived types, as codes compose a 3-D face from a 2-D one: planes of a column type one column
 * extent (plus a gap) apart, rows of a contiguous block two block extents apart, a particle
 * struct resized to its C size and strided by that extent, a byte block as long as a column's
 * size, and a column resized to one double strided by its true extent (MPI_Type_get_true_extent).
 * Each rank sends every type to its right neighbour into a buffer filled with -1; the receiver
 * checks the whole buffer against the MPI's own MPI_Pack/MPI_Unpack of the neighbour's values
 * with the same type, and the checksum is printed.
 * NP: 3 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define N 8
#define ALL (4 * N * N)

struct particle {
  double x, y;
  int id;
};

static double value(int rank, int i) { return rank * 10000.0 + i; }

static double send[ALL], recv[ALL];

static void fill(int rank) {
  for (int i = 0; i < ALL; ++i) {
    send[i] = value(rank, i);
    recv[i] = -1.0;
  }
}

/* recv must hold what `t` applied to the left neighbour's values gives: the MPI's own
 * MPI_Pack of those values, unpacked into -1s. */
static int check(MPI_Datatype t, int left, double *sum) {
  static double want[ALL], src[ALL];
  static char packed[ALL * sizeof(double)];
  int errors = 0, pos = 0;
  for (int i = 0; i < ALL; ++i) {
    src[i] = value(left, i);
    want[i] = -1.0;
  }
  MPI_Pack(src, 1, t, packed, sizeof packed, &pos, MPI_COMM_SELF);
  pos = 0;
  MPI_Unpack(packed, sizeof packed, &pos, want, 1, t, MPI_COMM_SELF);
  for (int i = 0; i < ALL; ++i) {
    if (memcmp(&recv[i], &want[i], sizeof(double)) != 0) ++errors;
    *sum += recv[i] * (1 + i % 5);
  }
  return errors;
}

int main(int argc, char **argv) {
  int rank, size, errors = 0, all = 0;
  double sum = 0.0, total = 0.0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;

  /* Planes of a column: stride = the column's extent plus its size. */
  MPI_Datatype column, planes;
  MPI_Aint lb, extent;
  int column_bytes;
  MPI_Type_vector(N, 1, N, MPI_DOUBLE, &column);
  MPI_Type_size(column, &column_bytes);
  MPI_Type_get_extent(column, &lb, &extent);
  MPI_Type_create_hvector(2, 1, extent + column_bytes, column, &planes);
  MPI_Type_commit(&planes);
  fill(rank);
  MPI_Sendrecv(send, 1, planes, right, 0, recv, 1, planes, left, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  errors += check(planes, left, &sum);

  /* Rows of a contiguous block, two block extents apart. */
  MPI_Datatype block, rows;
  MPI_Aint blb, bextent;
  MPI_Type_contiguous(3, MPI_DOUBLE, &block);
  MPI_Type_get_extent(block, &blb, &bextent);
  MPI_Type_create_hvector(N, 1, 2 * bextent, block, &rows);
  MPI_Type_commit(&rows);
  fill(rank);
  MPI_Sendrecv(send, 1, rows, right, 1, recv, 1, rows, left, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  errors += check(rows, left, &sum);

  /* A particle struct resized to its C size, every other particle. */
  MPI_Datatype particle, fixed, every_other;
  MPI_Aint plb, pextent;
  int bl[3] = {1, 1, 1};
  MPI_Aint disp[3] = {offsetof(struct particle, x), offsetof(struct particle, y),
                      offsetof(struct particle, id)};
  MPI_Datatype types[3] = {MPI_DOUBLE, MPI_DOUBLE, MPI_INT};
  MPI_Type_create_struct(3, bl, disp, types, &particle);
  MPI_Type_create_resized(particle, 0, sizeof(struct particle), &fixed);
  MPI_Type_get_extent(fixed, &plb, &pextent);
  MPI_Type_create_hvector(4, 1, 2 * pextent, fixed, &every_other);
  MPI_Type_commit(&every_other);
  fill(rank);
  MPI_Sendrecv(send, 1, every_other, right, 2, recv, 1, every_other, left, 2, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  errors += check(every_other, left, &sum);

  /* A byte block as long as the column's packed size, at a column's extent. */
  MPI_Datatype bytes, spaced;
  MPI_Type_contiguous(column_bytes, MPI_BYTE, &bytes);
  MPI_Type_create_hvector(2, 1, extent, bytes, &spaced);
  MPI_Type_commit(&spaced);
  fill(rank);
  MPI_Sendrecv(send, 1, spaced, right, 3, recv, 1, spaced, left, 3, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  errors += check(spaced, left, &sum);

  /* A column resized to one double (its extent 8), two of them one true extent plus a double
   * apart: the stride comes from MPI_Type_get_true_extent, which ignores the resize. */
  MPI_Datatype colres, spread;
  MPI_Aint tlb, textent;
  MPI_Type_create_resized(column, 0, sizeof(double), &colres);
  MPI_Type_get_true_extent(colres, &tlb, &textent);
  MPI_Type_create_hvector(2, 1, tlb + textent + (MPI_Aint)sizeof(double), colres, &spread);
  MPI_Type_commit(&spread);
  fill(rank);
  MPI_Sendrecv(send, 1, spread, right, 4, recv, 1, spread, left, 4, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  errors += check(spread, left, &sum);

  MPI_Type_free(&spread);
  MPI_Type_free(&colres);
  MPI_Type_free(&planes);
  MPI_Type_free(&rows);
  MPI_Type_free(&every_other);
  MPI_Type_free(&spaced);
  MPI_Type_free(&column);
  MPI_Type_free(&block);
  MPI_Type_free(&particle);
  MPI_Type_free(&fixed);
  MPI_Type_free(&bytes);

  MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("extent_queries: 5 types from derived sizes and extents, %d wrong elements, checksum "
           "%.1f\n",
           all, total);
  MPI_Finalize();
  return all != 0;
}
