/* MPI declarations the send-deferral tests (defer-*.c) need beyond the shared mock mpi.h:
 * calls TEMPI does not intercept (MPI_Barrier), calls that end the program (MPI_Abort), and a
 * few neutral queries. Include after <mpi.h>. */
#ifndef TEMPI_TEST_MPI_MORE_H
#define TEMPI_TEST_MPI_MORE_H
int MPI_Barrier(MPI_Comm comm);
int MPI_Abort(MPI_Comm comm, int errorcode);
int MPI_Wait(MPI_Request *request, MPI_Status *status);
int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
int MPI_Error_string(int errorcode, char *string, int *resultlen);
double MPI_Wtime(void);
#ifndef MPI_MAX_ERROR_STRING
#define MPI_MAX_ERROR_STRING 512
#endif
#endif
