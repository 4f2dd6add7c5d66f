/* fields.h: the field library of the strict_lib program (sizes, datatype factories, exchange). */
#ifndef STRICT_LIB_FIELDS_H
#define STRICT_LIB_FIELDS_H

#include <mpi.h>

#define NR 10           /* interior rows per rank */
#define NC 6            /* interior columns per rank */
#define LD (NC + 2)     /* leading dimension, with one ghost column each side */
#define FIELD_SIZE ((NR + 2) * LD)

typedef struct {
  int rank, size, up, down;
  MPI_Comm comm;
} decomp_t;

/* Builds (and commits) a column of nrows elements in a row-major array with leading dimension
 * ld. The caller frees it. */
MPI_Datatype field_column_type(int nrows, int ld);

/* The library's own committed types, kept in static globals of fields.c. */
int field_types_init(void);
void field_types_free(void);

/* Ghost-row exchange with the up/down neighbours, using the library's row type. */
int field_exchange_rows(double *f, const decomp_t *d);

/* Checksum of the interior, weighted by position. */
double field_checksum(const double *f);

#endif
