/* report.h: checks and output of the strict_lib program. */
#ifndef STRICT_LIB_REPORT_H
#define STRICT_LIB_REPORT_H

#include "fields.h"

int check_ghosts(const double *f, const decomp_t *d);
int check_copy(const double *copy, int from);
void report(const double *f, const decomp_t *d, int errors);

#endif
