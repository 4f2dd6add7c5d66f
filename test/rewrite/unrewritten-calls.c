// Calls tempi-rewrite never rewrites (collectives but the blocking alltoallv/w forms, MPI-4's
// persistent collectives and partitioned calls, one-sided and file I/O calls, the point-to-point
// calls below) get a remark under --explain when a datatype argument is a derived type, saying what
// libtempi does with them; with predefined types there is nothing to say.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: diff %t.c %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --implicit-check-not=remark: --input-file=%t.err %s
#include <mpi.h>

void calls(double *a, double *b, MPI_Win win, MPI_File fh, int rank) {
  MPI_Datatype col, colres;
  int counts[4] = {1, 1, 1, 1}, displs[4] = {0, 1, 2, 3};
  MPI_Type_vector(16, 1, 16, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, 8, &colres);
  MPI_Type_commit(&colres);
  MPI_Scatter(a, 1, colres, b, 16, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  // REMARK: .c:[[@LINE-1]]:3: remark: MPI_Scatter is left unchanged: tempi-rewrite does not rewrite it (datatype 'colres'); libtempi serves a device buffer there through a host copy
  MPI_Gatherv(b, 16, MPI_DOUBLE, a, counts, displs, colres, 0, MPI_COMM_WORLD);
  // REMARK: .c:[[@LINE-1]]:3: remark: MPI_Gatherv is left unchanged: tempi-rewrite does not rewrite it (datatype 'colres'); libtempi serves a device buffer there through a host copy
  MPI_Bcast(a, 1, col, 0, MPI_COMM_WORLD);
  // REMARK: .c:[[@LINE-1]]:3: remark: MPI_Bcast is left unchanged: tempi-rewrite does not rewrite it (datatype 'col'); libtempi serves a device buffer there through a host copy
  MPI_Put(a, 1, col, rank, 0, 1, col, win);
  // REMARK: .c:[[@LINE-1]]:3: remark: MPI_Put is left unchanged: tempi-rewrite does not rewrite it (datatype 'col'); libtempi does not interpose it either, so a device buffer reaches the MPI as it is
  MPI_File_write_at_all(fh, 0, a, 1, col, MPI_STATUS_IGNORE);
  // REMARK: .c:[[@LINE-1]]:3: remark: MPI_File_write_at_all is left unchanged: tempi-rewrite does not rewrite it (datatype 'col'); libtempi does not interpose it either, so a device buffer reaches the MPI as it is
  // Predefined and null datatypes only: no remark.
  MPI_Bcast(a, 16, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Allreduce(a, b, 16, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Scatter(a, 16, MPI_DOUBLE, b, 16, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Type_free(&colres);
  MPI_Type_free(&col);
}

// MPI-4's persistent collectives and partitioned calls, and the nonblocking alltoallv forms
// (declared here: the mock header does not have them).
typedef int MPI_Info;
int MPI_Bcast_init(void *, int, MPI_Datatype, int, MPI_Comm, MPI_Info, MPI_Request *);
int MPI_Psend_init(const void *, int, long long, MPI_Datatype, int, int, MPI_Comm, MPI_Info,
                   MPI_Request *);
int MPI_Ialltoallv(const void *, const int[], const int[], MPI_Datatype, void *, const int[],
                   const int[], MPI_Datatype, MPI_Comm, MPI_Request *);

void mpi4(double *a, double *b, MPI_Info info) {
  MPI_Datatype col;
  MPI_Request r[3];
  int counts[4] = {1, 1, 1, 1}, displs[4] = {0, 1, 2, 3};
  MPI_Type_vector(16, 1, 16, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Bcast_init(a, 1, col, 0, MPI_COMM_WORLD, info, &r[0]);
  // REMARK: .c:[[@LINE-1]]:3: remark: MPI_Bcast_init is left unchanged: tempi-rewrite does not rewrite it (datatype 'col'); libtempi does not interpose it either, so a device buffer reaches the MPI as it is
  MPI_Psend_init(a, 4, 1, col, 1, 0, MPI_COMM_WORLD, info, &r[1]);
  // REMARK: .c:[[@LINE-1]]:3: remark: MPI_Psend_init is left unchanged: tempi-rewrite does not rewrite it (datatype 'col'); libtempi does not interpose it either, so a device buffer reaches the MPI as it is
  MPI_Ialltoallv(a, counts, displs, col, b, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD, &r[2]);
  // REMARK: .c:[[@LINE-1]]:3: remark: MPI_Ialltoallv is left unchanged: tempi-rewrite does not rewrite it (datatype 'col'); libtempi serves a device buffer there through a host copy
  MPI_Type_free(&col);
}

// Point-to-point calls libtempi serves itself that the tool does not rewrite (MPICH's test suite,
// session 26: MPI_Irsend and MPI_Mrecv got no remark at all), and MPI_Pack_external.
typedef struct mock_message *MPI_Message;
int MPI_Irsend(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
int MPI_Ssend_init(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
int MPI_Mrecv(void *, int, MPI_Datatype, MPI_Message *, MPI_Status *);
int MPI_Isendrecv(const void *, int, MPI_Datatype, int, int, void *, int, MPI_Datatype, int, int,
                  MPI_Comm, MPI_Request *);
int MPI_Pack_external(const char *, const void *, int, MPI_Datatype, void *, MPI_Aint,
                      MPI_Aint *);

void p2p(double *a, double *b, MPI_Message *m, char *packed) {
  MPI_Datatype col;
  MPI_Request r[3];
  MPI_Aint position = 0;
  MPI_Type_vector(16, 1, 16, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Irsend(a, 1, col, 1, 0, MPI_COMM_WORLD, &r[0]);
  // REMARK: .c:[[@LINE-1]]:3: remark: MPI_Irsend is left unchanged: tempi-rewrite does not rewrite it (datatype 'col'); libtempi packs a device buffer there with the plan it made at MPI_Type_commit
  MPI_Ssend_init(a, 1, col, 1, 0, MPI_COMM_WORLD, &r[1]);
  // REMARK: .c:[[@LINE-1]]:3: remark: MPI_Ssend_init is left unchanged: tempi-rewrite does not rewrite it (datatype 'col'); libtempi packs a device buffer there with the plan it made at MPI_Type_commit
  MPI_Mrecv(b, 1, col, m, MPI_STATUS_IGNORE);
  // REMARK: .c:[[@LINE-1]]:3: remark: MPI_Mrecv is left unchanged: tempi-rewrite does not rewrite it (datatype 'col'); libtempi packs a device buffer there with the plan it made at MPI_Type_commit
  MPI_Isendrecv(a, 16, MPI_DOUBLE, 1, 0, b, 1, col, 1, 0, MPI_COMM_WORLD, &r[2]);
  // REMARK: .c:[[@LINE-1]]:3: remark: MPI_Isendrecv is left unchanged: tempi-rewrite does not rewrite it (datatype 'col'); libtempi serves a device buffer there through a host copy
  MPI_Pack_external("external32", a, 1, col, packed, 128, &position);
  // REMARK: .c:[[@LINE-1]]:3: remark: MPI_Pack_external is left unchanged: tempi-rewrite does not rewrite it (datatype 'col'); libtempi does not interpose it either, so a device buffer reaches the MPI as it is
  MPI_Type_free(&col);
}
