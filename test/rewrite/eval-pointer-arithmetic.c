// Pointer arithmetic counts elements of the pointee, as C does: an address is held as a byte
// offset into its object, so `row1 - row0` of two `double *` divides the bytes by 8, `p + k`,
// `k + p`, `p - k`, `p += k` and `p++` move 8k bytes, `char *` arithmetic counts bytes, and an
// MPI_Aint difference stays in bytes. (Before session 22 the tool counted bytes everywhere and
// proved a stride of 48 for `row1 - row0`.) Two addresses that are not a whole number of
// elements apart are refused.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

#define NX 6
#define NY 4

static double field[NY][NX];
static double work[4 * NX];

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  /* A pointer difference counts elements: 6, not 48. */
  double *row0 = &field[0][0], *row1 = &field[1][0];
  int stride = row1 - row0;
  MPI_Datatype col;
  MPI_Type_vector(NY, 1, stride, MPI_DOUBLE, &col);
  MPI_Send(&field[0][1], 1, col, 1, 0, MPI_COMM_WORLD);

  /* p + k, k + p, p - k and p[k] move k elements; an MPI_Aint difference is in bytes. */
  MPI_Aint a0, a1, a2, a3;
  MPI_Get_address(work, &a0);
  MPI_Get_address(work + NX, &a1);
  MPI_Get_address(2 * NX + work, &a2);
  MPI_Get_address(&work[3 * NX + 1] - 1, &a3);
  MPI_Aint d[3] = {a1 - a0, a2 - a0, a3 - a0};
  MPI_Datatype picks;
  MPI_Type_create_hindexed_block(3, 1, d, MPI_DOUBLE, &picks);
  MPI_Send(work, 1, picks, 1, 0, MPI_COMM_WORLD);

  /* p += k, p++ and p-- on a pointer variable. */
  double *p = work;
  p += NX;
  p++;
  p++;
  p--;
  MPI_Aint b0, b1;
  MPI_Get_address(work, &b0);
  MPI_Get_address(p, &b1);
  MPI_Aint e[2] = {0, b1 - b0};
  MPI_Datatype moved;
  MPI_Type_create_hindexed_block(2, 1, e, MPI_DOUBLE, &moved);
  MPI_Send(work, 1, moved, 1, 0, MPI_COMM_WORLD);

  /* Byte pointers count bytes. */
  char *c0 = (char *)work, *c1 = (char *)&work[2];
  int gap = c1 - c0;
  MPI_Datatype bytes;
  MPI_Type_vector(2, 8, gap, MPI_BYTE, &bytes);
  MPI_Send(work, 1, bytes, 1, 0, MPI_COMM_WORLD);

  /* Two addresses that are not a whole number of elements apart: refused. */
  double *odd = (double *)((char *)work + 4);
  int half = odd - work;
  MPI_Datatype bad;
  MPI_Type_vector(2, 1, half, MPI_DOUBLE, &bad);
  MPI_Send(work, 1, bad, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: tempi_Send(&field[0][1], 1, col, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// CHECK: tempi_Send(work, 1, picks, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// CHECK: tempi_Send(work, 1, moved, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// CHECK: tempi_Send(work, 1, bytes, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// CHECK: {{^}}  MPI_Send(work, 1, bad, 1, 0, MPI_COMM_WORLD);
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'col' holds vector(4, 1, 6, MPI_DOUBLE),
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'picks' holds hindexed_block(3, 1, [48, 96, 144], MPI_DOUBLE),
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'moved' holds hindexed_block(2, 1, [0, 56], MPI_DOUBLE),
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'bytes' holds vector(2, 8, 16, MPI_BYTE),
// REMARK: remark: datatype 'bad' of MPI_Send is left to the runtime: stride subtracts addresses that are not a whole number of elements apart [-Rtempi]
