/* Error handling as production C codes write it: every MPI call in a CHK() macro that stores the
 * return code and jumps to a `cleanup:` label (types start as MPI_DATATYPE_NULL and are freed
 * there), a variadic MPI_CALL(fn, ...) macro, a variadic debug-print macro, and `#ifdef`
 * alternatives for the halo exchange (the build defines HALO_NONBLOCKING; the #else branch is
 * the blocking one). Types: an hvector of a vector (an x face of a 3-D block), a plain vector
 * (a y face), an hindexed_block of corner pairs with constant displacements. 1-D periodic ring.
 * NP: 3
 * CFLAGS: -std=c11 -DHALO_NONBLOCKING */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NX 10
#define NY 8
#define NZ 6
#define AT(z, y, x) (((z) * NY + (y)) * NX + (x))
#define VAL(r, z, y, x) ((double)((((r) * NZ + (z)) * NY + (y)) * NX + (x)))

#define CHK(call)                                                                                \
  do {                                                                                           \
    if ((rc = (call)) != MPI_SUCCESS) {                                                          \
      DEBUGF("rank %d: %s failed at line %d\n", rank, #call, __LINE__);                          \
      goto cleanup;                                                                              \
    }                                                                                            \
  } while (0)
#define MPI_CALL(fn, ...) CHK(fn(__VA_ARGS__))
#ifdef VERBOSE
#define DEBUGF(...) fprintf(stderr, __VA_ARGS__)
#else
#define DEBUGF(...) ((void)0)
#endif

/* Exchanges faces and corners with the ring neighbours; returns an MPI error code. */
static int halo(double *a, int rank, int left, int right, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  MPI_Datatype plane_col = MPI_DATATYPE_NULL, xface = MPI_DATATYPE_NULL;
  MPI_Datatype yface = MPI_DATATYPE_NULL, corners = MPI_DATATYPE_NULL;
  const MPI_Aint cdisp[4] = {0, (NX - 2) * sizeof(double), (NY - 1) * NX * sizeof(double),
                             ((NY - 1) * NX + NX - 2) * sizeof(double)};

  CHK(MPI_Type_vector(NY, 1, NX, MPI_DOUBLE, &plane_col));
  CHK(MPI_Type_create_hvector(NZ, 1, (MPI_Aint)(NX * NY * sizeof(double)), plane_col, &xface));
  CHK(MPI_Type_commit(&xface));
  CHK(MPI_Type_vector(NZ, NX, NX * NY, MPI_DOUBLE, &yface));
  CHK(MPI_Type_commit(&yface));
  CHK(MPI_Type_create_hindexed_block(4, 2, cdisp, MPI_DOUBLE, &corners));
  CHK(MPI_Type_commit(&corners));

#ifdef HALO_NONBLOCKING
  {
    MPI_Request req[4];
    CHK(MPI_Irecv(&a[AT(0, 0, 0)], 1, xface, left, 1, comm, &req[0]));
    CHK(MPI_Irecv(&a[AT(0, 0, NX - 1)], 1, xface, right, 2, comm, &req[1]));
    CHK(MPI_Isend(&a[AT(0, 0, NX - 2)], 1, xface, right, 1, comm, &req[2]));
    CHK(MPI_Isend(&a[AT(0, 0, 1)], 1, xface, left, 2, comm, &req[3]));
    CHK(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));
  }
#else
  CHK(MPI_Sendrecv(&a[AT(0, 0, NX - 2)], 1, xface, right, 1, &a[AT(0, 0, 0)], 1, xface, left, 1,
                   comm, MPI_STATUS_IGNORE));
  CHK(MPI_Sendrecv(&a[AT(0, 0, 1)], 1, xface, left, 2, &a[AT(0, 0, NX - 1)], 1, xface, right, 2,
                   comm, MPI_STATUS_IGNORE));
#endif
  /* Row y = 1 of every z goes right, into row y = 0 (this one through the variadic macro). */
  MPI_CALL(MPI_Sendrecv, &a[AT(0, 1, 0)], 1, yface, right, 3, &a[AT(0, 0, 0)], 1, yface, left, 3,
           comm, MPI_STATUS_IGNORE);
  /* Corner pairs of the z = NZ-1 plane go left, into the same place of the z = 0 plane. */
  CHK(MPI_Sendrecv(&a[AT(NZ - 1, 0, 0)], 1, corners, left, 4, &a[AT(0, 0, 0)], 1, corners, right,
                   4, comm, MPI_STATUS_IGNORE));
  DEBUGF("rank %d: halo done\n", rank);

cleanup:
  if (corners != MPI_DATATYPE_NULL) MPI_Type_free(&corners);
  if (yface != MPI_DATATYPE_NULL) MPI_Type_free(&yface);
  if (xface != MPI_DATATYPE_NULL) MPI_Type_free(&xface);
  if (plane_col != MPI_DATATYPE_NULL) MPI_Type_free(&plane_col);
  return rc;
}

/* The value a[z][y][x] of rank r after step 0 (initial), 1 (x faces), 2 (y rows), 3 (corners). */
static double expect(int step, int r, int size, int z, int y, int x) {
  int l = (r + size - 1) % size, rr = (r + 1) % size;
  int corner = (x <= 1 || x >= NX - 2) && (y == 0 || y == NY - 1);
  if (step == 0) return VAL(r, z, y, x);
  if (step == 1 && x == 0) return expect(0, l, size, z, y, NX - 2);
  if (step == 1 && x == NX - 1) return expect(0, rr, size, z, y, 1);
  if (step == 2 && y == 0) return expect(1, l, size, z, 1, x);
  if (step == 3 && z == 0 && corner) return expect(2, rr, size, NZ - 1, y, x);
  return expect(step - 1, r, size, z, y, x);
}

int main(int argc, char **argv) {
  int rank = 0, size, rc = MPI_SUCCESS, z, y, x, errs = 0, all_errs = 1;
  double *a = NULL, sum = 0.0, *sums = NULL;

  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  CHK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHK(MPI_Comm_size(MPI_COMM_WORLD, &size));
  a = malloc(sizeof(double) * NX * NY * NZ);
  sums = malloc(sizeof(double) * size);
  if (!a || !sums) goto cleanup;
  for (z = 0; z < NZ; ++z)
    for (y = 0; y < NY; ++y)
      for (x = 0; x < NX; ++x) a[AT(z, y, x)] = VAL(rank, z, y, x);

  CHK(halo(a, rank, (rank + size - 1) % size, (rank + 1) % size, MPI_COMM_WORLD));

  for (z = 0; z < NZ; ++z)
    for (y = 0; y < NY; ++y)
      for (x = 0; x < NX; ++x) {
        errs += a[AT(z, y, x)] != expect(3, rank, size, z, y, x);
        sum += a[AT(z, y, x)] * ((x + 2 * y + 3 * z) % 4 + 1);
      }
  CHK(MPI_Gather(&sum, 1, MPI_DOUBLE, sums, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD));
  CHK(MPI_Allreduce(&errs, &all_errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  if (rank == 0) {
    for (x = 0; x < size; ++x) printf("rank %d checksum %.1f\n", x, sums[x]);
#ifdef HALO_NONBLOCKING
    printf("nonblocking halo, ");
#else
    printf("blocking halo, ");
#endif
    printf("errors %d: %s\n", all_errs, all_errs ? "WRONG" : "ok");
  }

cleanup:
  if (rc != MPI_SUCCESS) fprintf(stderr, "rank %d: MPI error %d\n", rank, rc);
  free(a);
  free(sums);
  MPI_Finalize();
  return (rc != MPI_SUCCESS || all_errs) ? 1 : 0;
}
