/* Two coupled models on an inter-communicator, as ocean/atmosphere couplers are written: the
 * world splits into an "ocean" (the lower half) and an "atmosphere" (the rest, one rank more
 * with an odd count), each half ordered in reverse by the split key, joined by
 * MPI_Intercomm_create; the models keep different layouts of the same horizontal grid (the
 * ocean a 3-D block with one ghost layer, the atmosphere one with two ghost columns and rows);
 *  - every coupling step the ocean sends its top interior level (a subarray) to the atmosphere
 *    rank of the same local rank, which receives it into its bottom level (a vector), and gets
 *    that rank's lowest interior level back into its top ghost level, all through persistent
 *    requests (MPI_Send_init/MPI_Recv_init on the inter-communicator) created once and started
 *    with MPI_Startall every step while the fields change between the starts;
 *  - every atmosphere rank sends a vertical column (a vector over levels, from a `const int`
 *    stride) to ocean rank (a % NO) with MPI_Issend, polling MPI_Test while it computes its next
 *    field chunk by chunk (a `while` loop testing first on even steps, a `do`/`while` loop
 *    computing first on odd ones); the tag encodes the step and the sender; the ocean posts MPI_ANY_SOURCE
 *    / MPI_ANY_TAG receives into the columns of a matrix (a vector type) and handles each one
 *    as MPI_Waitsome returns it, naming the sender from the status and checking its column;
 *  - after the steps, MPI_Bcast across the inter-communicator (MPI_ROOT / MPI_PROC_NULL in the
 *    ocean) of every other surface point (a resized vector inside a contiguous, from a helper),
 *    and MPI_Allgather across it: ocean rows (a contiguous type) to the atmosphere, atmosphere
 *    columns into the columns of an ocean matrix (a column type resized to one double).
 * Every received value is checked against the value its sender computed from its indices.
 * NP: 5
 * CFLAGS: -std=c99 -Wall -Wextra -Wshadow -Werror -Wno-stringop-overflow */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define X 6  /* horizontal points, both models */
#define Y 4
#define OZ 3 /* ocean levels */
#define AZ 5 /* atmosphere levels */
#define MAXA 8
#define STEPS 4
#define NCHUNK 5
enum { TAG_SST = 10, TAG_STRESS = 11 };
#define TAG_FLUX(s, a) (100 + 8 * (s) + (a))
#define OV(s, o, z, y, x) ((double)((s) * 100000 + (o) * 10000 + (z) * 1000 + (y) * 100 + (x)))
#define AV(s, a, z, y, x) (-(double)((s) * 100000 + (a) * 10000 + (z) * 1000 + (y) * 100 + (x)) - 1)

static double ocean[OZ + 2][Y + 2][X + 2];
static double atm[AZ + 1][Y + 4][X + 4], atm_next[AZ + 1][Y + 4][X + 4];
static double fl[AZ][MAXA];

static void fill_ocean(int s, int o) {
  int z, y, x;
  for (z = 0; z < OZ + 2; ++z)
    for (y = 0; y < Y + 2; ++y)
      for (x = 0; x < X + 2; ++x)
        ocean[z][y][x] = (z >= 1 && z <= OZ && y >= 1 && y <= Y && x >= 1 && x <= X)
                             ? OV(s, o, z, y - 1, x - 1) : -5.0;
}

static void fill_atm(int s, int a) {
  int z, y, x;
  for (z = 0; z < AZ + 1; ++z)
    for (y = 0; y < Y + 4; ++y)
      for (x = 0; x < X + 4; ++x)
        atm[z][y][x] = (z >= 1 && y >= 2 && y < Y + 2 && x >= 2 && x < X + 2)
                           ? AV(s, a, z, y - 2, x - 2) : -6.0;
}

/* One chunk of the atmosphere's "next step": what it computes while its send is in flight. It
 * reads the interior levels only: level 0 is the persistent receive's buffer, still active. */
static void compute_chunk(int k) {
  int z, y, x;
  for (z = 1 + k; z < AZ + 1; z += NCHUNK)
    for (y = 0; y < Y + 4; ++y)
      for (x = 0; x < X + 4; ++x) atm_next[z][y][x] = 0.5 * atm[z][y][x] + z;
}

/* Every other point of a Y x X surface stored with one ghost row and column around it. */
static MPI_Datatype make_evens(void) {
  MPI_Datatype row, rowr, t;
  MPI_Type_vector(X / 2, 1, 2, MPI_DOUBLE, &row);
  MPI_Type_create_resized(row, 0, (X + 2) * sizeof(double), &rowr);
  MPI_Type_contiguous(Y, rowr, &t);
  MPI_Type_commit(&t);
  MPI_Type_free(&row);
  MPI_Type_free(&rowr);
  return t;
}

int main(int argc, char **argv) {
  int wrank, wsize, color, lrank, lsize, rsize, no, na, s, i, j, k, errs = 0, all = 0;
  int is_ocean, partner;
  double sum = 0.0, *sums = NULL;
  MPI_Comm local, inter;
  MPI_Request preq[2];
  MPI_Datatype top_level, top_ghost, level, column, flcol, evens, orow, acol, agcol, agcolr;
  const int plane = (Y + 4) * (X + 4);

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);
  no = wsize / 2;
  na = wsize - no;
  if (no < 1 || na > MAXA) MPI_Abort(MPI_COMM_WORLD, 2);
  is_ocean = wrank < no;
  color = is_ocean ? 0 : 1;
  MPI_Comm_split(MPI_COMM_WORLD, color, -wrank, &local);
  MPI_Comm_rank(local, &lrank);
  MPI_Comm_size(local, &lsize);
  /* Local rank 0 of each half is its highest world rank (the key is -wrank). */
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, is_ocean ? wsize - 1 : no - 1, 77, &inter);
  MPI_Comm_remote_size(inter, &rsize);
  errs += rsize != (is_ocean ? na : no) || lsize != (is_ocean ? no : na);
  partner = lrank; /* ocean o pairs with atmosphere o; atmosphere ranks >= no have no partner */

  {
    int sizes[3] = {OZ + 2, Y + 2, X + 2}, sub[3] = {1, Y, X}, start[3] = {OZ, 1, 1};
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &top_level);
    MPI_Type_commit(&top_level);
    start[0] = OZ + 1;
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &top_ghost);
    MPI_Type_commit(&top_ghost);
  }
  MPI_Type_vector(Y, X, X + 4, MPI_DOUBLE, &level);
  MPI_Type_commit(&level);
  MPI_Type_vector(AZ, 1, plane, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  MPI_Type_vector(AZ, 1, MAXA, MPI_DOUBLE, &flcol);
  MPI_Type_commit(&flcol);

  if (is_ocean) {
    MPI_Send_init(ocean, 1, top_level, partner, TAG_SST, inter, &preq[0]);
    MPI_Recv_init(ocean, 1, top_ghost, partner, TAG_STRESS, inter, &preq[1]);
  } else if (lrank < no) {
    MPI_Recv_init(&atm[0][2][2], 1, level, partner, TAG_SST, inter, &preq[0]);
    MPI_Send_init(&atm[1][2][2], 1, level, partner, TAG_STRESS, inter, &preq[1]);
  }

  for (s = 0; s < STEPS; ++s) {
    int paired = is_ocean || lrank < no;
    if (is_ocean) fill_ocean(s, lrank);
    else fill_atm(s, lrank);
    if (paired) MPI_Startall(2, preq);

    if (is_ocean) {
      /* Flux columns from every atmosphere rank a with a % no == lrank, in any order. */
      int expect = 0, done = 0, outcount, idx[MAXA], seen[MAXA] = {0};
      MPI_Request rq[MAXA];
      MPI_Status sts[MAXA];
      for (k = 0; k < na; ++k) expect += k % no == lrank;
      for (i = 0; i < AZ; ++i)
        for (j = 0; j < MAXA; ++j) fl[i][j] = -9.0;
      for (k = 0; k < expect; ++k)
        MPI_Irecv(&fl[0][k], 1, flcol, MPI_ANY_SOURCE, MPI_ANY_TAG, inter, &rq[k]);
      while (done < expect) {
        MPI_Waitsome(expect, rq, &outcount, idx, sts);
        if (outcount == MPI_UNDEFINED) break;
        for (k = 0; k < outcount; ++k) {
          int slot = idx[k], a = sts[k].MPI_SOURCE, cnt = -1;
          MPI_Get_count(&sts[k], flcol, &cnt);
          errs += cnt != 1 || a < 0 || a >= na || a % no != lrank;
          errs += sts[k].MPI_TAG != TAG_FLUX(s, a);
          if (a < 0 || a >= na) continue;
          errs += seen[a]++ != 0;
          for (i = 0; i < AZ; ++i) {
            errs += fl[i][slot] != AV(s, a, i + 1, a % Y, a % X);
            sum += fl[i][slot] * (i + 1) * (a + 1);
          }
        }
        done += outcount;
      }
      for (k = 0; k < na; ++k) errs += seen[k] != (k % no == lrank);
    } else {
      /* One column to the ocean, synchronous, overlapped with the next field's computation. */
      MPI_Request rq;
      int flag = 0, chunk = 0;
      if (s % 2 == 0) { /* test before each chunk */
        MPI_Issend(&atm[1][2 + lrank % Y][2 + lrank % X], 1, column, lrank % no,
                   TAG_FLUX(s, lrank), inter, &rq);
        while (!flag) {
          MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
          if (!flag && chunk < NCHUNK) compute_chunk(chunk++);
        }
      } else { /* a chunk, then a test */
        MPI_Issend(&atm[1][2 + lrank % Y][2 + lrank % X], 1, column, lrank % no,
                   TAG_FLUX(s, lrank), inter, &rq);
        do {
          if (chunk < NCHUNK) compute_chunk(chunk++);
          MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
        } while (!flag);
      }
      while (chunk < NCHUNK) compute_chunk(chunk++);
      for (k = 1; k < AZ + 1; ++k)
        for (i = 0; i < Y + 4; ++i)
          for (j = 0; j < X + 4; ++j) {
            int in = i >= 2 && i < Y + 2 && j >= 2 && j < X + 2;
            errs += atm_next[k][i][j] != 0.5 * (in ? AV(s, lrank, k, i - 2, j - 2) : -6.0) + k;
          }
      errs += rq != MPI_REQUEST_NULL;
    }

    if (paired) {
      MPI_Status pst[2];
      MPI_Waitall(2, preq, pst);
      if (is_ocean) { /* the partner's lowest level in the top ghost level */
        for (i = 0; i < Y; ++i)
          for (j = 0; j < X; ++j) {
            errs += ocean[OZ + 1][i + 1][j + 1] != AV(s, partner, 1, i, j);
            sum += ocean[OZ + 1][i + 1][j + 1] * ((i + j) % 3 + 1);
          }
        errs += ocean[OZ + 1][0][0] != -5.0 || pst[1].MPI_SOURCE != partner ||
                pst[1].MPI_TAG != TAG_STRESS;
      } else { /* the partner's top level in level 0 */
        for (i = 0; i < Y + 4; ++i)
          for (j = 0; j < X + 4; ++j) {
            int in = i >= 2 && i < Y + 2 && j >= 2 && j < X + 2;
            errs += atm[0][i][j] != (in ? OV(s, partner, OZ, i - 2, j - 2) : -6.0);
            sum += atm[0][i][j] * ((i + 2 * j) % 5 + 1);
          }
        errs += pst[0].MPI_SOURCE != partner || pst[0].MPI_TAG != TAG_SST;
      }
    }
    MPI_Barrier(inter); /* no step's flux may match another step's receive */
  }
  if (is_ocean || lrank < no) {
    MPI_Request_free(&preq[0]);
    MPI_Request_free(&preq[1]);
  }

  /* Across the inter-communicator: ocean rank 0 broadcasts every other surface point. */
  evens = make_evens();
  {
    double surf[Y + 2][X + 2];
    int root = is_ocean ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    for (i = 0; i < Y + 2; ++i)
      for (j = 0; j < X + 2; ++j) surf[i][j] = is_ocean ? ocean[OZ][i][j] : -3.0;
    MPI_Bcast(&surf[1][1], 1, evens, root, inter);
    for (i = 0; i < Y + 2; ++i)
      for (j = 0; j < X + 2; ++j) {
        int hit = i >= 1 && i <= Y && j >= 1 && j <= X && (j - 1) % 2 == 0;
        double want = is_ocean ? ocean[OZ][i][j] : hit ? OV(STEPS - 1, 0, OZ, i - 1, j - 1) : -3.0;
        errs += surf[i][j] != want;
        sum += surf[i][j] * (i + 1) * !is_ocean;
      }
  }

  /* Allgather across: ocean surface row 0 to every atmosphere rank, atmosphere columns into
   * the columns of an ocean matrix. */
  MPI_Type_contiguous(X, MPI_DOUBLE, &orow);
  MPI_Type_commit(&orow);
  MPI_Type_vector(Y, 1, X + 4, MPI_DOUBLE, &acol);
  MPI_Type_commit(&acol);
  MPI_Type_vector(Y, 1, MAXA, MPI_DOUBLE, &agcol);
  MPI_Type_create_resized(agcol, 0, sizeof(double), &agcolr);
  MPI_Type_commit(&agcolr);
  if (is_ocean) {
    double ag[Y][MAXA];
    for (i = 0; i < Y; ++i)
      for (j = 0; j < MAXA; ++j) ag[i][j] = -4.0;
    MPI_Allgather(&ocean[OZ][1][1], 1, orow, ag, 1, agcolr, inter);
    for (i = 0; i < Y; ++i)
      for (j = 0; j < MAXA; ++j) {
        errs += ag[i][j] != (j < na ? AV(STEPS - 1, j, 1, i, 0) : -4.0);
        sum += ag[i][j] * (j + 1);
      }
  } else {
    double og[MAXA][X];
    MPI_Allgather(&atm[1][2][2], 1, acol, og, X, MPI_DOUBLE, inter);
    for (i = 0; i < no; ++i)
      for (j = 0; j < X; ++j) {
        errs += og[i][j] != OV(STEPS - 1, i, OZ, 0, j);
        sum += og[i][j] * (j + 2);
      }
  }

  if (wrank == 0) sums = malloc((size_t)wsize * sizeof *sums);
  MPI_Gather(&sum, 1, MPI_DOUBLE, sums, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (wrank == 0) {
    printf("ocean %d ranks, atmosphere %d ranks, %d coupling steps\n", no, na, STEPS);
    for (k = 0; k < wsize; ++k)
      printf("world rank %d (%s) checksum %.1f\n", k, k < no ? "ocean" : "atmosphere", sums[k]);
    printf("errors %d: %s\n", all, all ? "WRONG" : "ok");
    free(sums);
  }
  MPI_Type_free(&top_level);
  MPI_Type_free(&top_ghost);
  MPI_Type_free(&level);
  MPI_Type_free(&column);
  MPI_Type_free(&flcol);
  MPI_Type_free(&evens);
  MPI_Type_free(&orow);
  MPI_Type_free(&acol);
  MPI_Type_free(&agcol);
  MPI_Type_free(&agcolr);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  MPI_Finalize();
  return all ? 1 : 0;
}
