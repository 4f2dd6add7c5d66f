/* Particles as an array of structs: one struct type from offsetof, one from MPI_Get_address
 * differences (a subset of fields), both resized to sizeof(particle_t). MPI_Bcast of the whole
 * array, variable-length MPI_Send/MPI_Recv with MPI_ANY_SOURCE and MPI_Get_count on the status.
 * NP: 4 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define MAXP 32

typedef struct {
  double pos[3];
  double vel[3];
  int id;
  char species;
  float mass;
} particle_t;

int main(int argc, char **argv) {
  int rank, size, i, k;
  particle_t parts[MAXP], recvd[MAXP];
  MPI_Datatype ptype, ptmp, ptype_resized, kin, kin_resized;
  int blen[4] = {3, 3, 1, 1};
  MPI_Aint disp[4] = {offsetof(particle_t, pos), offsetof(particle_t, vel),
                      offsetof(particle_t, id), offsetof(particle_t, mass)};
  MPI_Datatype types[4] = {MPI_DOUBLE, MPI_DOUBLE, MPI_INT, MPI_FLOAT};
  int kblen[2] = {3, 1};
  MPI_Aint kdisp[2], base;
  MPI_Datatype ktypes[2] = {MPI_DOUBLE, MPI_FLOAT};

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  MPI_Type_create_struct(4, blen, disp, types, &ptmp);
  MPI_Type_create_resized(ptmp, 0, sizeof(particle_t), &ptype_resized);
  MPI_Type_commit(&ptype_resized);
  MPI_Type_free(&ptmp);
  /* The unresized struct type too, for a single-particle message. */
  MPI_Type_create_struct(4, blen, disp, types, &ptype);
  MPI_Type_commit(&ptype);

  /* Velocity and mass only, from addresses. */
  MPI_Get_address(&parts[0], &base);
  MPI_Get_address(&parts[0].vel[0], &kdisp[0]);
  MPI_Get_address(&parts[0].mass, &kdisp[1]);
  kdisp[0] = MPI_Aint_diff(kdisp[0], base);
  kdisp[1] = MPI_Aint_diff(kdisp[1], base);
  MPI_Type_create_struct(2, kblen, kdisp, ktypes, &kin);
  MPI_Type_create_resized(kin, 0, sizeof(particle_t), &kin_resized);
  MPI_Type_commit(&kin_resized);

  memset(parts, 0, sizeof parts);
  if (rank == 0)
    for (i = 0; i < MAXP; ++i) {
      for (k = 0; k < 3; ++k) {
        parts[i].pos[k] = i + 0.1 * k;
        parts[i].vel[k] = -0.5 * i + k;
      }
      parts[i].id = 1000 + i;
      parts[i].species = 'A' + i % 3;
      parts[i].mass = 1.0f + 0.25f * i;
    }
  MPI_Bcast(parts, MAXP, ptype_resized, 0, MPI_COMM_WORLD);

  /* Every rank moves its share, then sends rank+3 particles back to rank 0. */
  for (i = 0; i < MAXP; ++i)
    for (k = 0; k < 3; ++k) parts[i].pos[k] += (rank + 1) * parts[i].vel[k];
  if (rank != 0) {
    MPI_Send(&parts[rank], rank + 3, ptype_resized, 0, 11, MPI_COMM_WORLD);
    MPI_Send(&parts[MAXP - 1], 1, ptype, 0, 12, MPI_COMM_WORLD);
    MPI_Send(parts, 5, kin_resized, 0, 13, MPI_COMM_WORLD);
  } else {
    int src, got_n[8] = {0}, got_tag[8] = {0};
    static particle_t by_src[8][MAXP];
    /* Arrival order is not deterministic: file each message under its source, print in order. */
    for (src = 1; src < size && src < 8; ++src) {
      MPI_Status st;
      int n;
      memset(recvd, 0, sizeof recvd);
      MPI_Recv(recvd, MAXP, ptype_resized, MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, ptype_resized, &n);
      got_n[st.MPI_SOURCE] = n;
      got_tag[st.MPI_SOURCE] = st.MPI_TAG;
      memcpy(by_src[st.MPI_SOURCE], recvd, sizeof recvd);
    }
    for (src = 1; src < size && src < 8; ++src) {
      printf("from rank %d (tag %d): %d particles\n", src, got_tag[src], got_n[src]);
      for (i = 0; i < got_n[src]; ++i) {
        const particle_t *q = &by_src[src][i];
        printf("  id %d %c pos %.3f %.3f %.3f vel %.2f %.2f %.2f mass %.2f\n", q->id,
               q->species ? q->species : '-', q->pos[0], q->pos[1], q->pos[2], q->vel[0],
               q->vel[1], q->vel[2], q->mass);
      }
    }
    for (src = 1; src < size; ++src) {
      particle_t one;
      MPI_Status st;
      int n;
      memset(&one, 0, sizeof one);
      MPI_Recv(&one, 1, ptype, src, 12, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, ptype, &n);
      printf("last particle from %d: count %d id %d pos0 %.3f mass %.2f\n", src, n, one.id,
             one.pos[0], one.mass);
    }
    for (src = 1; src < size; ++src) {
      MPI_Status st;
      int n, e;
      memset(recvd, 0, sizeof recvd);
      MPI_Recv(recvd, 8, kin_resized, src, 13, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, kin_resized, &n);
      MPI_Get_elements(&st, kin_resized, &e);
      printf("kinematics from %d: count %d elements %d:", src, n, e);
      for (i = 0; i < n; ++i)
        printf(" [%.2f %.2f %.2f m%.2f id%d]", recvd[i].vel[0], recvd[i].vel[1], recvd[i].vel[2],
               recvd[i].mass, recvd[i].id);
      printf("\n");
    }
  }
  MPI_Type_free(&ptype);
  MPI_Type_free(&ptype_resized);
  MPI_Type_free(&kin);
  MPI_Type_free(&kin_resized);
  MPI_Finalize();
  return 0;
}
