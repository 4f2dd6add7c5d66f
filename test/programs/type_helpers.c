/* Datatypes built in helpers and loops, freed and rebuilt in the same variable, duplicated;
 * indexed / hindexed / indexed_block from local arrays; a contiguous of a vector. Ranks pair up
 * (0<->1, 2<->3) and exchange; every receive buffer is hashed and rank 0 prints the table.
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEN 96
#define NTESTS 9

static MPI_Datatype make_strided(int count, int blk, int stride) {
  MPI_Datatype t;
  MPI_Type_vector(count, blk, stride, MPI_INT, &t);
  MPI_Type_commit(&t);
  return t;
}

static MPI_Datatype make_tiles(void) {
  MPI_Datatype row, tiles;
  MPI_Type_vector(3, 2, 6, MPI_INT, &row);
  MPI_Type_contiguous(4, row, &tiles);     /* contiguous of a vector */
  MPI_Type_free(&row);
  MPI_Type_commit(&tiles);
  return tiles;
}

static long hash(const int *b) {
  long h = 0;
  int i;
  for (i = 0; i < LEN; ++i) h = (h * 31 + b[i] + 7) % 1000000007L;
  return h;
}

static void fill(int *s, int *r, int rank) {
  int i;
  for (i = 0; i < LEN; ++i) {
    s[i] = rank * 1000 + i;
    r[i] = -1;
  }
}

int main(int argc, char **argv) {
  int rank, size, peer, k, i, test = 0;
  int sbuf[LEN], rbuf[LEN];
  long h[NTESTS], *table = NULL;
  MPI_Datatype t, t2, idx, hidx, iblk;
  MPI_Status st;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  peer = rank ^ 1;
  if (peer >= size) peer = MPI_PROC_NULL;

  /* 1. helper with constant arguments */
  t = make_strided(4, 3, 10);
  fill(sbuf, rbuf, rank);
  MPI_Sendrecv(sbuf, 2, t, peer, 1, rbuf, 2, t, peer, 1, MPI_COMM_WORLD, &st);
  h[test++] = hash(rbuf);
  MPI_Type_free(&t);

  /* 2. the same variable rebuilt with another shape */
  MPI_Type_vector(5, 1, 7, MPI_INT, &t);
  MPI_Type_commit(&t);
  fill(sbuf, rbuf, rank);
  MPI_Sendrecv(sbuf + 1, 1, t, peer, 2, rbuf + 2, 1, t, peer, 2, MPI_COMM_WORLD, &st);
  h[test++] = hash(rbuf);

  /* 3. a duplicate of it, then t freed and rebuilt as a contiguous type */
  MPI_Type_dup(t, &t2);
  MPI_Type_free(&t);
  MPI_Type_contiguous(6, MPI_INT, &t);
  MPI_Type_commit(&t);
  fill(sbuf, rbuf, rank);
  if (rank % 2 == 0) {
    MPI_Send(sbuf, 3, t2, peer, 3, MPI_COMM_WORLD);
    MPI_Send(sbuf + 40, 2, t, peer, 4, MPI_COMM_WORLD);
  } else if (peer != MPI_PROC_NULL) {
    MPI_Recv(rbuf, 3, t2, peer, 3, MPI_COMM_WORLD, &st);
    MPI_Recv(rbuf + 60, 2, t, peer, 4, MPI_COMM_WORLD, &st);
  }
  h[test++] = hash(rbuf);
  MPI_Type_free(&t2);
  MPI_Type_free(&t);

  /* 4-6. a type rebuilt in a loop with a shape that changes every iteration */
  for (k = 1; k <= 3; ++k) {
    MPI_Type_vector(k + 1, k, k + 3, MPI_INT, &t);
    MPI_Type_commit(&t);
    fill(sbuf, rbuf, rank);
    MPI_Sendrecv(sbuf + k, 2, t, peer, 10 + k, rbuf, 2, t, peer, 10 + k, MPI_COMM_WORLD, &st);
    h[test++] = hash(rbuf);
    MPI_Type_free(&t);
  }

  /* 7. indexed, hindexed, indexed_block from local arrays */
  {
    int bl[4] = {1, 3, 2, 4}, disp[4] = {0, 5, 12, 20};
    int hbl[3] = {2, 3, 5};
    MPI_Aint hdisp[3] = {4 * sizeof(int), 17 * sizeof(int), 30 * sizeof(int)};
    int bdisp[5] = {1, 9, 4, 30, 22};
    MPI_Type_indexed(4, bl, disp, MPI_INT, &idx);
    MPI_Type_create_hindexed(3, hbl, hdisp, MPI_INT, &hidx);
    MPI_Type_create_indexed_block(5, 3, bdisp, MPI_INT, &iblk);
    MPI_Type_commit(&idx);
    MPI_Type_commit(&hidx);
    MPI_Type_commit(&iblk);
    fill(sbuf, rbuf, rank);
    MPI_Sendrecv(sbuf, 1, idx, peer, 20, rbuf, 1, hidx, peer, 20, MPI_COMM_WORLD, &st);
    MPI_Sendrecv(sbuf + 50, 1, iblk, peer, 21, rbuf + 50, 15, MPI_INT, peer, 21, MPI_COMM_WORLD, &st);
    h[test++] = hash(rbuf);
    MPI_Type_free(&idx);
    MPI_Type_free(&hidx);
    MPI_Type_free(&iblk);
  }

  /* 8. contiguous of a vector, built by a helper */
  t = make_tiles();
  fill(sbuf, rbuf, rank);
  MPI_Sendrecv(sbuf, 1, t, peer, 30, rbuf + 3, 1, t, peer, 30, MPI_COMM_WORLD, &st);
  h[test++] = hash(rbuf);
  MPI_Type_free(&t);

  /* 9. a loop-invariant type built and freed every iteration */
  fill(sbuf, rbuf, rank);
  for (k = 0; k < 4; ++k) {
    MPI_Datatype v;
    MPI_Type_vector(3, 2, 8, MPI_INT, &v);
    MPI_Type_commit(&v);
    MPI_Sendrecv(sbuf + 20 * k, 1, v, peer, 40 + k, rbuf + 20 * k + 1, 1, v, peer, 40 + k,
                 MPI_COMM_WORLD, &st);
    MPI_Type_free(&v);
  }
  h[test++] = hash(rbuf);

  if (rank == 0) {
    printf("rank 0 last buffer:");
    for (i = 0; i < LEN; ++i) printf(" %d", rbuf[i]);
    printf("\n");
  }
  if (rank == 0) table = (long *)malloc(sizeof(long) * NTESTS * size);
  MPI_Gather(h, NTESTS, MPI_LONG, table, NTESTS, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (k = 0; k < NTESTS; ++k) {
      printf("test %d:", k + 1);
      for (i = 0; i < size; ++i) printf(" %10ld", table[i * NTESTS + k]);
      printf("\n");
    }
    free(table);
  }
  MPI_Finalize();
  return 0;
}
