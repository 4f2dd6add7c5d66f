/* Problem sizes from the command line (types NOT known at compile time) next to sizes from
 * #define, const int, enum constants and static arrays (known). Ranks exchange blocks of a 2-D
 * array with both kinds of type and rank 0 prints checksums gathered in rank order.
 * NP: 4
 * ARGS: 12 5 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64
enum { BLOCK = 4, STRIDE = 2 * BLOCK, NBLK = N / STRIDE };
static const int halo_width = 2;
static int static_lens[3] = {2, 4, 6};

static double checksum(const double *a, int n) {
  double s = 0.0;
  int i;
  for (i = 0; i < n; ++i) s += a[i] * ((i * 7) % 11 + 1);
  return s;
}

int main(int argc, char **argv) {
  int rank, size, peer, i, nrows, ncols, results_n = 0;
  const int lead = N + 1;
  double *a, *b, results[8] = {0}, *all = NULL;
  MPI_Datatype dyn_col, dyn_block, fixed_blocks, fixed_halo, idx_static;
  int idx_disp[3] = {0, 10, 30};

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  nrows = argc > 1 ? atoi(argv[1]) : 8;
  ncols = argc > 2 ? atoi(argv[2]) : 3;
  if (nrows < 1 || nrows > N || ncols < 1 || ncols > N) MPI_Abort(MPI_COMM_WORLD, 2);
  peer = (rank + size / 2) % size;

  a = malloc(sizeof(double) * N * lead);
  b = malloc(sizeof(double) * N * lead);
  for (i = 0; i < N * lead; ++i) {
    a[i] = rank * 1.0e5 + i;
    b[i] = 0.0;
  }

  /* Run-time shapes. */
  MPI_Type_vector(nrows, 1, lead, MPI_DOUBLE, &dyn_col);
  MPI_Type_commit(&dyn_col);
  MPI_Type_vector(nrows, ncols, lead, MPI_DOUBLE, &dyn_block);
  MPI_Type_commit(&dyn_block);
  /* Compile-time shapes. */
  MPI_Type_vector(NBLK, BLOCK, STRIDE, MPI_DOUBLE, &fixed_blocks);
  MPI_Type_commit(&fixed_blocks);
  MPI_Type_vector(N, halo_width, lead, MPI_DOUBLE, &fixed_halo);
  MPI_Type_commit(&fixed_halo);
  MPI_Type_indexed(3, static_lens, idx_disp, MPI_DOUBLE, &idx_static);
  MPI_Type_commit(&idx_static);

  MPI_Sendrecv(a + 3, 1, dyn_col, peer, 0, b + 5, 1, dyn_col, peer, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  results[results_n++] = checksum(b, N * lead);
  MPI_Sendrecv(a + lead, 2, dyn_block, peer, 1, b, 2, dyn_block, peer, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  results[results_n++] = checksum(b, N * lead);
  MPI_Sendrecv(a, 3, fixed_blocks, peer, 2, b + 7, 3, fixed_blocks, peer, 2, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  results[results_n++] = checksum(b, N * lead);
  MPI_Sendrecv(a + N - halo_width, 1, fixed_halo, peer, 3, b, 1, fixed_halo, peer, 3,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  results[results_n++] = checksum(b, N * lead);
  /* Predefined type on the send side, a compile-time indexed type on the receive side. */
  if (nrows * ncols >= 12) {
    MPI_Status st;
    int cnt;
    MPI_Sendrecv(a, 12, MPI_DOUBLE, peer, 4, b + 100, 1, idx_static, peer, 4, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, idx_static, &cnt);
    results[results_n++] = checksum(b, N * lead) + cnt;
  }
  if (rank == 0) all = malloc(sizeof(double) * 8 * size);
  MPI_Gather(results, 8, MPI_DOUBLE, all, 8, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    int r, k;
    printf("nrows %d ncols %d\n", nrows, ncols);
    for (r = 0; r < size; ++r) {
      printf("rank %d:", r);
      for (k = 0; k < results_n; ++k) printf(" %.1f", all[8 * r + k]);
      printf("\n");
    }
    free(all);
  }
  MPI_Type_free(&dyn_col);
  MPI_Type_free(&dyn_block);
  MPI_Type_free(&fixed_blocks);
  MPI_Type_free(&fixed_halo);
  MPI_Type_free(&idx_static);
  free(a);
  free(b);
  MPI_Finalize();
  return 0;
}
