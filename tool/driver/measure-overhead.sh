#!/usr/bin/env bash
# Measures tempi-cc's compile overhead against mpicc on this machine, in one run (issue 5):
#   1. sources without derived datatypes: tempi-cc / mpicc <= 1.3, for (a) an MPI program with no
#      call the tool could rewrite (tempi-cc skips the tool) and (b) one whose point-to-point calls
#      use named types only (the tool runs)
#   2. a source with datatypes, cold cache: tempi-cc <= mpicc + nvcc(generated .cu) + 0.5 s
#   3. the same source rebuilt unchanged (warm cache): tempi-cc / mpicc <= 1.3
# Each time is the median of REPEAT runs (default 5) of `-c -O2`.
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

export BUILD WORK NVCC REPEAT ROOT
python3 - <<'PY'
import os, statistics, subprocess, sys, time
B, W, R = os.environ["BUILD"], os.environ["WORK"], int(os.environ["REPEAT"])
tempi = os.path.join(B, "bin", "tempi-cc")
mpi_inc = [t for t in subprocess.check_output(["mpicc", "-show"], text=True).split() if t.startswith("-I")]

def median(cmd, env=None, before=None):
    times = []
    for _ in range(R):
        if before: before()
        t = time.perf_counter()
        subprocess.run(cmd, check=True, env=env, cwd=W, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return statistics.median(times)

base = dict(os.environ)
cold = dict(base, TEMPI_CACHE_DIR="off")
warm = dict(base, TEMPI_CACHE_DIR=os.path.join(W, "cache"))
obj = lambda n: ["-c", "-O2", n + ".c", "-o", n + ".o"]
m_nocall = median(["mpicc"] + obj("nocall"))
t_nocall = median([tempi] + obj("nocall"), env=cold)
m_nodt = median(["mpicc"] + obj("nodt"))
t_nodt = median([tempi] + obj("nodt"), env=cold)
m_dt = median(["mpicc"] + obj("dt"))
nv = median([os.environ["NVCC"], "-arch=sm_90", "-O3", "-Xcompiler", "-fPIC",
             "-I" + os.path.join(os.environ["ROOT"], "runtime", "include")] + mpi_inc +
            ["-c", "dt.tempi.cu", "-o", "dt.tempi.o"])
t_cold = median([tempi, "--no-fallback"] + obj("dt"), env=cold)
subprocess.run([tempi, "--no-fallback"] + obj("dt"), check=True, env=warm, cwd=W)  # fill the cache
t_warm = median([tempi, "--no-fallback"] + obj("dt"), env=warm)

print(f"compile overhead, median of {R} runs, -c -O2 (seconds)")
print(f"{'case':<44}{'mpicc':>8}{'tempi-cc':>10}{'limit':>8}  result")
def row(name, m, t, limit):
    ok = t <= limit
    print(f"{name:<44}{m:8.3f}{t:10.3f}{limit:8.3f}  {'PASS' if ok else 'FAIL'}")
    return ok
ok = row("no rewritable call (1.3 x mpicc)", m_nocall, t_nocall, 1.3 * m_nocall)
ok &= row("named types only, tool runs (1.3 x mpicc)", m_nodt, t_nodt, 1.3 * m_nodt)
ok &= row(f"datatypes, cold (mpicc + nvcc {nv:.3f} + 0.5)", m_dt, t_cold, m_dt + nv + 0.5)
ok &= row("datatypes, unchanged rebuild (1.3 x mpicc)", m_dt, t_warm, 1.3 * m_dt)
sys.exit(0 if ok else 1)
PY
