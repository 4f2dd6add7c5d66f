/* Datatype attributes, names and the program decoding its own types, as a library that tags its
 * halo types does it: a keyval with copy and delete callbacks (MPI_Type_create_keyval) holds a
 * reference-counted descriptor on a column type (MPI_Type_set_attr); MPI_Type_dup must run the
 * copy callback and the duplicate is what goes on the wire; MPI_Type_set_name / get_name name
 * both; MPI_Type_delete_attr and MPI_Type_free run the delete callback (checked by counters and
 * the descriptor's reference count); a second keyval with MPI_TYPE_NULL_COPY_FN is not copied by
 * the dup, a third with MPI_TYPE_DUP_FN is. Each rank sends three columns of a row-major matrix
 * to its right neighbour with the dup (MPI_Sendrecv) and with the original (MPI_Isend / MPI_Recv,
 * the original freed before MPI_Wait); every received element is checked. Then every type is
 * decoded by the program itself (MPI_Type_get_envelope / MPI_Type_get_contents, recursively,
 * handles it gets back freed) into a text form that rank 0 prints, with MPI_Type_size_x,
 * MPI_Type_get_extent_x, MPI_Type_get_true_extent_x and MPI_Get_elements_x of the receives.
 * NP: 3 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NR 6
#define NC 5
#define VAL(r, i, j) ((r) * 1000.0 + (i) * NC + (j))

typedef struct {
  int refs;  /* one per type that holds the descriptor */
  int face;  /* what the library stores */
} desc_t;

static int copies = 0, deletes = 0;

static int desc_copy(MPI_Datatype old, int key, void *extra, void *in, void *out, int *flag) {
  desc_t *d = (desc_t *)in;
  (void)old; (void)key;
  ++*(int *)extra;
  ++copies;
  ++d->refs;
  *(void **)out = d;
  *flag = 1;
  return MPI_SUCCESS;
}

static int desc_delete(MPI_Datatype t, int key, void *val, void *extra) {
  desc_t *d = (desc_t *)val;
  (void)t; (void)key; (void)extra;
  ++deletes;
  --d->refs;
  return MPI_SUCCESS;
}

static int errs = 0;
#define EXPECT(cond, ...)                                                                    \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      ++errs;                                                                                \
      printf("check failed (line %d): ", __LINE__);                                          \
      printf(__VA_ARGS__);                                                                   \
      printf("\n");                                                                         \
    }                                                                                        \
  } while (0)

/* The text form of a datatype, from its envelope and contents. */
static void describe(MPI_Datatype t, char *out, size_t n) {
  int ni, na, nd, comb, k;
  MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
  if (comb == MPI_COMBINER_NAMED) {
    snprintf(out, n, "%s", t == MPI_DOUBLE ? "double" : t == MPI_INT ? "int" : "named");
    return;
  }
  {
    int *ints = malloc(sizeof(int) * (ni + 1));
    MPI_Aint *addrs = malloc(sizeof(MPI_Aint) * (na + 1));
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (nd + 1));
    char inner[256];
    size_t len;
    MPI_Type_get_contents(t, ni, na, nd, ints, addrs, types);
    inner[0] = '\0';
    if (nd > 0) describe(types[0], inner, sizeof inner);
    switch (comb) {
    case MPI_COMBINER_DUP: snprintf(out, n, "dup(%s)", inner); break;
    case MPI_COMBINER_CONTIGUOUS: snprintf(out, n, "contiguous(%d, %s)", ints[0], inner); break;
    case MPI_COMBINER_VECTOR:
      snprintf(out, n, "vector(%d, %d, %d, %s)", ints[0], ints[1], ints[2], inner);
      break;
    case MPI_COMBINER_RESIZED:
      snprintf(out, n, "resized(%ld, %ld, %s)", (long)addrs[0], (long)addrs[1], inner);
      break;
    case MPI_COMBINER_INDEXED_BLOCK:
      len = (size_t)snprintf(out, n, "indexed_block(%d, %d, [", ints[0], ints[1]);
      for (k = 0; k < ints[0] && len < n; ++k)
        len += (size_t)snprintf(out + len, n - len, "%s%d", k ? ", " : "", ints[2 + k]);
      if (len < n) snprintf(out + len, n - len, "], %s)", inner);
      break;
    default: snprintf(out, n, "combiner %d", comb); break;
    }
    for (k = 0; k < nd; ++k) {
      int a, b, c, cc;
      MPI_Type_get_envelope(types[k], &a, &b, &c, &cc);
      if (cc != MPI_COMBINER_NAMED) MPI_Type_free(&types[k]);
    }
    free(ints); free(addrs); free(types);
  }
}

static void layout(MPI_Datatype t, char *out, size_t n) {
  MPI_Count size, lb, extent, tlb, textent;
  MPI_Type_size_x(t, &size);
  MPI_Type_get_extent_x(t, &lb, &extent);
  MPI_Type_get_true_extent_x(t, &tlb, &textent);
  snprintf(out, n, "size %lld lb %lld extent %lld true lb %lld true extent %lld", (long long)size,
           (long long)lb, (long long)extent, (long long)tlb, (long long)textent);
}

int main(int argc, char **argv) {
  int rank, size, right, left, i, j, flag, len, all;
  int copy_calls = 0;
  int key_desc, key_null, key_dup;
  double a[NR][NC], b[NR][NC];
  desc_t desc = {1, 7};
  void *got;
  char name[MPI_MAX_OBJECT_NAME], text[512], lay[200];
  MPI_Datatype col, colres, coldup, diag;
  MPI_Request req;
  MPI_Status st;
  MPI_Count elems;
  int count;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  for (i = 0; i < NR; ++i)
    for (j = 0; j < NC; ++j) a[i][j] = VAL(rank, i, j);

  MPI_Type_create_keyval(desc_copy, desc_delete, &key_desc, &copy_calls);
  MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &key_null, NULL);
  MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &key_dup, NULL);

  MPI_Type_vector(NR, 1, NC, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, sizeof(double), &colres);
  MPI_Type_commit(&colres);
  MPI_Type_set_name(colres, "column");
  MPI_Type_set_attr(colres, key_desc, &desc);
  MPI_Type_set_attr(colres, key_null, (void *)&desc.face);
  MPI_Type_set_attr(colres, key_dup, (void *)&desc.refs);

  MPI_Type_dup(colres, &coldup);
  EXPECT(copies == 1 && copy_calls == 1 && desc.refs == 2, "dup copied %d/%d, refs %d", copies,
         copy_calls, desc.refs);
  MPI_Type_get_attr(coldup, key_desc, &got, &flag);
  EXPECT(flag && got == &desc && ((desc_t *)got)->face == 7, "dup's descriptor (flag %d)", flag);
  MPI_Type_get_attr(coldup, key_null, &got, &flag);
  EXPECT(!flag, "MPI_TYPE_NULL_COPY_FN attribute copied");
  MPI_Type_get_attr(coldup, key_dup, &got, &flag);
  EXPECT(flag && got == &desc.refs, "MPI_TYPE_DUP_FN attribute not copied (flag %d)", flag);
  MPI_Type_set_name(coldup, "column copy");
  MPI_Type_get_name(coldup, name, &len);
  EXPECT(strcmp(name, "column copy") == 0 && len == (int)strlen(name), "dup name '%s' %d", name, len);
  MPI_Type_get_name(colres, name, &len);
  EXPECT(strcmp(name, "column") == 0, "original name '%s'", name);

  /* Columns 1..3 to the right neighbour with the duplicate. */
  memset(b, 0, sizeof b);
  MPI_Sendrecv(&a[0][1], 3, coldup, right, 1, &b[0][1], 3, coldup, left, 1, MPI_COMM_WORLD, &st);
  MPI_Get_elements_x(&st, MPI_DOUBLE, &elems);
  MPI_Get_count(&st, coldup, &count);
  EXPECT(elems == 3 * NR && count == 3, "sendrecv elements %lld count %d", (long long)elems, count);
  for (i = 0; i < NR; ++i)
    for (j = 0; j < NC; ++j)
      EXPECT(b[i][j] == (j >= 1 && j <= 3 ? VAL(left, i, j) : 0.0), "dup column [%d][%d] = %g", i, j, b[i][j]);

  /* The delete callback runs on MPI_Type_delete_attr, the attribute is gone after it. */
  MPI_Type_delete_attr(coldup, key_desc);
  EXPECT(deletes == 1 && desc.refs == 1, "delete_attr: %d deletes, refs %d", deletes, desc.refs);
  MPI_Type_get_attr(coldup, key_desc, &got, &flag);
  EXPECT(!flag, "attribute still there after delete_attr");
  MPI_Type_set_attr(coldup, key_desc, &desc); /* set again: freed with the type below */
  ++desc.refs;

  /* A diagonal as an indexed_block, built from the duplicate, named, sent with the original. */
  {
    int disp[4] = {0, NC + 1, 2 * (NC + 1), 3 * (NC + 1)};
    MPI_Type_create_indexed_block(4, 1, disp, MPI_DOUBLE, &diag);
    MPI_Type_commit(&diag);
    MPI_Type_set_name(diag, "diagonal");
  }

  memset(b, 0, sizeof b);
  MPI_Irecv(&b[0][0], 1, diag, left, 2, MPI_COMM_WORLD, &req);
  MPI_Send(&a[0][0], 1, diag, right, 2, MPI_COMM_WORLD);
  MPI_Wait(&req, &st);
  MPI_Get_elements_x(&st, MPI_DOUBLE, &elems);
  EXPECT(elems == 4, "diag elements %lld", (long long)elems);
  for (i = 0; i < NR; ++i)
    for (j = 0; j < NC; ++j)
      EXPECT(b[i][j] == (i == j && i < 4 ? VAL(left, i, j) : 0.0), "diag [%d][%d] = %g", i, j, b[i][j]);

  /* Describe before anything is freed. */
  if (rank == 0) {
    MPI_Datatype show[4];
    const char *label[4] = {"col", "colres", "coldup", "diag"};
    show[0] = col; show[1] = colres; show[2] = coldup; show[3] = diag;
    for (i = 0; i < 4; ++i) {
      describe(show[i], text, sizeof text);
      layout(show[i], lay, sizeof lay);
      printf("%-7s %s\n        %s\n", label[i], text, lay);
    }
  }

  /* The original column: sent nonblocking, freed before the wait. The delete callback of the
   * original runs when the MPI releases the type: MPICH keeps it while the duplicate (whose
   * contents name it) lives, so the counts are checked once everything is freed. */
  memset(b, 0, sizeof b);
  MPI_Isend(&a[0][4], 1, colres, right, 3, MPI_COMM_WORLD, &req);
  MPI_Type_free(&colres);
  EXPECT(colres == MPI_DATATYPE_NULL, "freed handle not MPI_DATATYPE_NULL");
  MPI_Recv(&b[0][0], NR, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &st);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  /* The NR doubles arrived contiguous: read them through a flat pointer (b[0][i] with i >= NC is
   * out of bounds of the row, which UBSan reports). */
  const double *flat = &b[0][0];
  for (i = 0; i < NR; ++i) EXPECT(flat[i] == VAL(left, i, 4), "column 4 row %d = %g", i, flat[i]);

  /* The duplicate is still usable after the original is freed. */
  memset(b, 0, sizeof b);
  MPI_Sendrecv(&a[0][0], 2, coldup, right, 4, &b[0][3], 2, coldup, left, 4, MPI_COMM_WORLD, &st);
  for (i = 0; i < NR; ++i)
    for (j = 0; j < NC; ++j)
      EXPECT(b[i][j] == (j >= 3 ? VAL(left, i, j - 3) : 0.0), "dup after free [%d][%d] = %g", i, j, b[i][j]);
  MPI_Type_free(&coldup);
  MPI_Type_free(&diag);
  MPI_Type_free(&col);
  EXPECT(deletes == 3 && desc.refs == 0, "after freeing every type: %d deletes, refs %d", deletes, desc.refs);
  MPI_Type_free_keyval(&key_desc);
  MPI_Type_free_keyval(&key_null);
  MPI_Type_free_keyval(&key_dup);
  EXPECT(key_desc == MPI_KEYVAL_INVALID, "keyval not invalidated");
  EXPECT(copy_calls == 1, "copy callback ran %d times", copy_calls);

  MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("attributes: copies %d deletes %d; errors %d\n", copies, deletes, all);
  MPI_Finalize();
  return all ? 1 : 0;
}
