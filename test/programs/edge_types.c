/* Less common but legal datatype shapes, each sent with a compile-time-known type: a negative
 * stride, a resized type with a non-zero lower bound, pair types with holes (MPI_DOUBLE_INT,
 * MPI_SHORT_INT), MPI_LONG_DOUBLE / MPI_C_BOOL / MPI_CHAR vectors, zero counts, a struct on
 * absolute addresses with MPI_BOTTOM, and a truncated receive under MPI_ERRORS_RETURN.
 * Receive buffers are pre-filled with 0xAB so bytes the MPI must not touch are visible.
 * NP: 2 */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define CHECK(call)                                                                  \
  do {                                                                               \
    int err_ = (call);                                                               \
    if (err_ != MPI_SUCCESS) { printf("line %d: MPI error %d\n", __LINE__, err_); }  \
  } while (0)

static void dump(const char *what, const void *p, int n) {
  const unsigned char *b = (const unsigned char *)p;
  int i;
  printf("%-12s", what);
  for (i = 0; i < n; ++i) printf("%s%02x", i % 8 ? "" : " ", b[i]);
  printf("\n");
}

struct di { double d; int i; };
struct si { short s; int i; };

int main(int argc, char **argv) {
  int rank, other;
  MPI_Datatype neg, shifted, base, dipair, sipair, ldv, boolv, charv, empty, abs_t;
  double dsrc[16], ddst[16];
  struct di dis[6], did[6]; /* 2 x vector(2, 1, 2) of pairs: elements 0, 2, 3 and 5 */
  struct si sis[4], sid[4];
  long double lds[6], ldd[6];
  bool bs[8], bd[8];
  char cs[32], cd[32];
  int i;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  other = 1 - rank;
  for (i = 0; i < 16; ++i) dsrc[i] = i + 0.5;
  for (i = 0; i < 6; ++i) { dis[i].d = i * 1.5; dis[i].i = 10 + i; }
  for (i = 0; i < 4; ++i) { sis[i].s = (short)(20 + i); sis[i].i = 30 + i; }
  memset(dis, 0, 0);
  for (i = 0; i < 6; ++i) lds[i] = 1.0L / (i + 1);
  for (i = 0; i < 8; ++i) bs[i] = i % 3 == 0;
  for (i = 0; i < 32; ++i) cs[i] = (char)('a' + i % 26);

  MPI_Type_vector(4, 1, -3, MPI_DOUBLE, &neg);               /* walks backwards */
  MPI_Type_commit(&neg);
  MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &base);
  MPI_Type_create_resized(base, -16, 12 * sizeof(double), &shifted);   /* lb = -2 doubles */
  MPI_Type_commit(&shifted);
  MPI_Type_vector(2, 1, 2, MPI_DOUBLE_INT, &dipair);
  MPI_Type_commit(&dipair);
  MPI_Type_contiguous(3, MPI_SHORT_INT, &sipair);
  MPI_Type_commit(&sipair);
  MPI_Type_vector(3, 1, 2, MPI_LONG_DOUBLE, &ldv);
  MPI_Type_commit(&ldv);
  MPI_Type_vector(4, 1, 2, MPI_C_BOOL, &boolv);
  MPI_Type_commit(&boolv);
  MPI_Type_vector(5, 3, 6, MPI_CHAR, &charv);
  MPI_Type_commit(&charv);
  MPI_Type_contiguous(0, MPI_INT, &empty);
  MPI_Type_commit(&empty);
  {
    int bl[2] = {2, 1};
    MPI_Aint disp[2];
    MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_CHAR};
    MPI_Get_address(&dsrc[3], &disp[0]);
    MPI_Get_address(&cs[5], &disp[1]);
    MPI_Type_create_struct(2, bl, disp, ty, &abs_t);
    MPI_Type_commit(&abs_t);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  if (rank == 0) {
    CHECK(MPI_Send(&dsrc[12], 1, neg, other, 1, MPI_COMM_WORLD));
    CHECK(MPI_Send(&dsrc[2], 1, shifted, other, 2, MPI_COMM_WORLD));
    CHECK(MPI_Send(dis, 2, dipair, other, 3, MPI_COMM_WORLD));
    CHECK(MPI_Send(sis, 1, sipair, other, 4, MPI_COMM_WORLD));
    CHECK(MPI_Send(lds, 1, ldv, other, 5, MPI_COMM_WORLD));
    CHECK(MPI_Send(bs, 1, boolv, other, 6, MPI_COMM_WORLD));
    CHECK(MPI_Send(cs, 1, charv, other, 7, MPI_COMM_WORLD));
    CHECK(MPI_Send(dsrc, 5, empty, other, 8, MPI_COMM_WORLD));
    CHECK(MPI_Send(dsrc, 0, neg, other, 9, MPI_COMM_WORLD));
    CHECK(MPI_Send(MPI_BOTTOM, 1, abs_t, other, 10, MPI_COMM_WORLD));
    CHECK(MPI_Send(cs, 2, charv, other, 11, MPI_COMM_WORLD));
  } else {
    MPI_Status st;
    int n, rc, cls;
    char rbuf[64];
    memset(ddst, 0xAB, sizeof ddst);
    CHECK(MPI_Recv(ddst, 4, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, &st));
    printf("negative stride: %.1f %.1f %.1f %.1f\n", ddst[0], ddst[1], ddst[2], ddst[3]);
    memset(ddst, 0xAB, sizeof ddst);
    CHECK(MPI_Recv(&ddst[4], 1, shifted, 0, 2, MPI_COMM_WORLD, &st));
    dump("shifted", ddst, sizeof ddst);
    memset(did, 0xAB, sizeof did);
    CHECK(MPI_Recv(did, 2, dipair, 0, 3, MPI_COMM_WORLD, &st));
    MPI_Get_count(&st, dipair, &n);
    printf("double_int count %d: %.1f/%d %.1f/%d %.1f/%d\n", n, did[0].d, did[0].i, did[2].d, did[2].i, did[1].d, did[1].i);
    memset(sid, 0xAB, sizeof sid);
    CHECK(MPI_Recv(sid, 1, sipair, 0, 4, MPI_COMM_WORLD, &st));
    printf("short_int: %d/%d %d/%d %d/%d last %d/%d\n", sid[0].s, sid[0].i, sid[1].s, sid[1].i, sid[2].s, sid[2].i, sid[3].s, sid[3].i);
    memset(ldd, 0, sizeof ldd);
    CHECK(MPI_Recv(ldd, 1, ldv, 0, 5, MPI_COMM_WORLD, &st));
    printf("long double: %.6Lf %.6Lf %.6Lf %.6Lf %.6Lf\n", ldd[0], ldd[1], ldd[2], ldd[3], ldd[4]);
    memset(bd, 0, sizeof bd);
    CHECK(MPI_Recv(bd, 1, boolv, 0, 6, MPI_COMM_WORLD, &st));
    dump("bool", bd, sizeof bd);
    memset(cd, '.', sizeof cd);
    CHECK(MPI_Recv(cd, 1, charv, 0, 7, MPI_COMM_WORLD, &st));
    printf("chars: %.32s\n", cd);
    CHECK(MPI_Recv(ddst, 3, empty, 0, 8, MPI_COMM_WORLD, &st));
    MPI_Get_count(&st, MPI_BYTE, &n);
    printf("empty type: %d bytes, source %d tag %d\n", n, st.MPI_SOURCE, st.MPI_TAG);
    CHECK(MPI_Recv(ddst, 0, neg, 0, 9, MPI_COMM_WORLD, &st));
    MPI_Get_count(&st, neg, &n);
    printf("zero count: %d\n", n);
    memset(rbuf, 0, sizeof rbuf);
    CHECK(MPI_Recv(rbuf, 17, MPI_BYTE, 0, 10, MPI_COMM_WORLD, &st));
    MPI_Get_count(&st, MPI_BYTE, &n);
    printf("MPI_BOTTOM struct: %d bytes, %.1f %.1f %c\n", n, ((double *)rbuf)[0], ((double *)rbuf)[1], rbuf[16]);
    memset(cd, '.', sizeof cd);
    rc = MPI_Recv(cd, 1, charv, 0, 11, MPI_COMM_WORLD, &st);
    MPI_Error_class(rc, &cls);
    printf("truncated receive: class %s\n", cls == MPI_ERR_TRUNCATE ? "MPI_ERR_TRUNCATE" : cls == MPI_SUCCESS ? "MPI_SUCCESS" : "other");
  }
  MPI_Type_free(&neg);
  MPI_Type_free(&base);
  MPI_Type_free(&shifted);
  MPI_Type_free(&dipair);
  MPI_Type_free(&sipair);
  MPI_Type_free(&ldv);
  MPI_Type_free(&boolv);
  MPI_Type_free(&charv);
  MPI_Type_free(&empty);
  MPI_Type_free(&abs_t);
  MPI_Finalize();
  return 0;
}
