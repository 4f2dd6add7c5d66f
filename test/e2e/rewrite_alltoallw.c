/* End-to-end (tempi-rewrite): MPI_Alltoallw and MPI_Neighbor_alltoallw with per-peer datatype
 * arrays whose every element is proven (constructors writing &send[k], copies, predefined types),
 * so both calls get arrays of static plans. A block transpose: each rank sends peer p a B x B
 * block with a different type per peer, and exchanges columns with its two neighbours on a ring.
 * Rewritten by tempi-rewrite, run with 4 ranks on host buffers; the received data must equal the
 * unmodified program's byte for byte.   rewrite_alltoallw <output-dir> */
#include <mpi.h>
#include <stdio.h>

#define B 8 /* block edge: each rank owns B rows of a B x (4 B) matrix; at most 4 ranks */

int main(int argc, char **argv) {
  int rank, size, p, i, j;
  double a[B][B * 4], t[B][B * 4], n[2][B];
  MPI_Datatype col, col1, send[4], recv[4], nsend[2], nrecv[2];
  int counts[4], sdispls[4], rdispls[4], ncounts[2] = {1, B};
  MPI_Aint nsdispls[2] = {0, B * sizeof(double)}, nrdispls[2] = {0, B * sizeof(double)};
  int dims[1], periods[1] = {1};
  MPI_Comm ring;
  char path[4096];
  FILE *f;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 4)
    MPI_Abort(MPI_COMM_WORLD, 2);
  for (i = 0; i < B; ++i)
    for (j = 0; j < B * 4; ++j) {
      a[i][j] = (rank * B + i) * 1000 + j;
      t[i][j] = -1;
    }
  for (i = 0; i < 2; ++i)
    for (j = 0; j < B; ++j)
      n[i][j] = -1;
  /* Send types, one per peer: the transposed block (B columns resized to one double), the same
   * again, the block's rows, and B*B plain doubles from the block's first row on. */
  MPI_Type_vector(B, 1, B * 4, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, sizeof(double), &col1);
  MPI_Type_contiguous(B, col1, &send[0]);
  MPI_Type_commit(&send[0]);
  send[1] = send[0];
  MPI_Type_vector(B, B, B * 4, MPI_DOUBLE, &send[2]);
  MPI_Type_commit(&send[2]);
  send[3] = MPI_DOUBLE;
  /* Receive types, one per peer: the block's rows (the same type twice), the transposed block,
   * and the rows again through a copy. */
  MPI_Type_vector(B, B, B * 4, MPI_DOUBLE, &recv[0]);
  MPI_Type_commit(&recv[0]);
  recv[1] = recv[0];
  recv[2] = send[0];
  recv[3] = send[2];
  for (p = 0; p < 4; ++p) {
    counts[p] = 1;
    sdispls[p] = (int)(p * B * sizeof(double));
    rdispls[p] = (int)(p * B * sizeof(double));
  }
  {
    int scounts[4] = {1, 1, 1, B * B};
    MPI_Alltoallw(a, scounts, sdispls, send, t, counts, rdispls, recv, MPI_COMM_WORLD);
  }
  /* A ring: to the left neighbour one column of the local matrix, to the right one row; the
   * receive side takes both as B contiguous doubles. */
  dims[0] = size;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  nsend[0] = col;
  nsend[1] = MPI_DOUBLE;
  MPI_Type_commit(&col);
  MPI_Type_contiguous(B, MPI_DOUBLE, &nrecv[0]);
  MPI_Type_commit(&nrecv[0]);
  nrecv[1] = MPI_DOUBLE;
  {
    int nrcounts[2] = {1, B};
    MPI_Neighbor_alltoallw(a, ncounts, nsdispls, nsend, n, nrcounts, nrdispls, nrecv, ring);
  }
  snprintf(path, sizeof path, "%s/rank%d.txt", argc > 1 ? argv[1] : ".", rank);
  f = fopen(path, "w");
  if (!f)
    return 1;
  for (i = 0; i < B; ++i)
    for (j = 0; j < B * size; ++j)
      fprintf(f, "t %d %d %.17g\n", i, j, t[i][j]);
  for (i = 0; i < 2; ++i)
    for (j = 0; j < B; ++j)
      fprintf(f, "n %d %d %.17g\n", i, j, n[i][j]);
  fclose(f);
  MPI_Comm_free(&ring);
  MPI_Type_free(&nrecv[0]);
  MPI_Type_free(&recv[0]);
  MPI_Type_free(&send[2]);
  MPI_Type_free(&send[0]);
  MPI_Type_free(&col1);
  MPI_Type_free(&col);
  MPI_Finalize();
  return 0;
}
