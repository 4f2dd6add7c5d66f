/* A struct sent as bytes: under -fpack-struct its size is 13, not 24, so the tool must see the
 * flag (packed-struct.test). */
#include <mpi.h>
#include <stdio.h>

struct rec {
  char tag;
  double v;
  int n;
};

int main(int argc, char **argv) {
  struct rec r[4], s[4];
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  for (int i = 0; i < 4; ++i) {
    r[i].tag = (char)('a' + i);
    r[i].v = i * 1.5;
    r[i].n = i;
  }
  MPI_Type_contiguous(sizeof(struct rec), MPI_BYTE, &t);
  MPI_Type_commit(&t);
  MPI_Sendrecv(r, 4, t, 0, 0, s, 4, t, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  printf("size %d: %c %g %d\n", (int)sizeof(struct rec), s[3].tag, s[3].v, s[3].n);
  MPI_Type_free(&t);
  MPI_Finalize();
  return 0;
}
