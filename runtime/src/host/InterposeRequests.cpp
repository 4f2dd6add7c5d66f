/// \file
/// Request interposers (Wait, Test families, Request_get_status, Start, Startall, Request_free,
/// Cancel): all forward to the request table (Requests.h), which is the plain PMPI call when no
/// TEMPI request exists.
#include "DeferredSends.h"
#include "Requests.h"

extern "C" {

int MPI_Wait(MPI_Request *request, MPI_Status *status) {
  return tempi::requests::wait(request, status);
}
int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
  return tempi::requests::waitall(count, array_of_requests, array_of_statuses);
}
int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status) {
  return tempi::requests::waitany(count, array_of_requests, index, status);
}
int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[]) {
  return tempi::requests::waitsome(incount, array_of_requests, outcount, array_of_indices,
                                   array_of_statuses);
}
int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
  return tempi::requests::test(request, flag, status);
}
int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                MPI_Status array_of_statuses[]) {
  return tempi::requests::testall(count, array_of_requests, flag, array_of_statuses);
}
int MPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                MPI_Status *status) {
  return tempi::requests::testany(count, array_of_requests, index, flag, status);
}
int MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[]) {
  return tempi::requests::testsome(incount, array_of_requests, outcount, array_of_indices,
                                   array_of_statuses);
}
int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status) {
  return tempi::requests::requestGetStatus(request, flag, status);
}
int MPI_Start(MPI_Request *request) { return tempi::requests::start(request); }
int MPI_Startall(int count, MPI_Request array_of_requests[]) {
  return tempi::requests::startall(count, array_of_requests);
}
int MPI_Request_free(MPI_Request *request) { return tempi::requests::requestFree(request); }
// A cancelled TEMPI receive is recognized at completion (MPI_Test_cancelled) and moves no data.
int MPI_Cancel(MPI_Request *request) {
  TEMPI_FLUSH_DEFERRED(); // a deferred send is cancelled once started, like any other
  return PMPI_Cancel(request);
}

} // extern "C"
