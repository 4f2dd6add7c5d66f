/* Packing and the all-to-all family with derived types: MPI_Pack_size / MPI_Pack / MPI_Unpack of a
 * strided field into a message buffer sent as MPI_PACKED, MPI_Alltoallv with a column type, and
 * MPI_Alltoallw with a local array of per-peer types, and both in place (MPI_IN_PLACE: the
 * receive side alone describes what is sent and received).
 * NP: 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R 8
#define C 8
#define MAXP 8

int main(int argc, char **argv) {
  int rank, size, i, j, p;
  double m[R][C], out[R][C];
  MPI_Datatype diag, col, colr, rowblk, rdiag;
  double sums[5] = {0}, *all = NULL;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > MAXP || C % size) MPI_Abort(MPI_COMM_WORLD, 1);

  for (i = 0; i < R; ++i)
    for (j = 0; j < C; ++j) m[i][j] = rank * 100 + i * C + j;

  MPI_Type_vector(R, 1, C + 1, MPI_DOUBLE, &diag);
  MPI_Type_commit(&diag);
  MPI_Type_vector(R, 1, C, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, sizeof(double), &colr);
  MPI_Type_commit(&colr);
  MPI_Type_contiguous(C, MPI_DOUBLE, &rowblk);
  MPI_Type_commit(&rowblk);
  MPI_Type_vector(R, 1, C + 2, MPI_DOUBLE, &rdiag);   /* diagonal of an R x (C+1) array */
  MPI_Type_commit(&rdiag);

  /* 1. Pack the diagonal and two columns into one buffer, send it as MPI_PACKED. */
  {
    int sz1, sz2, total, pos = 0, next = (rank + 1) % size, prev = (rank + size - 1) % size;
    char *sbuf, *rbuf;
    MPI_Status st;
    int got;
    MPI_Pack_size(1, diag, MPI_COMM_WORLD, &sz1);
    MPI_Pack_size(2, colr, MPI_COMM_WORLD, &sz2);
    total = sz1 + sz2;
    sbuf = malloc(total);
    rbuf = malloc(total);
    MPI_Pack(m, 1, diag, sbuf, total, &pos, MPI_COMM_WORLD);
    MPI_Pack(&m[0][3], 2, colr, sbuf, total, &pos, MPI_COMM_WORLD);
    MPI_Sendrecv(sbuf, pos, MPI_PACKED, next, 0, rbuf, total, MPI_PACKED, prev, 0, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_PACKED, &got);
    memset(out, 0, sizeof out);
    pos = 0;
    MPI_Unpack(rbuf, got, &pos, &out[0][0], 1, diag, MPI_COMM_WORLD);
    MPI_Unpack(rbuf, got, &pos, &out[0][5], 2, colr, MPI_COMM_WORLD);
    for (i = 0; i < R; ++i)
      for (j = 0; j < C; ++j) sums[0] += out[i][j] * (i * 3 + j + 1);
    sums[0] += 1e7 * got + 1e9 * total;
    if (rank == 0) {
      printf("pack: sizes %d + %d, packed %d bytes, row 7 of unpacked:", sz1, sz2, got);
      for (j = 0; j < C; ++j) printf(" %.0f", out[7][j]);
      printf("\n");
    }
    free(sbuf);
    free(rbuf);
  }

  /* 2. Alltoallv: C/size columns to each peer, received as whole rows. */
  {
    int scounts[MAXP], sdispls[MAXP], rcounts[MAXP], rdispls[MAXP];
    int per = C / size;
    double rrows[R * C];
    for (p = 0; p < size; ++p) {
      scounts[p] = per;
      sdispls[p] = p * per;
      rcounts[p] = per * R;
      rdispls[p] = p * per * R;
    }
    MPI_Alltoallv(m, scounts, sdispls, colr, rrows, rcounts, rdispls, MPI_DOUBLE, MPI_COMM_WORLD);
    for (i = 0; i < size * per * R; ++i) sums[1] += rrows[i] * (i % 9 + 1);
  }

  /* 3. Alltoallw: peer p gets row p (a contiguous type); odd peers' rows land on a diagonal. */
  {
    MPI_Datatype stypes[MAXP], rtypes[MAXP];
    int sc[MAXP], sd[MAXP], rc[MAXP], rd[MAXP];
    static double recv_area[MAXP][R][C + 1];
    for (p = 0; p < MAXP; ++p) {
      stypes[p] = rowblk;
      rtypes[p] = p % 2 ? rdiag : MPI_DOUBLE;
      sc[p] = 1;
      sd[p] = (int)(p * C * sizeof(double));
      rc[p] = p % 2 ? 1 : C;
      rd[p] = (int)(p * R * (C + 1) * sizeof(double));
    }
    memset(recv_area, 0, sizeof recv_area);
    MPI_Alltoallw(m, sc, sd, stypes, recv_area, rc, rd, rtypes, MPI_COMM_WORLD);
    for (p = 0; p < size; ++p)
      for (i = 0; i < R; ++i)
        for (j = 0; j <= C; ++j) sums[2] += recv_area[p][i][j] * (p + 1) * (i + j + 2);
  }

  /* 4. In place: column p of a copy of m goes to peer p, which puts its own column there. */
  {
    double w[R][C], v[R][C];
    int ic[MAXP], idv[MAXP], idw[MAXP];
    MPI_Datatype itypes[MAXP];
    memcpy(w, m, sizeof w);
    memcpy(v, m, sizeof v);
    for (p = 0; p < MAXP; ++p) {
      ic[p] = 1;
      idv[p] = p;                                /* in extents of colr: one double */
      idw[p] = (int)(p * sizeof(double));        /* in bytes */
      itypes[p] = colr;
    }
    MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, w, ic, idw, itypes, MPI_COMM_WORLD);
    MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, v, ic, idv, colr, MPI_COMM_WORLD);
    for (i = 0; i < R; ++i)
      for (j = 0; j < C; ++j) {
        sums[3] += w[i][j] * (i * C + j + 1);
        sums[4] += v[i][j] * (i + 2 * j + 1);
      }
  }

  if (rank == 0) all = malloc(5 * size * sizeof(double));
  MPI_Gather(sums, 5, MPI_DOUBLE, all, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (p = 0; p < size; ++p)
      printf("rank %d: pack %.1f alltoallv %.1f alltoallw %.1f in place w %.1f v %.1f\n", p,
             all[5 * p], all[5 * p + 1], all[5 * p + 2], all[5 * p + 3], all[5 * p + 4]);
    free(all);
  }
  MPI_Type_free(&diag);
  MPI_Type_free(&col);
  MPI_Type_free(&colr);
  MPI_Type_free(&rowblk);
  MPI_Type_free(&rdiag);
  MPI_Finalize();
  return 0;
}
