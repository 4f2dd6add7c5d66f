/* A library-style C program built as `make` with strict warnings does: three translation units,
 * a header declaring a function that builds and returns an MPI_Datatype (defined in fields.c,
 * used here), committed types held in static globals of fields.c, and types built and used
 * locally in main.c (those are rewritten, so the generated code must compile without warnings
 * under -Werror). Ranks form a non-periodic 1-D chain; ghost rows go through the library, ghost
 * columns and a block of the interior through local types, and every ghost is checked.
 * NP: 4
 * CFLAGS: -std=c99 -pedantic -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wold-style-definition -Wcast-qual -Wwrite-strings -Wundef -Wconversion -Wsign-conversion -Wredundant-decls -Wnested-externs -Wpointer-arith -Wdeclaration-after-statement */
#include <stdio.h>
#include <stdlib.h>

#include "fields.h"
#include "report.h"

static double init_value(int rank, int i, int j) { return (double)(rank * 1000 + i * 10 + j); }

int main(int argc, char **argv) {
  decomp_t d;
  double *f, *copy;
  int i, j, errors = 0, n;
  MPI_Datatype col, col_ext, rows2;
  MPI_Status st;
  MPI_Aint lb, extent;

  MPI_Init(&argc, &argv);
  d.comm = MPI_COMM_WORLD;
  MPI_Comm_rank(d.comm, &d.rank);
  MPI_Comm_size(d.comm, &d.size);
  d.up = d.rank > 0 ? d.rank - 1 : MPI_PROC_NULL;
  d.down = d.rank < d.size - 1 ? d.rank + 1 : MPI_PROC_NULL;

  f = malloc(FIELD_SIZE * sizeof *f);
  copy = malloc(FIELD_SIZE * sizeof *copy);
  if (f == NULL || copy == NULL) MPI_Abort(d.comm, 2);
  for (i = 0; i < NR + 2; ++i)
    for (j = 0; j < LD; ++j)
      f[i * LD + j] = (i >= 1 && i <= NR && j >= 1 && j <= NC) ? init_value(d.rank, i, j) : -1.0;

  if (field_types_init() != MPI_SUCCESS) MPI_Abort(d.comm, 3);
  if (field_exchange_rows(f, &d) != MPI_SUCCESS) MPI_Abort(d.comm, 4);

  /* Columns, periodic in the column direction inside one rank: the library's factory. */
  {
    MPI_Datatype lib_col = field_column_type(NR, LD);
    MPI_Sendrecv(&f[LD + NC], 1, lib_col, d.rank, 20, &f[LD], 1, lib_col, d.rank, 20, d.comm, &st);
    MPI_Type_free(&lib_col);
  }
  /* The same column built here, sent to self the other way, with a resized twin. */
  MPI_Type_vector(NR, 1, LD, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, (MPI_Aint)sizeof(double), &col_ext);
  MPI_Type_commit(&col);
  MPI_Type_commit(&col_ext);
  MPI_Sendrecv(&f[LD + 1], 1, col, d.rank, 21, &f[LD + NC + 1], 1, col, d.rank, 21, d.comm, &st);
  MPI_Get_count(&st, col, &n);
  if (n != 1) ++errors;
  MPI_Type_get_extent(col_ext, &lb, &extent);
  if (lb != 0 || extent != (MPI_Aint)sizeof(double)) ++errors;

  /* Two full rows (ghosts included) down the chain, as one contiguous-of-contiguous type. */
  MPI_Type_contiguous(2 * LD, MPI_DOUBLE, &rows2);
  MPI_Type_commit(&rows2);
  for (i = 0; i < FIELD_SIZE; ++i) copy[i] = -2.0;
  if (d.rank % 2 == 0 && d.down != MPI_PROC_NULL)
    MPI_Send(&f[LD], 1, rows2, d.down, 30, d.comm);
  else if (d.rank % 2 == 1)
    MPI_Recv(&copy[LD], 1, rows2, d.up, 30, d.comm, &st);
  /* Three interior columns as count 3 of the resized column. */
  if (d.rank % 2 == 0 && d.down != MPI_PROC_NULL)
    MPI_Send(&f[LD + 2], 3, col_ext, d.down, 31, d.comm);
  else if (d.rank % 2 == 1)
    MPI_Recv(&copy[5 * LD], 3 * NR, MPI_DOUBLE, d.up, 31, d.comm, &st);

  errors += check_ghosts(f, &d);
  if (d.rank % 2 == 1) errors += check_copy(copy, d.rank - 1);

  report(f, &d, errors);

  MPI_Type_free(&col);
  MPI_Type_free(&col_ext);
  MPI_Type_free(&rows2);
  field_types_free();
  free(f);
  free(copy);
  MPI_Finalize();
  return 0;
}
