/* halo/exchange.h: the halo exchanges of exchange.c. */
#ifndef HALO_EXCHANGE_H
#define HALO_EXCHANGE_H

#include <mpi.h>

int exchange_x(double *field, int left, int right, MPI_Comm comm);
int exchange_y(double *field, MPI_Comm comm);
int exchange_corners(double *field, int left, int right, MPI_Comm comm);

#endif /* HALO_EXCHANGE_H */
