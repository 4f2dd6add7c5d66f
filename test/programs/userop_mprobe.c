/* Reductions and matched probes with derived types: a complex type (contiguous of 2 doubles)
 * reduced with a user MPI_Op (complex product) in MPI_Allreduce, a resized struct {value, index,
 * rank} reduced with a non-commutative user "first minimum" op in MPI_Reduce; variable-length
 * messages of a strided type received with MPI_Mprobe + MPI_Get_count + malloc + MPI_Mrecv from
 * MPI_ANY_SOURCE; an MPI_Iprobe polling loop followed by MPI_Recv with an MPI_Type_dup of the
 * committed type. Every value is checked against what its global indices give.
 * NP: 4 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define NC 6 /* complex numbers per rank */
#define NM 5 /* minimum-location entries per rank */
#define MAXP 16

typedef struct { double re, im; } cplx;
typedef struct { double value; int index; int rank; } minloc_t;

static void cmul(void *in, void *inout, int *len, MPI_Datatype *dt) {
  cplx *a = in, *b = inout;
  int k;
  (void)dt;
  for (k = 0; k < *len; ++k) {
    cplx r = {a[k].re * b[k].re - a[k].im * b[k].im, a[k].re * b[k].im + a[k].im * b[k].re};
    b[k] = r;
  }
}

static void first_min(void *in, void *inout, int *len, MPI_Datatype *dt) {
  minloc_t *a = in, *b = inout;
  int k;
  (void)dt;
  for (k = 0; k < *len; ++k)
    if (a[k].value < b[k].value || (a[k].value == b[k].value && a[k].rank < b[k].rank)) b[k] = a[k];
}

static double mval(int r, int k) { return (double)((r * 7 + k * 3) % 5); }

int main(int argc, char **argv) {
  int rank, size, k, r, errs = 0, all;
  cplx z[NC], prod[NC];
  minloc_t m[NM], best[NM];
  int blen[3] = {1, 1, 1};
  MPI_Aint disp[3] = {offsetof(minloc_t, value), offsetof(minloc_t, index), offsetof(minloc_t, rank)};
  MPI_Datatype types[3] = {MPI_DOUBLE, MPI_INT, MPI_INT};
  MPI_Datatype ctype, mraw, mtype, pairs, pairs2;
  MPI_Op cop, mop;
  long long sum = 0;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > MAXP) MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Type_contiguous(2, MPI_DOUBLE, &ctype);
  MPI_Type_commit(&ctype);
  MPI_Type_create_struct(3, blen, disp, types, &mraw);
  MPI_Type_create_resized(mraw, 0, sizeof(minloc_t), &mtype);
  MPI_Type_commit(&mtype);
  MPI_Type_vector(3, 2, 4, MPI_INT, &pairs); /* ints 0,1, 4,5, 8,9; extent 10 ints */
  MPI_Type_commit(&pairs);
  MPI_Type_dup(pairs, &pairs2);
  MPI_Type_commit(&pairs2);
  MPI_Op_create(cmul, 1, &cop);
  MPI_Op_create(first_min, 0, &mop);

  /* 1. Product over ranks of (r+1) + k i, checked against a serial product. */
  for (k = 0; k < NC; ++k) z[k].re = rank + 1, z[k].im = k;
  MPI_Allreduce(z, prod, NC, ctype, cop, MPI_COMM_WORLD);
  for (k = 0; k < NC; ++k) {
    cplx w = {1.0, 0.0};
    for (r = 0; r < size; ++r) {
      cplx t = {w.re * (r + 1) - w.im * k, w.re * k + w.im * (r + 1)};
      w = t;
    }
    errs += prod[k].re != w.re || prod[k].im != w.im;
    sum += (long long)prod[k].re + 3 * (long long)prod[k].im;
  }

  /* 2. The first (lowest-rank) minimum of each column. */
  for (k = 0; k < NM; ++k) m[k].value = mval(rank, k), m[k].index = rank * 100 + k, m[k].rank = rank;
  MPI_Reduce(m, best, NM, mtype, mop, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (k = 0; k < NM; ++k) {
      int want = 0;
      for (r = 1; r < size; ++r) if (mval(r, k) < mval(want, k)) want = r;
      errs += best[k].rank != want || best[k].index != want * 100 + k || best[k].value != mval(want, k);
      sum += best[k].index * 10 + (long long)best[k].value;
    }

  /* 3. Rank r > 0 sends r+1 strided groups; rank 0 sizes each receive from the matched probe. */
  if (rank != 0) {
    int out[12 * MAXP];
    for (k = 0; k < 12 * MAXP; ++k) out[k] = rank * 1000 + k;
    MPI_Send(out, rank + 1, pairs, 0, 7, MPI_COMM_WORLD);
  } else {
    for (r = 1; r < size; ++r) {
      MPI_Message msg;
      MPI_Status st;
      MPI_Aint lb, ext;
      int n, *in, src, i;
      MPI_Mprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &msg, &st);
      MPI_Get_count(&st, pairs, &n);
      MPI_Type_get_extent(pairs, &lb, &ext);
      in = malloc(n * ext);
      src = st.MPI_SOURCE;
      MPI_Mrecv(in, n, pairs, &msg, &st);
      errs += n != src + 1;
      errs += ext != 10 * sizeof(int);
      for (i = 0; i < 10 * n; ++i)
        if (i % 10 % 4 < 2) errs += in[i] != src * 1000 + i;
      for (i = 0; i < n; ++i) sum += in[10 * i + 9] % 97 * src;
      free(in);
    }
  }

  /* 4. Rank 0 sends every other rank one group; they poll with MPI_Iprobe, then receive. */
  if (rank == 0) {
    int out[12];
    for (r = 1; r < size; ++r) {
      for (k = 0; k < 12; ++k) out[k] = r * 10 + k;
      MPI_Send(out, 1, pairs, r, 8, MPI_COMM_WORLD);
    }
  } else {
    int flag = 0, in[12], n;
    MPI_Status st;
    while (!flag) MPI_Iprobe(0, 8, MPI_COMM_WORLD, &flag, &st);
    for (k = 0; k < 12; ++k) in[k] = -1;
    MPI_Recv(in, 1, pairs2, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
    MPI_Get_elements(&st, pairs2, &n);
    errs += n != 6;
    for (k = 0; k < 12; ++k) errs += in[k] != ((k % 4 < 2 && k < 10) ? rank * 10 + k : -1);
  }

  MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("checksum %lld, errors %d: %s\n", sum, all, all ? "WRONG" : "ok");
  MPI_Op_free(&cop);
  MPI_Op_free(&mop);
  MPI_Type_free(&ctype);
  MPI_Type_free(&mraw);
  MPI_Type_free(&mtype);
  MPI_Type_free(&pairs);
  MPI_Type_free(&pairs2);
  MPI_Finalize();
  return all ? 1 : 0;
}
