/* report.c: verification against the closed-form initial values, and the rank-0 report. */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>

static double v(int rank, int i, int j) { return (double)(rank * 1000 + i * 10 + j); }

int check_ghosts(const double *f, const decomp_t *d) {
  int i, j, bad = 0;
  for (j = 1; j <= NC; ++j) {
    double up = d->up == MPI_PROC_NULL ? -1.0 : v(d->up, NR, j);
    double down = d->down == MPI_PROC_NULL ? -1.0 : v(d->down, 1, j);
    if (f[j] != up) ++bad;
    if (f[(NR + 1) * LD + j] != down) ++bad;
  }
  for (i = 1; i <= NR; ++i) {
    if (f[i * LD] != v(d->rank, i, NC)) ++bad;
    if (f[i * LD + NC + 1] != v(d->rank, i, 1)) ++bad;
  }
  return bad;
}

int check_copy(const double *copy, int from) {
  int i, j, k, bad = 0;
  for (j = 1; j <= NC; ++j) {
    if (copy[LD + j] != v(from, 1, j)) ++bad;
    if (copy[2 * LD + j] != v(from, 2, j)) ++bad;
  }
  /* The column ghosts of the copied rows were filled by the self exchanges before the send. */
  if (copy[LD] != v(from, 1, NC) || copy[2 * LD + NC + 1] != v(from, 2, 1)) ++bad;
  for (k = 0; k < 3; ++k)
    for (i = 0; i < NR; ++i)
      if (copy[5 * LD + k * NR + i] != v(from, i + 1, k + 2)) ++bad;
  return bad;
}

void report(const double *f, const decomp_t *d, int errors) {
  double local = field_checksum(f), *sums = NULL;
  int *errs = NULL, r, total = 0;
  if (d->rank == 0) {
    sums = malloc((size_t)d->size * sizeof *sums);
    errs = malloc((size_t)d->size * sizeof *errs);
  }
  MPI_Gather(&local, 1, MPI_DOUBLE, sums, 1, MPI_DOUBLE, 0, d->comm);
  MPI_Gather(&errors, 1, MPI_INT, errs, 1, MPI_INT, 0, d->comm);
  if (d->rank == 0) {
    for (r = 0; r < d->size; ++r) {
      printf("rank %d checksum %.1f errors %d\n", r, sums[r], errs[r]);
      total += errs[r];
    }
    printf("%s\n", total == 0 ? "OK" : "FAILED");
    free(sums);
    free(errs);
  }
  if (total != 0) MPI_Abort(d->comm, 5);
}
