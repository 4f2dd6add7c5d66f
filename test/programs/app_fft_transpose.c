/* A 2-D FFT-style transform with a slab decomposition, as spectral codes do it: each rank owns
 * NL rows of an N x N complex field (complex = MPI_Type_contiguous of 2 doubles), transforms its
 * rows (a plain DFT here), transposes the field globally and transforms the rows again.
 *  - forward transpose: MPI_Alltoallw with per-peer type arrays filled by a counted loop over
 *    the (fixed) number of ranks: the send block is an NL x NL MPI_Type_vector of the slab, the
 *    receive type places it transposed (a column vector resized to one complex, NL of them
 *    contiguous), with byte displacements;
 *  - backward transpose: MPI_Alltoallv with the same two shapes resized to one complex, so the
 *    displacements count complex numbers;
 *  - a check transpose of one block with MPI_Sendrecv between rank pairs, received contiguous.
 * Every rank also computes the whole transform serially: the distributed spectrum must equal it
 * bit for bit, and the inverse transform must give back the input (to rounding). Rank 0
 * prints a few spectral magnitudes.
 * NP: 4 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPROC 4
#define N 16
#define NL (N / NPROC)
#define PI 3.14159265358979323846

typedef struct { double re, im; } cplx;

static cplx tw[N];

static void dft_rows(cplx *rows, int nrows, int sign) {
  cplx tmp[N];
  for (int r = 0; r < nrows; ++r) {
    cplx *x = rows + (size_t)r * N;
    for (int k = 0; k < N; ++k) {
      double re = 0, im = 0;
      for (int j = 0; j < N; ++j) {
        cplx w = tw[(j * k) % N];
        double wi = sign * w.im;
        re += x[j].re * w.re - x[j].im * wi;
        im += x[j].re * wi + x[j].im * w.re;
      }
      tmp[k].re = re;
      tmp[k].im = im;
    }
    memcpy(x, tmp, sizeof tmp);
  }
}

static cplx input(int i, int j) {
  cplx c = {(double)((i * 7 + j * 3) % 11) - 5.0, (double)((i + 2 * j) % 5) * 0.5};
  return c;
}

int main(int argc, char **argv) {
  int rank, size, bad = 0, allbad = 0;
  static cplx a[NL][N], b[NL][N], ser[N][N], sert[N][N];
  MPI_Datatype cx, block, col, col1, tblock, block1, tblock1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != NPROC) {
    if (rank == 0) fprintf(stderr, "run with %d ranks\n", NPROC);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (int m = 0; m < N; ++m) {
    tw[m].re = cos(2 * PI * m / N);
    tw[m].im = -sin(2 * PI * m / N);
  }

  MPI_Type_contiguous(2, MPI_DOUBLE, &cx);
  MPI_Type_commit(&cx);
  /* an NL x NL block of the slab: NL rows of NL complex numbers, N apart */
  MPI_Type_vector(NL, NL, N, cx, &block);
  /* one column of NL complex numbers, resized to one complex so that NL of them interleave */
  MPI_Type_vector(NL, 1, N, cx, &col);
  MPI_Type_create_resized(col, 0, sizeof(cplx), &col1);
  MPI_Type_contiguous(NL, col1, &tblock);
  MPI_Type_commit(&block);
  MPI_Type_commit(&tblock);
  /* the same shapes with an extent of one complex, for displacements counted in elements */
  MPI_Type_create_resized(block, 0, sizeof(cplx), &block1);
  MPI_Type_create_resized(tblock, 0, sizeof(cplx), &tblock1);
  MPI_Type_commit(&block1);
  MPI_Type_commit(&tblock1);

  for (int i = 0; i < NL; ++i)
    for (int j = 0; j < N; ++j) a[i][j] = input(rank * NL + i, j);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) ser[i][j] = input(i, j);

  /* ---- serial reference: rows, transpose, rows ---- */
  dft_rows(&ser[0][0], N, 1);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) sert[j][i] = ser[i][j];
  dft_rows(&sert[0][0], N, 1);

  /* ---- distributed forward transform ---- */
  dft_rows(&a[0][0], NL, 1);
  {
    int counts[NPROC], sdispls[NPROC], rdispls[NPROC];
    MPI_Datatype stypes[NPROC], rtypes[NPROC];
    for (int q = 0; q < NPROC; ++q) {
      counts[q] = 1;
      sdispls[q] = q * NL * (int)sizeof(cplx);
      rdispls[q] = q * NL * (int)sizeof(cplx);
      stypes[q] = block;
      rtypes[q] = tblock;
    }
    MPI_Alltoallw(a, counts, sdispls, stypes, b, counts, rdispls, rtypes, MPI_COMM_WORLD);
  }
  dft_rows(&b[0][0], NL, 1);
  for (int jl = 0; jl < NL; ++jl)
    for (int i = 0; i < N; ++i) {
      cplx want = sert[rank * NL + jl][i];
      if (b[jl][i].re != want.re || b[jl][i].im != want.im) {
        if (bad < 3)
          fprintf(stderr, "rank %d: spectrum (%d,%d) = (%g,%g), serial (%g,%g)\n", rank, jl, i,
                  b[jl][i].re, b[jl][i].im, want.re, want.im);
        ++bad;
      }
    }

  /* ---- one block transposed by hand between rank pairs, received contiguous ---- */
  {
    int partner = rank ^ 1;
    cplx got[NL][NL];
    MPI_Sendrecv(&b[0][partner * NL], 1, block, partner, 5, got, NL * NL, cx, partner, 5,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int r = 0; r < NL; ++r)
      for (int c = 0; c < NL; ++c) {
        cplx want = sert[partner * NL + r][rank * NL + c];
        if (got[r][c].re != want.re || got[r][c].im != want.im) ++bad;
      }
  }

  /* ---- inverse: rows, transpose back, rows ---- */
  dft_rows(&b[0][0], NL, -1);
  {
    int counts[NPROC], displs[NPROC];
    for (int q = 0; q < NPROC; ++q) {
      counts[q] = 1;
      displs[q] = q * NL;
    }
    MPI_Alltoallv(b, counts, displs, block1, a, counts, displs, tblock1, MPI_COMM_WORLD);
  }
  dft_rows(&a[0][0], NL, -1);
  double maxerr = 0;
  for (int i = 0; i < NL; ++i)
    for (int j = 0; j < N; ++j) {
      cplx want = input(rank * NL + i, j);
      double er = fabs(a[i][j].re / (N * N) - want.re), ei = fabs(a[i][j].im / (N * N) - want.im);
      if (er > maxerr) maxerr = er;
      if (ei > maxerr) maxerr = ei;
    }
  if (maxerr > 1e-12) ++bad;

  MPI_Allreduce(&bad, &allbad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("2-D DFT %d x %d on %d ranks\n", N, N, size);
    for (int k = 0; k < 4; ++k)
      printf("|X(%d,%d)| = %.6f\n", k, 3 * k % N, hypot(sert[k][3 * k % N].re, sert[k][3 * k % N].im));
    printf("distributed vs serial: %s (%d mismatches)\n", allbad ? "FAILED" : "ok", allbad);
  }
  MPI_Type_free(&cx);
  MPI_Type_free(&block);
  MPI_Type_free(&col);
  MPI_Type_free(&col1);
  MPI_Type_free(&tblock);
  MPI_Type_free(&block1);
  MPI_Type_free(&tblock1);
  MPI_Finalize();
  return allbad ? 1 : 0;
}
