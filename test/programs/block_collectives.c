/* The classic "scatter a matrix in blocks" code and other collectives with derived types:
 *  - rank 0 holds a GR x GC row-major matrix; a 2 x 2 process grid gets LR x LC blocks through
 *    MPI_Scatterv with an MPI_Type_create_subarray block resized to one double (displacements
 *    counted in doubles), the blocks are updated and come back with MPI_Gatherv;
 *  - a run configuration struct {int, double[3], char[8], long} broadcast with MPI_Bcast of an
 *    MPI_Type_create_struct (offsetof displacements, resized to sizeof);
 *  - MPI_Allgather of one column per rank into the columns of a ROWS x size matrix with a vector
 *    resized to one element (the column gather), and MPI_Allgatherv of that matrix's rows;
 *  - MPI_Reduce and MPI_Allreduce of 3-vectors (MPI_Type_contiguous of 3 doubles) with a user
 *    op (component-wise max of the norm), and MPI_Reduce_scatter_block with it;
 *  - MPI_Gather with MPI_IN_PLACE at the root, receiving with a strided type.
 * Every value is checked; rank 0 prints a summary.
 * NP: 4 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GR 8
#define GC 12
#define PR 2
#define PC 2
#define LR (GR / PR)
#define LC (GC / PC)
#define ROWS 5

typedef struct {
  int steps;
  double dt[3];
  char name[8];
  long seed;
} config_t;

typedef struct {
  double x, y, z;
} vec3;

static void longest(void *in, void *inout, int *len, MPI_Datatype *type) {
  vec3 *a = in, *b = inout;
  int i;
  (void)type;
  for (i = 0; i < *len; ++i) {
    double na = a[i].x * a[i].x + a[i].y * a[i].y + a[i].z * a[i].z;
    double nb = b[i].x * b[i].x + b[i].y * b[i].y + b[i].z * b[i].z;
    if (na > nb || (na == nb && a[i].x > b[i].x)) b[i] = a[i];
  }
}

static int scatter_blocks(int rank, int size) {
  double *global = NULL, local[LR * LC];
  int sizes[2] = {GR, GC}, sub[2] = {LR, LC}, start[2] = {0, 0};
  int counts[PR * PC], displs[PR * PC], p, i, j, bad = 0;
  MPI_Datatype block, block1;

  MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &block);
  MPI_Type_create_resized(block, 0, (MPI_Aint)sizeof(double), &block1);
  MPI_Type_commit(&block1);
  for (p = 0; p < PR * PC; ++p) {
    counts[p] = 1;
    displs[p] = (p / PC) * LR * GC + (p % PC) * LC;
  }
  if (rank == 0) {
    global = malloc(GR * GC * sizeof *global);
    for (i = 0; i < GR * GC; ++i) global[i] = i;
  }
  (void)size;
  MPI_Scatterv(global, counts, displs, block1, local, LR * LC, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (i = 0; i < LR; ++i)
    for (j = 0; j < LC; ++j) {
      int gi = (rank / PC) * LR + i, gj = (rank % PC) * LC + j;
      if (local[i * LC + j] != gi * GC + gj) ++bad;
      local[i * LC + j] = -local[i * LC + j] - 0.5;
    }
  MPI_Gatherv(local, LR * LC, MPI_DOUBLE, global, counts, displs, block1, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (i = 0; i < GR * GC; ++i)
      if (global[i] != -i - 0.5) ++bad;
    printf("blocks: corner values %.1f %.1f %.1f\n", global[0], global[LC], global[GR * GC - 1]);
    free(global);
  }
  MPI_Type_free(&block1);
  MPI_Type_free(&block);
  return bad;
}

static int bcast_config(int rank) {
  config_t cfg;
  int lens[4] = {1, 3, 8, 1};
  MPI_Aint disps[4] = {offsetof(config_t, steps), offsetof(config_t, dt), offsetof(config_t, name),
                       offsetof(config_t, seed)};
  MPI_Datatype types[4] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_LONG};
  MPI_Datatype raw, cfg_t;
  config_t many[3];
  int k, bad = 0;

  MPI_Type_create_struct(4, lens, disps, types, &raw);
  MPI_Type_create_resized(raw, 0, (MPI_Aint)sizeof(config_t), &cfg_t);
  MPI_Type_commit(&cfg_t);
  memset(&cfg, 0, sizeof cfg);
  memset(many, 0, sizeof many);
  if (rank == 0) {
    cfg.steps = 250;
    cfg.dt[0] = 0.1;
    cfg.dt[1] = 0.05;
    cfg.dt[2] = 0.025;
    strcpy(cfg.name, "sod");
    cfg.seed = 123456789L;
    for (k = 0; k < 3; ++k) {
      many[k] = cfg;
      many[k].steps = k;
      many[k].name[0] = (char)('A' + k);
    }
  }
  MPI_Bcast(&cfg, 1, cfg_t, 0, MPI_COMM_WORLD);
  MPI_Bcast(many, 3, cfg_t, 0, MPI_COMM_WORLD);
  if (cfg.steps != 250 || cfg.dt[2] != 0.025 || strcmp(cfg.name, "sod") != 0 || cfg.seed != 123456789L)
    ++bad;
  for (k = 0; k < 3; ++k)
    if (many[k].steps != k || many[k].name[0] != 'A' + k || strcmp(many[k].name + 1, "od") != 0 ||
        many[k].dt[1] != 0.05)
      ++bad;
  if (rank == 0) printf("config: %s steps %d dt %.3f seed %ld\n", cfg.name, cfg.steps, cfg.dt[2], cfg.seed);
  MPI_Type_free(&cfg_t);
  MPI_Type_free(&raw);
  return bad;
}

static int gather_columns(int rank, int size) {
  double mycol[ROWS], *mat = malloc(ROWS * size * sizeof *mat), *rows;
  int *counts = malloc(size * sizeof *counts), *displs = malloc(size * sizeof *displs);
  int i, j, bad = 0, r;
  MPI_Datatype col, col1;

  for (i = 0; i < ROWS; ++i) mycol[i] = rank * 10 + i;
  /* Column j of a ROWS x size row-major matrix: stride size, which is not a compile-time value. */
  MPI_Type_vector(ROWS, 1, size, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, (MPI_Aint)sizeof(double), &col1);
  MPI_Type_commit(&col1);
  MPI_Allgather(mycol, ROWS, MPI_DOUBLE, mat, 1, col1, MPI_COMM_WORLD);
  for (i = 0; i < ROWS; ++i)
    for (j = 0; j < size; ++j)
      if (mat[i * size + j] != j * 10 + i) ++bad;
  /* Row r of the matrix goes to... everyone, with r + 1 rows from rank r (ragged). */
  rows = malloc(ROWS * size * size * sizeof *rows);
  for (r = 0; r < size; ++r) {
    counts[r] = (r % ROWS) + 1;
    displs[r] = r * ROWS;
  }
  MPI_Allgatherv(mat, counts[rank], MPI_DOUBLE, rows, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  for (r = 0; r < size; ++r)
    for (i = 0; i < counts[r]; ++i)
      if (rows[displs[r] + i] != mat[i]) ++bad;
  if (rank == 0) {
    printf("columns:");
    for (j = 0; j < size; ++j) printf(" %.0f", mat[(ROWS - 1) * size + j]);
    printf("\n");
  }
  MPI_Type_free(&col1);
  MPI_Type_free(&col);
  free(rows);
  free(mat);
  free(counts);
  free(displs);
  return bad;
}

static int reduce_vectors(int rank, int size) {
  vec3 mine[4], best[4], all_best[4], one;
  MPI_Datatype v3;
  MPI_Op op;
  int k, r, bad = 0;

  MPI_Type_contiguous(3, MPI_DOUBLE, &v3);
  MPI_Type_commit(&v3);
  MPI_Op_create(longest, 1, &op);
  for (k = 0; k < 4; ++k) {
    mine[k].x = (rank + k) % size;
    mine[k].y = (rank * 3 + k) % 5;
    mine[k].z = -(double)rank;
  }
  MPI_Reduce(mine, best, 4, v3, op, 0, MPI_COMM_WORLD);
  MPI_Allreduce(mine, all_best, 4, v3, op, MPI_COMM_WORLD);
  for (k = 0; k < 4; ++k) {
    vec3 want = {-1, 0, 0};
    double wn = -1;
    for (r = 0; r < size; ++r) {
      vec3 c;
      double n;
      c.x = (r + k) % size;
      c.y = (r * 3 + k) % 5;
      c.z = -(double)r;
      n = c.x * c.x + c.y * c.y + c.z * c.z;
      if (n > wn || (n == wn && c.x > want.x)) {
        want = c;
        wn = n;
      }
    }
    if (all_best[k].x != want.x || all_best[k].y != want.y || all_best[k].z != want.z) ++bad;
    if (rank == 0 && (best[k].x != want.x || best[k].y != want.y || best[k].z != want.z)) ++bad;
  }
  /* One vec3 per rank from the reduction of size vec3s. */
  {
    vec3 *blk = malloc(size * sizeof *blk);
    for (r = 0; r < size; ++r) {
      blk[r].x = rank == r ? 100 : rank;
      blk[r].y = 0;
      blk[r].z = r;
    }
    MPI_Reduce_scatter_block(blk, &one, 1, v3, op, MPI_COMM_WORLD);
    if (one.x != 100 || one.z != rank) ++bad;
    free(blk);
  }
  if (rank == 0) printf("longest: (%.0f,%.0f,%.0f) (%.0f,%.0f,%.0f)\n", best[0].x, best[0].y, best[0].z,
                        best[3].x, best[3].y, best[3].z);
  MPI_Op_free(&op);
  MPI_Type_free(&v3);
  return bad;
}

static int gather_in_place(int rank, int size) {
  /* Rank r's 2 values land in column 2r of the root's 2 x (2 * size) row-major matrix: sent as
   * 2 doubles, received as a column resized to 2 doubles; the root's own is already in place. */
  double *m = NULL, two[2];
  MPI_Datatype pair, pair1;
  int i, bad = 0;
  two[0] = rank + 0.5;
  two[1] = rank + 0.25;
  MPI_Type_vector(2, 1, 2 * 4, MPI_DOUBLE, &pair);
  MPI_Type_create_resized(pair, 0, 2 * (MPI_Aint)sizeof(double), &pair1);
  MPI_Type_commit(&pair1);
  if (size != 4) MPI_Abort(MPI_COMM_WORLD, 2);
  if (rank == 0) {
    m = malloc(2 * 2 * size * sizeof *m);
    for (i = 0; i < 4 * size; ++i) m[i] = -1;
    m[0] = two[0];
    m[2 * size] = two[1];
    MPI_Gather(MPI_IN_PLACE, 2, MPI_DOUBLE, m, 1, pair1, 0, MPI_COMM_WORLD);
    for (i = 0; i < size; ++i) {
      if (m[2 * i] != i + 0.5 || m[2 * size + 2 * i] != i + 0.25) ++bad;
      if (m[2 * i + 1] != -1 || m[2 * size + 2 * i + 1] != -1) ++bad;
    }
    free(m);
  } else {
    MPI_Gather(two, 2, MPI_DOUBLE, NULL, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
  }
  MPI_Type_free(&pair1);
  MPI_Type_free(&pair);
  return bad;
}

int main(int argc, char **argv) {
  int rank, size, bad[5], all[5], k, status = 0;
  const char *names[5] = {"scatter blocks", "bcast config", "gather columns", "reduce vec3",
                          "gather in place"};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != PR * PC) MPI_Abort(MPI_COMM_WORLD, 1);
  bad[0] = scatter_blocks(rank, size);
  bad[1] = bcast_config(rank);
  bad[2] = gather_columns(rank, size);
  bad[3] = reduce_vectors(rank, size);
  bad[4] = gather_in_place(rank, size);
  MPI_Reduce(bad, all, 5, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (k = 0; k < 5; ++k) {
      printf("%-16s %s\n", names[k], all[k] == 0 ? "ok" : "FAILED");
      if (all[k]) status = 1;
    }
  MPI_Finalize();
  return status;
}
