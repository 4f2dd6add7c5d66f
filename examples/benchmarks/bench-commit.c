/// \file
/// MPI_Type_commit cost: the x face (3 x N x N doubles) of an (N+6)^3 grid described five ways,
/// for several N, and an irregular list of as many blocks. Run it as built with the plain MPI (the
/// MPI's own commit) and as built with libtempi (commit also decodes, canonicalizes and plans the
/// type); the program says which.
///   styles: subarray, vector-of-vector (hvector of vector), hvector of hvector of contiguous,
///           hindexed (one block per row), struct (one vector per plane), hindexed-irregular
///           (N x N blocks of 1 to 4 doubles, gaps of 1 to 8 doubles, pseudo-random but the same
///           every time: a particle exchange's list)
///
///   mpiexec -n 1 bench-commit [--reps K] [--large]
/// --large adds N = 1000 (a million blocks). Before timing, the five descriptions of the face are
/// checked to pack identical bytes (host MPI_Pack) for N <= 64; exits 1 if they differ. CSV:
/// style,N,blocks,median_commit_us,min_commit_us.
///
/// Built as bench-commit-plan (BENCH_COMMIT_PLAN: libtempi's host objects linked in), every timed
/// commit is followed by the plan libtempi's MPI_Type_commit builds when it is active
/// (typecache::onCommit), so TEMPI's commit cost is measured on a machine without a GPU too,
/// where bench-commit-tempi's libtempi stays inactive and plans nothing.
#include "bench_common.h"

#ifdef BENCH_COMMIT_PLAN
void bench_commit_plan(MPI_Datatype t); // bench_commit_plan.cpp
#define BENCH_PLAN(t) bench_commit_plan(t)
#else
#define BENCH_PLAN(t) ((void)0)
#endif

enum { kStyles = 6, kFaceStyles = 5 };
static const char *kStyleNames[kStyles] = {"subarray", "vector-of-vector", "hvector-hvector",
                                           "hindexed", "struct", "hindexed-irregular"};

static MPI_Datatype build(int style, int n) {
  const int w = n + 6;
  const MPI_Aint row = (MPI_Aint)w * 8, plane = (MPI_Aint)w * w * 8;
  MPI_Datatype t = MPI_DATATYPE_NULL, a, b;
  switch (style) {
  case 0: {
    int sizes[3] = {w, w, w}, sub[3] = {n, n, 3}, start[3] = {3, 3, 3};
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &t);
    break;
  }
  case 1: // the face start is applied by an hindexed_block of one element
    MPI_Type_vector(n, 3, w, MPI_DOUBLE, &a);
    MPI_Type_create_hvector(n, 1, plane, a, &b);
    {
      MPI_Aint disp = 3 * plane + 3 * row + 3 * 8;
      MPI_Type_create_hindexed_block(1, 1, &disp, b, &t);
    }
    MPI_Type_free(&a);
    MPI_Type_free(&b);
    break;
  case 2: {
    MPI_Datatype c;
    MPI_Type_contiguous(3, MPI_DOUBLE, &c);
    MPI_Type_create_hvector(n, 1, row, c, &a);
    MPI_Type_create_hvector(n, 1, plane, a, &b);
    MPI_Aint disp = 3 * plane + 3 * row + 3 * 8;
    MPI_Type_create_hindexed_block(1, 1, &disp, b, &t);
    MPI_Type_free(&c);
    MPI_Type_free(&a);
    MPI_Type_free(&b);
    break;
  }
  case 3: {
    int nb = n * n;
    int *len = malloc(sizeof(int) * nb);
    MPI_Aint *disp = malloc(sizeof(MPI_Aint) * nb);
    for (int z = 0; z < n; ++z)
      for (int y = 0; y < n; ++y) {
        len[z * n + y] = 3;
        disp[z * n + y] = (z + 3) * plane + (y + 3) * row + 3 * 8;
      }
    MPI_Type_create_hindexed(nb, len, disp, MPI_DOUBLE, &t);
    free(len);
    free(disp);
    break;
  }
  case 5: {
    int nb = n * n;
    int *len = malloc(sizeof(int) * nb);
    MPI_Aint *disp = malloc(sizeof(MPI_Aint) * nb), at = 0;
    unsigned x = 12345; // a fixed LCG: the same list every time
    for (int i = 0; i < nb; ++i) {
      x = x * 1103515245u + 12345u;
      len[i] = 1 + (int)((x >> 16) % 4);
      x = x * 1103515245u + 12345u;
      at += 8 * (MPI_Aint)(1 + (x >> 16) % 8);
      disp[i] = at;
      at += 8 * (MPI_Aint)len[i];
    }
    MPI_Type_create_hindexed(nb, len, disp, MPI_DOUBLE, &t);
    free(len);
    free(disp);
    break;
  }
  default: {
    MPI_Type_vector(n, 3, w, MPI_DOUBLE, &a);
    int *len = malloc(sizeof(int) * n);
    MPI_Aint *disp = malloc(sizeof(MPI_Aint) * n);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * n);
    for (int z = 0; z < n; ++z) {
      len[z] = 1;
      disp[z] = (z + 3) * plane + 3 * row + 3 * 8;
      types[z] = a;
    }
    MPI_Type_create_struct(n, len, disp, types, &t);
    MPI_Type_free(&a);
    free(len);
    free(disp);
    free(types);
  }
  }
  return t;
}

static int cmpd(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int reps = 50, nsizes = 3;
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--reps") && a + 1 < argc && atoi(argv[a + 1]) > 0) reps = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--large")) nsizes = 4;
    else {
      fprintf(stderr, "usage: bench-commit [--reps K] [--large]\n");
      MPI_Finalize();
      return 1;
    }
  }
  bench_header("bench-commit", "MPI_Type_commit cost of one 3-D face type, five descriptions, "
                               "and an irregular list");
#ifdef BENCH_COMMIT_PLAN
  printf("# plans: built after each timed commit as libtempi's MPI_Type_commit builds them with a "
         "GPU (bench-commit-plan)\n");
#endif
  const int sizes[] = {16, 64, 256, 1000};
  long failures = 0;
  // The five descriptions must describe the same bytes.
  for (int s = 0; s < 2; ++s) {
    int n = sizes[s], w = n + 6, packed = 3 * n * n * 8;
    double *grid = malloc((size_t)w * w * w * 8);
    for (long i = 0; i < (long)w * w * w; ++i) grid[i] = (double)i;
    char *ref = malloc(packed), *out = malloc(packed);
    for (int st = 0; st < kFaceStyles; ++st) {
      MPI_Datatype t = build(st, n);
      MPI_Type_commit(&t);
      int pos = 0;
      MPI_Pack(grid, 1, t, st ? out : ref, packed, &pos, MPI_COMM_SELF);
      if (pos != packed || (st && memcmp(ref, out, packed))) {
        fprintf(stderr, "bench-commit: style %s packs different bytes (N=%d)\n", kStyleNames[st], n);
        ++failures;
      }
      MPI_Type_free(&t);
    }
    free(grid); free(ref); free(out);
  }
  printf("style,N,blocks,median_commit_us,min_commit_us\n");
  double *t = malloc(sizeof(double) * reps);
  for (int s = 0; s < nsizes; ++s)
    for (int st = 0; st < kStyles; ++st) {
      for (int r = 0; r < reps; ++r) {
        MPI_Datatype ty = build(st, sizes[s]);
        double t0 = bench_now();
        MPI_Type_commit(&ty);
        BENCH_PLAN(ty);
        t[r] = bench_now() - t0;
        MPI_Type_free(&ty);
      }
      qsort(t, reps, sizeof(double), cmpd);
      printf("%s,%d,%d,%.3f,%.3f\n", kStyleNames[st], sizes[s], sizes[s] * sizes[s],
             t[reps / 2] * 1e6, t[0] * 1e6);
      fflush(stdout);
    }
  free(t);
  MPI_Finalize();
  return failures ? 1 : 0;
}
