/* What a receive reports, as codes that size their messages from the status rely on it:
 *  - receives with derived types that get fewer elements than they have room for: MPI_Get_count
 *    and MPI_Get_elements (and _x) with the receive type, a predefined type and MPI_BYTE, the
 *    elements landing in type-map order and the rest of the buffer untouched;
 *  - a partial element (7 doubles into count 4 of a 3-double vector, 5 of a 12-element
 *    subarray, an int and a double of an {int, double, double} struct): MPI_Get_count gives
 *    MPI_UNDEFINED, MPI_Get_elements the basic elements;
 *  - vectors of 1, 2 and 3 blocks built by a counted loop into an array, received in a loop with
 *    the element chosen by the loop variable, MPI_ANY_SOURCE / MPI_ANY_TAG and the status fields;
 *  - zero-size types (contiguous(0), a vector of zero-length blocks, an indexed type whose
 *    blocks are all empty, a struct of count 0) sent with counts 0 and 5, received with counts
 *    0 and 3, and a one-element subarray whose every subsize is 1;
 *  - truncation on a duplicated communicator with MPI_ERRORS_RETURN: MPI_Recv, MPI_Irecv +
 *    MPI_Wait, MPI_Waitall (MPI_ERR_IN_STATUS, the per-request MPI_ERROR), MPI_Sendrecv and a
 *    non-empty message into a zero-size type, each giving the class MPI_ERR_TRUNCATE (MPICH
 *    4.0.2 reports MPI_Wait's and MPI_Waitall's errors through MPI_COMM_WORLD's handler, so world
 *    returns errors too around those two, then is set back to fatal); bytes
 *    outside the receive type's footprint must be untouched (inside, an MPI may or may not
 *    have written the part that fits); then ordinary traffic on both communicators goes on.
 * Rank 0 sends, rank 1 receives and prints (rank 1 also prints the summary).
 * NP: 2 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define B 64
#define NV 3
#define EVERY 2

struct ids {
  int i;
  double a, b;
};

static int errs = 0;
#define EXPECT(cond, ...)                                                                    \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      ++errs;                                                                                \
      printf("check failed (line %d): ", __LINE__);                                          \
      printf(__VA_ARGS__);                                                                   \
      printf("\n");                                                                          \
    }                                                                                        \
  } while (0)

static double val(int i) { return 500.0 + i * 0.5; }

static void clear(double *b) {
  int i;
  for (i = 0; i < B; ++i) b[i] = -1.0;
}

/* n doubles, every EVERY-th one. */
static MPI_Datatype every_other(int n) {
  MPI_Datatype t;
  MPI_Type_vector(n, 1, EVERY, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

/* Positions of the first `got` packed doubles of count elements of vector(n, 1, EVERY),
   extent (n - 1) * EVERY + 1, must hold val(0..got-1); everything else -1. */
static void check_vec(const char *what, const double *b, int n, int got) {
  int ext = (n - 1) * EVERY + 1, i, q = 0;
  double want[B];
  clear(want);
  for (q = 0; q < got; ++q) want[(q / n) * ext + (q % n) * EVERY] = val(q);
  for (i = 0; i < B; ++i) EXPECT(b[i] == want[i], "%s[%d] = %g, want %g", what, i, b[i], want[i]);
}

static const char *class_name(int rc) {
  int cls;
  if (rc == MPI_SUCCESS) return "MPI_SUCCESS";
  MPI_Error_class(rc, &cls);
  return cls == MPI_ERR_TRUNCATE ? "MPI_ERR_TRUNCATE" : cls == MPI_ERR_IN_STATUS ? "MPI_ERR_IN_STATUS" : "other";
}

/* After a truncated receive: outside the footprint nothing changed; inside, either the old -1 or
   the value the message carries there. */
static void check_truncated(const char *what, const double *b, const int *foot, const double *carry) {
  int i;
  for (i = 0; i < B; ++i)
    EXPECT(foot[i] ? (b[i] == -1.0 || b[i] == carry[i]) : b[i] == -1.0, "%s[%d] = %g", what, i, b[i]);
}

int main(int argc, char **argv) {
  int rank, size, i, k, n, c, e, all;
  double src[B], dst[B];
  MPI_Datatype vec3, sub, ids0, idst, tv[NV], nothing[4], one;
  MPI_Comm quiet;
  MPI_Status st;
  MPI_Count cx;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) MPI_Abort(MPI_COMM_WORLD, 2);
  for (i = 0; i < B; ++i) src[i] = val(i);

  vec3 = every_other(3);
  {
    const int sizes[2] = {4, 6}, subs[2] = {3, 4}, starts[2] = {1, 2};
    MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_DOUBLE, &sub);
    MPI_Type_commit(&sub);
  }
  {
    int bl[3] = {1, 1, 1};
    MPI_Aint d[3] = {0, 8, 16};
    MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_DOUBLE};
    MPI_Type_create_struct(3, bl, d, ty, &ids0);
    MPI_Type_commit(&ids0);
    MPI_Type_create_resized(ids0, 0, sizeof(struct ids), &idst);
    MPI_Type_commit(&idst);
  }
  for (k = 0; k < NV; ++k) MPI_Type_vector(k + 1, 1, EVERY, MPI_DOUBLE, &tv[k]);
  for (k = 0; k < NV; ++k) MPI_Type_commit(&tv[k]);
  {
    int zb[3] = {0, 0, 0}, zd[3] = {4, 0, 9};
    MPI_Aint zdisp[1] = {0};
    MPI_Datatype ztype[1] = {MPI_DOUBLE};
    MPI_Type_contiguous(0, MPI_DOUBLE, &nothing[0]);
    MPI_Type_vector(3, 0, 4, MPI_DOUBLE, &nothing[1]);
    MPI_Type_indexed(3, zb, zd, MPI_DOUBLE, &nothing[2]);
    MPI_Type_create_struct(0, zb, zdisp, ztype, &nothing[3]);
    for (k = 0; k < 4; ++k) MPI_Type_commit(&nothing[k]);
  }
  {
    const int sz[3] = {3, 4, 5}, s1[3] = {1, 1, 1}, at[3] = {2, 0, 3};
    MPI_Type_create_subarray(3, sz, s1, at, MPI_ORDER_C, MPI_DOUBLE, &one);
    MPI_Type_commit(&one);
  }

  /* 1. Fewer whole elements than room for. */
  if (rank == 0) {
    MPI_Send(src, 6, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
    MPI_Send(src, 7, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD);
    MPI_Send(src, 5, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD);
  } else {
    clear(dst);
    MPI_Recv(dst, 4, vec3, 0, 1, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, vec3, &c);
    MPI_Get_elements(&st, vec3, &e);
    MPI_Get_elements_x(&st, vec3, &cx);
    MPI_Get_count(&st, MPI_BYTE, &n);
    printf("short: count %d elements %d (x %lld) bytes %d\n", c, e, (long long)cx, n);
    EXPECT(c == 2 && e == 6 && cx == 6 && n == 48, "short receive status");
    check_vec("short", dst, 3, 6);

    /* 2. A partial element. */
    clear(dst);
    MPI_Recv(dst, 4, vec3, 0, 2, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, vec3, &c);
    MPI_Get_elements(&st, vec3, &e);
    printf("partial: count %s elements %d\n", c == MPI_UNDEFINED ? "MPI_UNDEFINED" : "defined", e);
    EXPECT(c == MPI_UNDEFINED && e == 7, "partial receive status %d %d", c, e);
    check_vec("partial", dst, 3, 7);

    clear(dst);
    MPI_Recv(dst, 1, sub, 0, 3, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, sub, &c);
    MPI_Get_elements(&st, sub, &e);
    EXPECT(c == MPI_UNDEFINED && e == 5, "subarray partial %d %d", c, e);
    {
      double want[B];
      clear(want);
      for (i = 0; i < 5; ++i) want[(1 + i / 4) * 6 + 2 + i % 4] = val(i);
      for (i = 0; i < B; ++i) EXPECT(dst[i] == want[i], "subarray partial [%d] = %g", i, dst[i]);
    }
  }

  /* The struct, whole and in part: {int, double} and {int}. */
  if (rank == 0) {
    struct ids s[2] = {{7, 1.5, 2.5}, {8, 3.5, 4.5}};
    MPI_Send(s, 2, idst, 1, 4, MPI_COMM_WORLD);
    MPI_Send(s, 1, ids0, 1, 5, MPI_COMM_WORLD); /* whole, unresized */
    {
      int bl[2] = {1, 1};
      MPI_Aint d[2] = {0, 8};
      MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE}, head;
      MPI_Type_create_struct(2, bl, d, ty, &head);
      MPI_Type_commit(&head);
      MPI_Send(&s[1], 1, head, 1, 6, MPI_COMM_WORLD);
      MPI_Send(&s[1].i, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
      MPI_Type_free(&head);
    }
  } else {
    struct ids r[3], w[3];
    memset(r, 0, sizeof r);
    MPI_Recv(r, 3, idst, 0, 4, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, idst, &c);
    MPI_Get_elements(&st, idst, &e);
    EXPECT(c == 2 && e == 6, "ids whole %d %d", c, e);
    EXPECT(r[0].i == 7 && r[0].a == 1.5 && r[0].b == 2.5 && r[1].i == 8 && r[1].a == 3.5 &&
               r[1].b == 4.5 && r[2].i == 0 && r[2].a == 0 && r[2].b == 0, "ids whole data");
    memset(r, 0, sizeof r);
    MPI_Recv(&r[2], 1, idst, 0, 5, MPI_COMM_WORLD, &st);
    EXPECT(r[2].i == 7 && r[2].a == 1.5 && r[2].b == 2.5 && r[0].i == 0 && r[1].b == 0, "ids unresized");
    for (k = 6; k <= 7; ++k) {
      memset(r, 0, sizeof r);
      memset(w, 0, sizeof w);
      MPI_Recv(r, 2, idst, 0, k, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, idst, &c);
      MPI_Get_elements(&st, idst, &e);
      w[0].i = 8;
      if (k == 6) w[0].a = 3.5;
      printf("ids tag %d: count %s elements %d\n", k, c == MPI_UNDEFINED ? "MPI_UNDEFINED" : "defined", e);
      EXPECT(c == MPI_UNDEFINED && e == (k == 6 ? 2 : 1), "ids partial %d %d", c, e);
      EXPECT(memcmp(r, w, sizeof r) == 0, "ids partial data tag %d", k);
    }
  }

  /* 3. Vectors of 1..NV blocks from a loop-built array, any source, any tag. */
  if (rank == 0) {
    for (k = NV - 1; k >= 0; --k) MPI_Send(src, 2, tv[k], 1, 10 + k, MPI_COMM_WORLD);
  } else {
    for (k = NV - 1; k >= 0; --k) {
      clear(dst);
      MPI_Recv(dst, 2, tv[k], MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, tv[k], &c);
      MPI_Get_elements(&st, tv[k], &e);
      printf("tv[%d]: source %d tag %d count %d elements %d\n", k, st.MPI_SOURCE, st.MPI_TAG, c, e);
      EXPECT(st.MPI_SOURCE == 0 && st.MPI_TAG == 10 + k && c == 2 && e == 2 * (k + 1), "tv status");
      {
        /* the sender's element e packs src[e * ext + j * EVERY]; they land the same way */
        int ext = k * EVERY + 1, j, q;
        double want[B];
        clear(want);
        for (q = 0; q < 2; ++q)
          for (j = 0; j <= k; ++j) want[q * ext + j * EVERY] = val(q * ext + j * EVERY);
        for (i = 0; i < B; ++i) EXPECT(dst[i] == want[i], "tv[%d] [%d] = %g", k, i, dst[i]);
      }
    }
  }

  /* 4. Zero-size types and a one-element subarray. */
  if (rank == 0) {
    for (k = 0; k < 4; ++k) {
      MPI_Send(src, 5, nothing[k], 1, 20 + k, MPI_COMM_WORLD);
      MPI_Send(src, 0, vec3, 1, 30 + k, MPI_COMM_WORLD);
    }
    MPI_Send(src, 1, one, 1, 40, MPI_COMM_WORLD);
  } else {
    for (k = 0; k < 4; ++k) {
      int sz;
      clear(dst);
      MPI_Recv(dst, 3, nothing[k], 0, 20 + k, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, nothing[k], &c);
      MPI_Get_elements(&st, nothing[k], &e);
      MPI_Type_size(nothing[k], &sz);
      printf("nothing[%d]: size %d count %d elements %d\n", k, sz, c, e);
      MPI_Recv(dst, 0, nothing[k], 0, 30 + k, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_BYTE, &n);
      EXPECT(n == 0, "zero count message %d bytes", n);
      for (i = 0; i < B; ++i) EXPECT(dst[i] == -1.0, "nothing[%d] wrote %d", k, i);
    }
    clear(dst);
    MPI_Recv(dst, 1, MPI_DOUBLE, 0, 40, MPI_COMM_WORLD, &st);
    EXPECT(dst[0] == val((2 * 4 + 0) * 5 + 3), "one element %g", dst[0]);
    for (i = 1; i < B; ++i) EXPECT(dst[i] == -1.0, "one element tail %d", i);
  }

  /* 5. Truncation on a duplicated communicator that returns errors. */
  MPI_Comm_dup(MPI_COMM_WORLD, &quiet);
  MPI_Comm_set_errhandler(quiet, MPI_ERRORS_RETURN);
  if (rank == 0) {
    MPI_Send(src, 2, vec3, 1, 50, quiet);               /* 6 doubles for 5 places */
    MPI_Send(src, 4, MPI_DOUBLE, 1, 51, quiet);         /* 4 doubles for 3 */
    MPI_Send(src, 2, MPI_DOUBLE, 1, 52, quiet);         /* fits */
    MPI_Send(src, 7, MPI_DOUBLE, 1, 53, quiet);         /* 7 for 6 */
    MPI_Sendrecv(src, 1, tv[2], 1, 54, dst, 1, MPI_DOUBLE, 1, 55, quiet, &st);
    MPI_Send(src, 1, MPI_DOUBLE, 1, 56, quiet);         /* 1 for none */
  } else {
    int rc, foot[B];
    double carry[B];
    MPI_Request rq[2];
    MPI_Status sts[2];
    /* MPI_Recv into one vector(5, 1, EVERY) from the helper */
    MPI_Datatype five = every_other(5);
    clear(dst);
    rc = MPI_Recv(dst, 1, five, 0, 50, quiet, &st);
    printf("recv: %s\n", class_name(rc));
    memset(foot, 0, sizeof foot);
    clear(carry);
    for (i = 0; i < 5; ++i) {
      foot[i * EVERY] = 1;
      carry[i * EVERY] = val(i < 3 ? 2 * i : 5 + 2 * (i - 3));
    }
    check_truncated("recv", dst, foot, carry);
    MPI_Type_free(&five);

    /* MPICH 4.0.2 reports an error of MPI_Wait / MPI_Waitall through MPI_COMM_WORLD's handler,
       not the request's communicator's: world returns errors too while the requests complete */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    clear(dst);
    MPI_Irecv(dst, 1, vec3, 0, 51, quiet, &rq[0]);
    rc = MPI_Wait(&rq[0], &st);
    printf("irecv+wait: %s\n", class_name(rc));
    memset(foot, 0, sizeof foot);
    clear(carry);
    for (i = 0; i < 3; ++i) {
      foot[i * EVERY] = 1;
      carry[i * EVERY] = val(i);
    }
    check_truncated("irecv", dst, foot, carry);

    {
      double d2[B];
      clear(dst);
      clear(d2);
      MPI_Irecv(d2, 1, vec3, 0, 52, quiet, &rq[0]);
      MPI_Irecv(dst, 2, vec3, 0, 53, quiet, &rq[1]);
      rc = MPI_Waitall(2, rq, sts);
      printf("waitall: %s, [0] %s, [1] %s\n", class_name(rc), class_name(sts[0].MPI_ERROR), class_name(sts[1].MPI_ERROR));
      EXPECT(d2[0] == val(0) && d2[2] == val(1) && d2[4] == -1.0, "waitall fitting receive");
      memset(foot, 0, sizeof foot);
      clear(carry);
      for (i = 0; i < 6; ++i) {
        foot[(i / 3) * 5 + (i % 3) * EVERY] = 1;
        carry[(i / 3) * 5 + (i % 3) * EVERY] = val(i);
      }
      check_truncated("waitall", dst, foot, carry);
      check_vec("waitall fits", d2, 3, 2);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    clear(dst);
    rc = MPI_Sendrecv(src, 1, MPI_DOUBLE, 0, 55, dst, 2, MPI_DOUBLE, 0, 54, quiet, &st);
    printf("sendrecv: %s\n", class_name(rc));
    memset(foot, 0, sizeof foot);
    clear(carry);
    foot[0] = foot[1] = 1;
    carry[0] = val(0);
    carry[1] = val(2);
    check_truncated("sendrecv", dst, foot, carry);

    clear(dst);
    rc = MPI_Recv(dst, 3, nothing[1], 0, 56, quiet, &st);
    printf("into nothing: %s\n", class_name(rc));
    for (i = 0; i < B; ++i) EXPECT(dst[i] == -1.0, "into nothing wrote %d", i);
  }

  /* Life goes on: a ring of derived-type messages on both communicators. */
  for (k = 0; k < 2; ++k) {
    MPI_Comm comm = k ? quiet : MPI_COMM_WORLD;
    clear(dst);
    MPI_Sendrecv(src, 2, vec3, 1 - rank, 60 + k, dst, 2, vec3, 1 - rank, 60 + k, comm, &st);
    {
      double want[B];
      int q;
      clear(want);
      for (q = 0; q < 6; ++q) want[(q / 3) * 5 + (q % 3) * EVERY] = val((q / 3) * 5 + (q % 3) * EVERY);
      for (i = 0; i < B; ++i) EXPECT(dst[i] == want[i], "after truncation comm %d [%d] = %g", k, i, dst[i]);
    }
  }

  MPI_Comm_free(&quiet);
  MPI_Type_free(&vec3);
  MPI_Type_free(&sub);
  MPI_Type_free(&ids0);
  MPI_Type_free(&idst);
  for (k = 0; k < NV; ++k) MPI_Type_free(&tv[k]);
  for (k = 0; k < 4; ++k) MPI_Type_free(&nothing[k]);
  MPI_Type_free(&one);
  MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 1) printf("status_truncate: errors %d\n", all);
  MPI_Finalize();
  return all ? 1 : 0;
}
