/* End-to-end (tempi-rewrite): exchanging selected fields of an array of structs with a struct
 * type whose displacements come from MPI_Get_address differences, resized to the struct size;
 * also packed with MPI_Pack/MPI_Unpack. Rewritten by tempi-rewrite, run with 4 ranks on host
 * buffers; the received data must equal the unmodified program's byte for byte.
 *   rewrite_struct_fields <output-dir> */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

struct particle { double pos[3]; double vel[3]; int id; float mass; };

int main(int argc, char **argv) {
  int rank, size, i, position = 0;
  struct particle mine[16], got[16], unpacked[16];
  char packed[4096];
  int bl[2] = {3, 3};
  MPI_Aint base, disp[2];
  MPI_Datatype types[2] = {MPI_DOUBLE, MPI_DOUBLE};
  MPI_Datatype pv, pv1;
  char path[4096];
  FILE *f;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  memset(got, 0, sizeof got);
  memset(unpacked, 0, sizeof unpacked);
  for (i = 0; i < 16; ++i) {
    int d;
    for (d = 0; d < 3; ++d) {
      mine[i].pos[d] = rank * 100 + i + d * 0.25;
      mine[i].vel[d] = -(rank * 100 + i) - d * 0.5;
    }
    mine[i].id = rank * 16 + i;
    mine[i].mass = 1.0f + i;
  }
  MPI_Get_address(&mine[0], &base);
  MPI_Get_address(&mine[0].pos[0], &disp[0]);
  MPI_Get_address(&mine[0].vel[0], &disp[1]);
  disp[0] = MPI_Aint_diff(disp[0], base);
  disp[1] = MPI_Aint_diff(disp[1], base);
  MPI_Type_create_struct(2, bl, disp, types, &pv);
  MPI_Type_create_resized(pv, 0, sizeof(struct particle), &pv1);
  MPI_Type_commit(&pv1);
  MPI_Sendrecv(mine, 16, pv1, (rank + 1) % size, 0, got, 16, pv1, (rank + size - 1) % size, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Pack(got, 16, pv1, packed, sizeof packed, &position, MPI_COMM_WORLD);
  i = 0;
  MPI_Unpack(packed, sizeof packed, &i, unpacked, 16, pv1, MPI_COMM_WORLD);
  snprintf(path, sizeof path, "%s/rank%d.txt", argc > 1 ? argv[1] : ".", rank);
  f = fopen(path, "w");
  if (!f)
    return 1;
  fprintf(f, "packed %d bytes\n", position);
  for (i = 0; i < 16; ++i)
    fprintf(f, "%.17g %.17g %.17g %.17g %.17g %.17g %d %g | %.17g %.17g\n", got[i].pos[0],
            got[i].pos[1], got[i].pos[2], got[i].vel[0], got[i].vel[1], got[i].vel[2], got[i].id,
            got[i].mass, unpacked[i].pos[2], unpacked[i].vel[2]);
  for (i = 0; i < position; ++i)
    fprintf(f, "%02x", (unsigned char)packed[i]);
  fprintf(f, "\n");
  fclose(f);
  MPI_Type_free(&pv1);
  MPI_Type_free(&pv);
  MPI_Finalize();
  return 0;
}
