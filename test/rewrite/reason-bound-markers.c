// MPI-1's MPI_UB and MPI_LB (removed in MPI-3; MPICH still defines them) are markers, not
// datatypes: a struct built with one is left to the MPI, and the remark names the marker. Another
// MPI_ name the tool does not know is named too (MPICH's test suite, session 26: the remark said
// the variable "is not a variable or a predefined type").
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#define MPI_UB ((MPI_Datatype)0x4c000011)
#define MPI_LB ((MPI_Datatype)0x4c000010)
#define MPI_NEWER_TYPE ((MPI_Datatype)0x4c00ffff)

int main(int argc, char **argv) {
  int buf[64];
  int lengths[2] = {2, 1};
  MPI_Aint displacements[2] = {0, 16};
  MPI_Datatype upper[2] = {MPI_INT, MPI_UB}, lower[2] = {MPI_LB, MPI_INT};
  MPI_Datatype up, low, newer;
  MPI_Init(&argc, &argv);
  MPI_Type_create_struct(2, lengths, displacements, upper, &up);
  MPI_Type_create_struct(2, lengths, displacements, lower, &low);
  MPI_Type_contiguous(2, MPI_NEWER_TYPE, &newer);
  MPI_Type_commit(&up);
  MPI_Type_commit(&low);
  MPI_Type_commit(&newer);
  MPI_Send(buf, 1, up, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, low, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, newer, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK-NOT: tempi_Send
// REMARK: remark: datatype 'up' of MPI_Send is left to the runtime: 'MPI_UB' is MPI-1's bound marker (removed in MPI-3), which the tool leaves to the MPI
// REMARK: remark: datatype 'low' of MPI_Send is left to the runtime: 'MPI_LB' is MPI-1's bound marker (removed in MPI-3), which the tool leaves to the MPI
// REMARK: remark: datatype 'newer' of MPI_Send is left to the runtime: the oldtype of MPI_Type_contiguous is unresolved: 'MPI_NEWER_TYPE' is not a predefined datatype the tool knows
