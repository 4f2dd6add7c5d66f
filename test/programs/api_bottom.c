/* Datatypes on absolute addresses and portable representations, as a struct-of-arrays particle
 * code and a checkpoint writer use them:
 *  - three separate coordinate arrays sent as interleaved (x, y, z) triples: an hindexed of
 *    MPI_DOUBLE on the MPI_Get_address of x[0], y[0], z[0], resized to extent sizeof(double),
 *    sent with buffer MPI_BOTTOM and count NP (one triple per particle), received as plain
 *    doubles and, the other way round, received with the same kind of type on MPI_BOTTOM;
 *  - a run header {double dt[3], int steps[4], char tag[8]} spread over three objects, a struct
 *    type on absolute addresses broadcast with MPI_Bcast(MPI_BOTTOM, 1, ...);
 *  - MPI_Gather with MPI_BOTTOM on both sides: each rank's (x, y) blocks from two local arrays,
 *    and at the root a receive type on two global arrays resized to one rank's share; a struct
 *    of (x doubles, q ints) on absolute addresses sent to a neighbour as MPI_PACKED bytes;
 *  - MPI_Pack_external / MPI_Unpack_external ("external32", big-endian) of a vector of ints and
 *    of a strided pair of doubles, sizes from MPI_Pack_external_size, the packed bytes sent as
 *    MPI_BYTE (MPICH 4.0.2 faults on external32 of a struct of mixed types, so none here);
 *  - MPI_Type_match_size and MPI_Type_create_f90_real / _integer element types inside vectors.
 * Every received value is checked; rank 0 prints a transcript.
 * NP: 3 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define NP 5   /* particles per rank */
#define MAXR 8

static int errs = 0;
#define EXPECT(cond, ...)                                                                    \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      ++errs;                                                                                \
      printf("check failed (line %d): ", __LINE__);                                          \
      printf(__VA_ARGS__);                                                                   \
      printf("\n");                                                                         \
    }                                                                                        \
  } while (0)

static double coord(int r, int p, int c) { return r * 100.0 + p * 10.0 + c + 0.25; }

int main(int argc, char **argv) {
  int rank, size, right, left, i, p, all;
  double x[NP], y[NP], z[NP], flat[3 * NP];
  double rx[NP], ry[NP], rz[NP];
  double dt[3];
  int steps[4];
  char tag[8];
  double lx[NP], ly[NP];
  int lq[NP];
  double gx[MAXR * NP], gy[MAXR * NP];
  int gq[MAXR * NP];
  MPI_Datatype trip0, trip, rtrip0, rtrip, header, gsend, xysend, grecv0, grecv;
  MPI_Status st;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > MAXR) MPI_Abort(MPI_COMM_WORLD, 2);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  for (p = 0; p < NP; ++p) {
    x[p] = coord(rank, p, 0);
    y[p] = coord(rank, p, 1);
    z[p] = coord(rank, p, 2);
  }

  /* Interleaved triples from three arrays. */
  {
    int bl[3] = {1, 1, 1};
    MPI_Aint d[3];
    MPI_Get_address(&x[0], &d[0]);
    MPI_Get_address(&y[0], &d[1]);
    MPI_Get_address(&z[0], &d[2]);
    MPI_Type_create_hindexed(3, bl, d, MPI_DOUBLE, &trip0);
    MPI_Type_create_resized(trip0, 0, sizeof(double), &trip);
    MPI_Type_commit(&trip);
    MPI_Get_address(&rx[0], &d[0]);
    MPI_Get_address(&ry[0], &d[1]);
    MPI_Get_address(&rz[0], &d[2]);
    MPI_Type_create_hindexed(3, bl, d, MPI_DOUBLE, &rtrip0);
    MPI_Type_create_resized(rtrip0, 0, sizeof(double), &rtrip);
    MPI_Type_commit(&rtrip);
  }
  memset(flat, 0, sizeof flat);
  MPI_Sendrecv(MPI_BOTTOM, NP, trip, right, 1, flat, 3 * NP, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &st);
  for (p = 0; p < NP; ++p)
    for (i = 0; i < 3; ++i)
      EXPECT(flat[3 * p + i] == coord(left, p, i), "triple %d.%d = %g", p, i, flat[3 * p + i]);
  /* And back into three arrays, with a receive type on MPI_BOTTOM. */
  memset(rx, 0, sizeof rx);
  memset(ry, 0, sizeof ry);
  memset(rz, 0, sizeof rz);
  {
    MPI_Request rq[2];
    MPI_Irecv(MPI_BOTTOM, NP, rtrip, right, 2, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(flat, 3 * NP, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  }
  for (p = 0; p < NP; ++p)
    EXPECT(rx[p] == x[p] && ry[p] == y[p] && rz[p] == z[p], "round trip %d: %g %g %g", p, rx[p], ry[p], rz[p]);
  if (rank == 0) printf("triples: %g %g %g ... %g\n", flat[0], flat[1], flat[2], flat[3 * NP - 1]);

  /* A header over three objects, broadcast on MPI_BOTTOM. */
  {
    int bl[3] = {3, 4, 8};
    MPI_Aint d[3];
    MPI_Datatype ty[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR};
    MPI_Get_address(dt, &d[0]);
    MPI_Get_address(steps, &d[1]);
    MPI_Get_address(tag, &d[2]);
    MPI_Type_create_struct(3, bl, d, ty, &header);
    MPI_Type_commit(&header);
  }
  if (rank == 0) {
    for (i = 0; i < 3; ++i) dt[i] = 0.5 * (i + 1);
    for (i = 0; i < 4; ++i) steps[i] = 100 * (i + 1);
    memcpy(tag, "run-042", 8);
  } else {
    memset(dt, 0, sizeof dt);
    memset(steps, 0, sizeof steps);
    memset(tag, 0, sizeof tag);
  }
  MPI_Bcast(MPI_BOTTOM, 1, header, 0, MPI_COMM_WORLD);
  for (i = 0; i < 3; ++i) EXPECT(dt[i] == 0.5 * (i + 1), "dt[%d] = %g", i, dt[i]);
  for (i = 0; i < 4; ++i) EXPECT(steps[i] == 100 * (i + 1), "steps[%d] = %d", i, steps[i]);
  EXPECT(strcmp(tag, "run-042") == 0, "tag '%.8s'", tag);

  /* Gather on MPI_BOTTOM: each rank's (x, y) blocks from two local arrays go into two global
   * arrays at the root, whose receive type (an hindexed on gx and gy) is resized to one rank's
   * share of doubles, so that rank r's part lands r * NP elements into both. The q block of the
   * (x, q) struct goes by a plain gather. */
  for (p = 0; p < NP; ++p) {
    lx[p] = coord(rank, p, 5);
    ly[p] = coord(rank, p, 6);
    lq[p] = rank * 1000 + p;
  }
  {
    int bl[2] = {NP, NP};
    MPI_Aint d[2];
    MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_INT};
    MPI_Get_address(lx, &d[0]);
    MPI_Get_address(lq, &d[1]);
    MPI_Type_create_struct(2, bl, d, ty, &gsend);
    MPI_Type_commit(&gsend);
    MPI_Get_address(lx, &d[0]);
    MPI_Get_address(ly, &d[1]);
    MPI_Type_create_hindexed(2, bl, d, MPI_DOUBLE, &xysend);
    MPI_Type_commit(&xysend);
    MPI_Get_address(gx, &d[0]);
    MPI_Get_address(gy, &d[1]);
    MPI_Type_create_hindexed(2, bl, d, MPI_DOUBLE, &grecv0);
    MPI_Type_create_resized(grecv0, 0, NP * sizeof(double), &grecv);
    MPI_Type_commit(&grecv);
  }
  memset(gx, 0, sizeof gx);
  memset(gy, 0, sizeof gy);
  memset(gq, 0, sizeof gq);
  MPI_Gather(MPI_BOTTOM, 1, xysend, MPI_BOTTOM, 1, grecv, 0, MPI_COMM_WORLD);
  MPI_Gather(lq, NP, MPI_INT, gq, NP, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (i = 0; i < size; ++i)
      for (p = 0; p < NP; ++p) {
        EXPECT(gx[i * NP + p] == coord(i, p, 5), "gx[%d][%d] = %g", i, p, gx[i * NP + p]);
        EXPECT(gy[i * NP + p] == coord(i, p, 6), "gy[%d][%d] = %g", i, p, gy[i * NP + p]);
        EXPECT(gq[i * NP + p] == i * 1000 + p, "gq[%d][%d] = %d", i, p, gq[i * NP + p]);
      }
  /* The whole struct to the right neighbour on MPI_BOTTOM, received as packed doubles+ints. */
  {
    char raw[NP * (sizeof(double) + sizeof(int))];
    int pos = 0;
    double vx[NP];
    int vq[NP];
    MPI_Sendrecv(MPI_BOTTOM, 1, gsend, right, 3, raw, sizeof raw, MPI_PACKED, left, 3, MPI_COMM_WORLD, &st);
    MPI_Unpack(raw, sizeof raw, &pos, vx, NP, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Unpack(raw, sizeof raw, &pos, vq, NP, MPI_INT, MPI_COMM_WORLD);
    for (p = 0; p < NP; ++p)
      EXPECT(vx[p] == coord(left, p, 5) && vq[p] == left * 1000 + p, "struct %d: %g %d", p, vx[p], vq[p]);
  }

  /* external32: a vector of ints and a strided pair of doubles. */
  {
    int m[12], back[12];
    double dd[6], dback[6];
    MPI_Datatype ev, dv;
    MPI_Aint need, hneed, pos = 0, upos = 0;
    unsigned char buf[256], in[256];
    MPI_Type_vector(3, 2, 4, MPI_INT, &ev);
    MPI_Type_commit(&ev);
    MPI_Type_create_hvector(2, 1, 3 * sizeof(double), MPI_DOUBLE, &dv);
    MPI_Type_commit(&dv);
    for (i = 0; i < 12; ++i) m[i] = rank * 0x01000000 + i * 0x0102;
    for (i = 0; i < 6; ++i) dd[i] = rank + 0.5 * i;
    MPI_Pack_external_size("external32", 1, ev, &need);
    MPI_Pack_external_size("external32", 1, dv, &hneed);
    EXPECT(need == 24 && hneed == 16, "external32 sizes %ld %ld", (long)need, (long)hneed);
    MPI_Pack_external("external32", m, 1, ev, buf, sizeof buf, &pos);
    MPI_Pack_external("external32", dd, 1, dv, buf, sizeof buf, &pos);
    EXPECT(pos == need + hneed, "packed %ld bytes", (long)pos);
    /* big-endian: the first int is m[0] */
    EXPECT(buf[0] == (unsigned char)rank && buf[2] == 0 && buf[3] == 0, "first bytes %02x %02x %02x %02x", buf[0], buf[1], buf[2], buf[3]);
    MPI_Sendrecv(buf, (int)pos, MPI_BYTE, right, 4, in, (int)pos, MPI_BYTE, left, 4, MPI_COMM_WORLD, &st);
    for (i = 0; i < 12; ++i) back[i] = -1;
    for (i = 0; i < 6; ++i) dback[i] = -1;
    MPI_Unpack_external("external32", in, pos, &upos, back, 1, ev);
    MPI_Unpack_external("external32", in, pos, &upos, dback, 1, dv);
    for (i = 0; i < 12; ++i)
      EXPECT(back[i] == (i % 4 < 2 ? left * 0x01000000 + i * 0x0102 : -1), "external32 back[%d] = %d", i, back[i]);
    for (i = 0; i < 6; ++i)
      EXPECT(dback[i] == (i % 3 == 0 ? left + 0.5 * i : -1), "external32 dback[%d] = %g", i, dback[i]);
    /* the first double on the wire, big-endian: sign and exponent first */
    {
      static const unsigned char first[3] = {0x00, 0x3f, 0x40}; /* 0.0, 1.0, 2.0 */
      EXPECT(left > 2 || in[need] == first[left], "double's first byte %02x", in[need]);
    }
    if (rank == 0)
      printf("external32: %ld + %ld bytes, first %02x%02x%02x%02x\n", (long)need, (long)hneed, in[0], in[1], in[2], in[3]);
    MPI_Type_free(&ev);
    MPI_Type_free(&dv);
  }

  /* Element types from MPI_Type_match_size and the f90 constructors. */
  {
    MPI_Datatype r8, i4, f15, f9, v1, v2;
    int s1, s2, s3, s4;
    double a[12], b[12];
    int ia[8], ib[8];
    MPI_Type_match_size(MPI_TYPECLASS_REAL, sizeof(double), &r8);
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, sizeof(int), &i4);
    MPI_Type_create_f90_real(15, MPI_UNDEFINED, &f15);
    MPI_Type_create_f90_integer(9, &f9);
    MPI_Type_size(r8, &s1);
    MPI_Type_size(i4, &s2);
    MPI_Type_size(f15, &s3);
    MPI_Type_size(f9, &s4);
    EXPECT(s1 == 8 && s2 == 4 && s3 == 8 && s4 == 4, "matched sizes %d %d %d %d", s1, s2, s3, s4);
    MPI_Type_vector(4, 1, 3, f15, &v1);
    MPI_Type_commit(&v1);
    MPI_Type_vector(2, 2, 4, i4, &v2);
    MPI_Type_commit(&v2);
    for (i = 0; i < 12; ++i) { a[i] = rank + i / 16.0; b[i] = -1; }
    for (i = 0; i < 8; ++i) { ia[i] = rank * 10 + i; ib[i] = -1; }
    MPI_Sendrecv(a, 1, v1, right, 5, b, 1, v1, left, 5, MPI_COMM_WORLD, &st);
    MPI_Sendrecv(ia, 1, v2, right, 6, ib, 1, v2, left, 6, MPI_COMM_WORLD, &st);
    for (i = 0; i < 12; ++i) EXPECT(b[i] == (i % 3 == 0 ? left + i / 16.0 : -1), "f90 b[%d] = %g", i, b[i]);
    for (i = 0; i < 8; ++i) EXPECT(ib[i] == (i % 4 < 2 ? left * 10 + i : -1), "match ib[%d] = %d", i, ib[i]);
    MPI_Type_free(&v1);
    MPI_Type_free(&v2);
  }

  MPI_Type_free(&trip0);
  MPI_Type_free(&trip);
  MPI_Type_free(&rtrip0);
  MPI_Type_free(&rtrip);
  MPI_Type_free(&header);
  MPI_Type_free(&gsend);
  MPI_Type_free(&xysend);
  MPI_Type_free(&grecv0);
  MPI_Type_free(&grecv);
  MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("errors %d\n", all);
  MPI_Finalize();
  return all ? 1 : 0;
}
