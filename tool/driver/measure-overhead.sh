#!/usr/bin/env bash
# Measures tempi-cc's compile overhead against mpicc on this machine, in one run (issue 5):
#   1. sources without derived datatypes: tempi-cc / mpicc <= 1.3, for (a) an MPI program with no
#      call the tool could rewrite (tempi-cc skips the tool) and (b) one whose point-to-point calls
#      use named types only (the tool runs)
#   2. a source with datatypes, cold cache: tempi-cc <= mpicc + nvcc(generated .cu) + 0.5 s
#   3. the same source rebuilt unchanged (warm cache): tempi-cc / mpicc <= 1.3
# Each time is the median of REPEAT runs (default 5) of `-c -O2`, the commands of a case run in
# turn in every round. BASELINE=/path/to/another/tempi-cc adds a column for it (before/after a
# change, same run); it finds its tempi-rewrite next to itself.
#   tool/driver/measure-overhead.sh [BUILD_DIR]      (default: build/)
# Needs BUILD_DIR/bin/tempi-cc and tempi-rewrite, mpicc and nvcc. Prints a table, then PASS/FAIL
# per target; exit code 1 when a target is missed, 2 when something needed is missing.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="$(cd "${1:-$ROOT/build}" && pwd)"
REPEAT="${REPEAT:-5}"
for tool in "$BUILD/bin/tempi-cc" "$BUILD/bin/tempi-rewrite"; do
  [ -x "$tool" ] || { echo "measure-overhead: $tool is not built" >&2; exit 2; }
done
NVCC="${TEMPI_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
[ -x "$NVCC" ] || { echo "measure-overhead: nvcc not found (set TEMPI_NVCC)" >&2; exit 2; }
command -v mpicc >/dev/null || { echo "measure-overhead: mpicc not on PATH" >&2; exit 2; }

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# An MPI source with no call the tool rewrites.
cat > "$WORK/nocall.c" <<'SRC'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  double x = 1, sum = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("%d %d %f\n", rank, size, sum);
  MPI_Finalize();
  return 0;
}
SRC
# A plain MPI source: point-to-point with built-in types only.
cat > "$WORK/nodt.c" <<'SRC'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  double buf[64] = {0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0 && size > 1)
    MPI_Send(buf, 64, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
  else if (rank == 1)
    MPI_Recv(buf, 64, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  printf("%d %f\n", rank, buf[0]);
  MPI_Finalize();
  return 0;
}
SRC
# A halo-style source: two faces of a 3-D grid (a vector and a subarray), sent and received.
cat > "$WORK/dt.c" <<'SRC'
#include <mpi.h>
#include <stdio.h>
#define N 64
int main(int argc, char **argv) {
  static double grid[N][N][N];
  int rank, size;
  MPI_Datatype xface, zface;
  int sizes[3] = {N, N, N}, sub[3] = {N, N, 1}, starts[3] = {0, 0, N - 1};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Type_vector(N * N, 1, N, MPI_DOUBLE, &xface);
  MPI_Type_commit(&xface);
  MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, &zface);
  MPI_Type_commit(&zface);
  if (rank == 0 && size > 1) {
    MPI_Send(grid, 1, xface, 1, 0, MPI_COMM_WORLD);
    MPI_Send(grid, 1, zface, 1, 1, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(grid, 1, xface, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(grid, 1, zface, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  printf("%d %f\n", rank, grid[0][0][0]);
  MPI_Type_free(&xface);
  MPI_Type_free(&zface);
  MPI_Finalize();
  return 0;
}
SRC

# The generated kernels of dt.c, for the nvcc-alone time.
"$BUILD/bin/tempi-rewrite" "$WORK/dt.c" -o "$WORK/dt.rewritten.c" --kernels-out="$WORK/dt.tempi.cu" \
  -- $(mpicc -show | tr ' ' '\n' | grep '^-I')
grep -q 'tempi-kernels: [1-9]' "$WORK/dt.tempi.cu" ||
  { echo "measure-overhead: tempi-rewrite generated no kernels for dt.c" >&2; exit 2; }

export BUILD WORK NVCC REPEAT ROOT BASELINE="${BASELINE:-}"
python3 - <<'PY'
import os, statistics, subprocess, sys, time
B, W, R = os.environ["BUILD"], os.environ["WORK"], int(os.environ["REPEAT"])
tempi = os.path.join(B, "bin", "tempi-cc")
baseline = os.environ.get("BASELINE") or None
mpi_inc = [t for t in subprocess.check_output(["mpicc", "-show"], text=True).split() if t.startswith("-I")]

def medians(cmds):
    """Runs the (argv, env) commands in turn, REPEAT rounds, and returns each one's median time:
    interleaved, so a change of the machine's load hits every command alike."""
    times = [[] for _ in cmds]
    for _ in range(R):
        for i, (cmd, env) in enumerate(cmds):
            t = time.perf_counter()
            subprocess.run(cmd, check=True, env=env, cwd=W, stdout=subprocess.DEVNULL)
            times[i].append(time.perf_counter() - t)
    return [statistics.median(t) for t in times]

base = dict(os.environ)
cold = dict(base, TEMPI_CACHE_DIR="off")
obj = lambda n: ["-c", "-O2", n + ".c", "-o", n + ".o"]
drivers = [("tempi-cc", tempi)] + ([("baseline", baseline)] if baseline else [])

def case(name, flags=()):
    """mpicc, then each driver, cold (no cache)."""
    cmds = [(["mpicc"] + obj(name), base)] + [([d] + list(flags) + obj(name), cold) for _, d in drivers]
    return medians(cmds)

nocall = case("nocall")
nodt = case("nodt")
# nvcc alone on dt.c's generated kernels, in the same rounds as the drivers (its time under the
# machine's load of the moment is the allowance's main term).
nvcc_alone = ([os.environ["NVCC"], "-arch=sm_90", "-O3", "-Xcompiler", "-fPIC",
               "-I" + os.path.join(os.environ["ROOT"], "runtime", "include")] + mpi_inc +
              ["-c", "dt.tempi.cu", "-o", "dt.tempi.o"], base)
*dt, nv = medians([(["mpicc"] + obj("dt"), base)] +
                  [([d, "--no-fallback"] + obj("dt"), cold) for _, d in drivers] + [nvcc_alone])
warm_envs = [dict(base, TEMPI_CACHE_DIR=os.path.join(W, "cache-" + n)) for n, _ in drivers]
for (n, d), env in zip(drivers, warm_envs):  # fill each driver's own cache
    subprocess.run([d, "--no-fallback"] + obj("dt"), check=True, env=env, cwd=W)
warm = medians([(["mpicc"] + obj("dt"), base)] +
               [([d, "--no-fallback"] + obj("dt"), env) for (_, d), env in zip(drivers, warm_envs)])

print(f"compile overhead, median of {R} interleaved runs, -c -O2 (seconds)")
head = f"{'case':<46}{'mpicc':>8}{'tempi-cc':>10}" + (f"{'baseline':>10}" if baseline else "")
print(head + f"{'limit':>8}  result")
def row(name, times, limit):
    ok = times[1] <= limit
    extra = f"{times[2]:10.3f}" if baseline else ""
    print(f"{name:<46}{times[0]:8.3f}{times[1]:10.3f}{extra}{limit:8.3f}  {'PASS' if ok else 'FAIL'}"
          f"  ({times[1] / times[0]:.2f}x mpicc)")
    return ok
ok = row("no rewritable call (1.3 x mpicc)", nocall, 1.3 * nocall[0])
ok &= row("named types only (1.3 x mpicc)", nodt, 1.3 * nodt[0])
ok &= row(f"datatypes, cold (mpicc + nvcc {nv:.3f} + 0.5)", dt, dt[0] + nv + 0.5)
ok &= row("datatypes, unchanged rebuild (1.3 x mpicc)", warm, 1.3 * warm[0])
sys.exit(0 if ok else 1)
PY
