/* End-to-end (tempi-rewrite): the MPI-4 large-count (_c) calls rewritten into tempi.h's tempi_X_c
 * entry points: a vector type exchanged around a ring with MPI_Irecv_c/MPI_Isend_c (a deferred
 * send: MPI_Waitall follows), MPI_Sendrecv_c, MPI_Send_c/MPI_Recv_c between neighbours, and
 * MPI_Pack_size_c/MPI_Pack_c/MPI_Unpack_c. Rewritten by tempi-rewrite, run with 4 ranks on host
 * buffers; every rank's results must equal the unmodified program's byte for byte.
 *   rewrite_large_count <output-dir>                   (only built where the MPI has _c calls) */
#include <mpi.h>
#include <stdio.h>

#define N 64

int main(int argc, char **argv) {
  int rank, size, i;
  double a[N], b[N], c[N], d[N], e[N];
  char packed[N * sizeof(double)];
  MPI_Count position = 0, packsize = 0;
  MPI_Datatype v;
  MPI_Request req[2];
  char path[4096];
  FILE *f;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (i = 0; i < N; ++i) {
    a[i] = rank * 1000 + i;
    b[i] = c[i] = d[i] = e[i] = -1;
  }
  MPI_Type_vector_c(5, 2, 7, MPI_DOUBLE, &v);
  MPI_Type_commit(&v);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;

  MPI_Irecv_c(b, 1, v, prev, 1, MPI_COMM_WORLD, &req[0]);
  MPI_Isend_c(a, 1, v, next, 1, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);

  MPI_Sendrecv_c(a + 1, 1, v, next, 2, c, 1, v, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

  if (rank % 2 == 0) {
    MPI_Send_c(a + 3, 1, v, next, 3, MPI_COMM_WORLD);
    MPI_Recv_c(d, 1, v, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv_c(d, 1, v, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send_c(a + 3, 1, v, next, 3, MPI_COMM_WORLD);
  }

  MPI_Pack_size_c(1, v, MPI_COMM_WORLD, &packsize);
  MPI_Pack_c(a, 1, v, packed, sizeof packed, &position, MPI_COMM_WORLD);
  MPI_Count packed_bytes = position;
  position = 0;
  MPI_Unpack_c(packed, sizeof packed, &position, e, 1, v, MPI_COMM_WORLD);

  snprintf(path, sizeof path, "%s/rank%d.txt", argc > 1 ? argv[1] : ".", rank);
  f = fopen(path, "w");
  if (!f)
    return 1;
  fprintf(f, "pack_size %lld packed %lld unpacked %lld\n", (long long)packsize,
          (long long)packed_bytes, (long long)position);
  for (i = 0; i < N; ++i)
    fprintf(f, "%d %g %g %g %g\n", i, b[i], c[i], d[i], e[i]);
  fclose(f);
  MPI_Type_free(&v);
  MPI_Finalize();
  return 0;
}
