/* reliability_odd_types: unusual but legal datatypes and counts through libtempi, on host and
 * (fake) device buffers, byte for byte as the plain MPI does them.
 *
 * Cases: zero counts (a derived type and a predefined one, NULL buffers too), a zero-size type,
 * negative strides (vector and hvector: the true lower bound is below the buffer pointer), a
 * negative lower bound (resized), types whose extent is smaller than their true extent (resized:
 * elements interleave), and a struct of mixed types. For each case and each of H->H, D->D, H->D,
 * D->H, rank 0 sends `count` elements, rank 1 receives them (blocking, then Isend/Irecv); rank 1's
 * transcript has the status and every byte of its buffer (gaps included); rank 0's has the
 * MPI_Pack of the same elements. Then MPI_BOTTOM with absolute addresses (MPI_Get_address +
 * struct / hindexed) into two separate buffers, host buffers; with device buffers only when
 * RELIABILITY_BOTTOM_DEVICE=1 (a known bug: docs/reliability.md "Findings").
 * The transcript is compared with the plain MPI's (reliability_common.h).
 *
 *   reliability_odd_types OUTPUT-DIR      (2 ranks)
 */
#include "reliability_common.h"

enum { MARGIN = 32 };

typedef struct {
  const char *name;
  MPI_Datatype type;
  int count;
} Case;

/* Bytes to hold `count` elements of t with the buffer pointer at `*shift` inside them. */
static size_t span(MPI_Datatype t, int count, MPI_Aint *shift) {
  MPI_Aint lb, extent, tlb, textent;
  MPI_Type_get_extent(t, &lb, &extent);
  MPI_Type_get_true_extent(t, &tlb, &textent);
  if (count <= 0 || textent == 0) {
    *shift = MARGIN;
    return 2 * MARGIN;
  }
  MPI_Aint first = tlb, last = tlb + (MPI_Aint)(count - 1) * extent;
  MPI_Aint lo = first < last ? first : last, hi = (first > last ? first : last) + textent;
  *shift = MARGIN - lo;
  return (size_t)(hi - lo) + 2 * MARGIN;
}

static void oneCase(const Case *c, int mode, int nonblocking) {
  const int sdev = mode & 1, rdev = (mode >> 1) & 1, tag = 100 + mode * 2 + nonblocking;
  MPI_Aint shift;
  const size_t bytes = span(c->type, c->count, &shift);
  char what[160];
  snprintf(what, sizeof what, "%s count=%d %s->%s %s", c->name, c->count, sdev ? "D" : "H",
           rdev ? "D" : "H", nonblocking ? "Isend/Irecv" : "Send/Recv");
  if (rel_rank == 0) {
    char *buf = rel_alloc(sdev, bytes);
    rel_fill(sdev, buf, bytes, 1 + mode);
    int rc;
    if (nonblocking) {
      MPI_Request r;
      rc = MPI_Isend(buf + shift, c->count, c->type, 1, tag, MPI_COMM_WORLD, &r);
      if (rc == MPI_SUCCESS) rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
      rc = MPI_Send(buf + shift, c->count, c->type, 1, tag, MPI_COMM_WORLD);
    }
    rel_print_rc(what, rc);
    if (!nonblocking) { /* the same elements through MPI_Pack (host output buffer) */
      int psize = 0, pos = 0;
      MPI_Pack_size(c->count, c->type, MPI_COMM_WORLD, &psize);
      unsigned char *packed = calloc((size_t)psize + 1, 1);
      rc = MPI_Pack(buf + shift, c->count, c->type, packed, psize, &pos, MPI_COMM_WORLD);
      fprintf(rel_out, "%s: MPI_Pack class=%d position=%d\n", what, rel_class(rc), pos);
      rel_print_bytes(what, packed, (size_t)pos);
      free(packed);
    }
    rel_free(sdev, buf);
  } else if (rel_rank == 1) {
    char *buf = rel_alloc(rdev, bytes);
    rel_fill(rdev, buf, bytes, 50 + mode);
    MPI_Status st;
    int rc;
    if (nonblocking) {
      MPI_Request r;
      rc = MPI_Irecv(buf + shift, c->count, c->type, 0, tag, MPI_COMM_WORLD, &r);
      if (rc == MPI_SUCCESS) rc = MPI_Wait(&r, &st);
    } else {
      rc = MPI_Recv(buf + shift, c->count, c->type, 0, tag, MPI_COMM_WORLD, &st);
    }
    rel_print_rc(what, rc);
    rel_print_status(what, &st, c->type);
    rel_print_bytes(what, buf, bytes);
    REL_CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == tag, "%s: status", what);
    rel_free(rdev, buf);
  }
}

/* Zero counts with NULL buffers: nothing may be dereferenced, the status says 0. */
static void zeroNull(MPI_Datatype t, const char *name) {
  MPI_Status st;
  char what[96];
  snprintf(what, sizeof what, "%s count=0 NULL buffer", name);
  if (rel_rank == 0) {
    rel_print_rc(what, MPI_Send(NULL, 0, t, 1, 90, MPI_COMM_WORLD));
  } else if (rel_rank == 1) {
    rel_print_rc(what, MPI_Recv(NULL, 0, t, 0, 90, MPI_COMM_WORLD, &st));
    rel_print_status(what, &st, t);
  }
}

/* MPI_BOTTOM: a struct of absolute addresses into two buffers (3 ints of a at a+16, 2 doubles of
 * b, 1 int at a) sent; received through an hindexed type of absolute addresses (bytes). */
static void bottom(int dev) {
  char what[64];
  snprintf(what, sizeof what, "MPI_BOTTOM %s", dev ? "device" : "host");
  const size_t abytes = 64, bbytes = 48;
  char *a = rel_alloc(dev, abytes), *b = rel_alloc(dev, bbytes);
  MPI_Aint addr[3];
  MPI_Get_address(a + 16, &addr[0]);
  MPI_Get_address(b + 8, &addr[1]);
  MPI_Get_address(a, &addr[2]);
  MPI_Datatype t;
  if (rel_rank == 0) {
    int lens[3] = {3, 2, 1};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_INT};
    MPI_Type_create_struct(3, lens, addr, types, &t);
  } else {
    int lens[3] = {12, 16, 4};
    MPI_Type_create_hindexed(3, lens, addr, MPI_BYTE, &t);
  }
  MPI_Type_commit(&t);
  rel_fill(dev, a, abytes, 20 + rel_rank);
  rel_fill(dev, b, bbytes, 30 + rel_rank);
  if (rel_rank == 0) {
    rel_print_rc(what, MPI_Send(MPI_BOTTOM, 1, t, 1, 95, MPI_COMM_WORLD));
  } else if (rel_rank == 1) {
    MPI_Status st;
    rel_print_rc(what, MPI_Recv(MPI_BOTTOM, 1, t, 0, 95, MPI_COMM_WORLD, &st));
    rel_print_status(what, &st, t);
    rel_print_bytes("MPI_BOTTOM a", a, abytes);
    rel_print_bytes("MPI_BOTTOM b", b, bbytes);
  }
  MPI_Type_free(&t);
  rel_free(dev, a);
  rel_free(dev, b);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  rel_open(argc, argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  MPI_Datatype vec, negvec, neghvec, neglb, narrow, overlap, zerosize, mixed, pair, tmp;
  MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
  MPI_Type_vector(4, 1, -2, MPI_DOUBLE, &negvec);     /* true lb -48: below the pointer */
  MPI_Type_create_hvector(3, 2, -20, MPI_INT, &neghvec);
  MPI_Type_vector(2, 2, 3, MPI_INT, &tmp);
  MPI_Type_create_resized(tmp, -8, 32, &neglb);       /* lb -8 */
  MPI_Type_free(&tmp);
  MPI_Type_vector(2, 1, 4, MPI_INT, &tmp);            /* ints 0 and 4: true extent 20 */
  MPI_Type_create_resized(tmp, 0, 4, &narrow);        /* extent 4: elements interleave */
  MPI_Type_free(&tmp);
  MPI_Type_contiguous(4, MPI_INT, &tmp);
  MPI_Type_create_resized(tmp, 0, 8, &overlap);       /* extent 8 < 16: elements overlap */
  MPI_Type_free(&tmp);
  MPI_Type_contiguous(0, MPI_INT, &zerosize);
  {
    int lens[3] = {1, 2, 1};
    MPI_Aint disp[3] = {0, 8, 28};
    MPI_Datatype types[3] = {MPI_CHAR, MPI_INT, MPI_SHORT};
    MPI_Type_create_struct(3, lens, disp, types, &mixed);
  }
  {
    MPI_Type_vector(2, 1, -3, MPI_DOUBLE_INT, &tmp);  /* pair type, negative stride */
    pair = tmp;
  }
  MPI_Datatype all[] = {vec, negvec, neghvec, neglb, narrow, overlap, zerosize, mixed, pair};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) MPI_Type_commit(&all[i]);
  vec = all[0]; negvec = all[1]; neghvec = all[2]; neglb = all[3]; narrow = all[4];
  overlap = all[5]; zerosize = all[6]; mixed = all[7]; pair = all[8];

  /* overlap is sent only (receiving into overlapping elements is erroneous): its receive side is
   * contiguous ints. Every other type is sent and received as itself. */
  const Case cases[] = {
      {"vector(3,2,4,int)", vec, 0},
      {"int", MPI_INT, 0},
      {"vector(3,2,4,int)", vec, 3},
      {"vector(4,1,-2,double)", negvec, 2},
      {"hvector(3,2,-20,int)", neghvec, 3},
      {"resized(vector(2,2,3,int),-8,32)", neglb, 3},
      {"resized(vector(2,1,4,int),0,4)", narrow, 4},
      {"contiguous(0,int)", zerosize, 5},
      {"struct{char@0,int[2]@8,short@28}", mixed, 3},
      {"vector(2,1,-3,double_int)", pair, 2},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    for (int mode = 0; mode < 4; ++mode)
      for (int nb = 0; nb < 2; ++nb) oneCase(&cases[i], mode, nb);

  /* Overlapping elements (extent 8 < true extent 16), sent; received as 12 contiguous ints. */
  for (int mode = 0; mode < 4; ++mode) {
    const Case send = {"resized(contiguous(4,int),0,8) as sent", overlap, 3};
    const Case recv = {"resized(contiguous(4,int),0,8) as sent", MPI_INT, 12};
    oneCase(rel_rank == 0 ? &send : &recv, mode, 0);
  }

  zeroNull(vec, "vector(3,2,4,int)");
  zeroNull(MPI_INT, "int");
  zeroNull(zerosize, "contiguous(0,int)");

  bottom(0);
  const char *bd = getenv("RELIABILITY_BOTTOM_DEVICE");
  if (bd && *bd == '1') bottom(1);

  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) MPI_Type_free(&all[i]);
  int rc = rel_close();
  MPI_Finalize();
  return rc;
}
