/* e2e_check.h: the check of the runtime's end-to-end programs (runtime_*.c). A failed condition
 * is printed with the rank, file and line, and counted in `failures`, which each program sums over
 * the ranks at the end (exit status 1 when any check failed). `rank` is set by the program after
 * MPI_Init. */
#ifndef TEMPI_E2E_CHECK_H
#define TEMPI_E2E_CHECK_H
#include <stdio.h>

static int rank, failures;

#define CHECK(cond, ...)                                                                          \
  do {                                                                                            \
    if (!(cond)) {                                                                                \
      fprintf(stderr, "rank %d: %s:%d: check failed: %s: ", rank, __FILE__, __LINE__, #cond);    \
      fprintf(stderr, __VA_ARGS__);                                                               \
      fprintf(stderr, "\n");                                                                      \
      ++failures;                                                                                 \
    }                                                                                             \
  } while (0)

#endif
