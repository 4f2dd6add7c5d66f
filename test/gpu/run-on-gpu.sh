#!/usr/bin/env bash
# Builds and runs every device-layer check and benchmark on a GPU machine, in one go, and prints
# a short summary last. For the lent GPU machine (no LLVM, lit or GTest there): it builds test/gpu
# standalone (passes/, the device layer, tempi-measure and these programs) against the system MPI
# (Open MPI there) and, when .mpich/ is present (scripts/fetch-mpich-wheel; carry it), the MPI
# agreement test a second time against MPICH.
#   test/gpu/run-on-gpu.sh            # outputs (logs, CSV, model cache) under $OUT or /tmp/tempi-gpu
# Exit status: 0 when every check passed.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${OUT:-/tmp/tempi-gpu}"
LOG="$OUT/logs"   # one log per step; packed into $OUT/logs.tar.gz at the end
mkdir -p "$LOG"
cd "$ROOT"
export PATH="/usr/local/cuda/bin:$PATH"
JOBS="$(nproc)"
GEN=""; command -v ninja >/dev/null && GEN="-G Ninja"
status=0
summary=()
note() { summary+=("$1"); echo "== $1"; }
run() { # name, command...: runs, logs to $LOG/name.log, records PASS/FAIL/SKIP
  local name="$1"; shift
  local t0=$SECONDS
  "$@" >"$LOG/$name.log" 2>&1
  local rc=$?
  tail -"${TAILN:-25}" "$LOG/$name.log"
  case $rc in
    0) note "PASS $name ($((SECONDS - t0)) s)";;
    77) note "SKIP $name";;
    *) note "FAIL $name (exit $rc, $((SECONDS - t0)) s)"; status=1;;
  esac
}

{ date -u; nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv; nvcc --version | tail -1; cmake --version | head -1; mpicxx --version | head -1; } | tee "$OUT/machine.txt"

# Build A: system MPI. Build B (background): MPICH wheel, the MPI agreement test only.
cmake -S test/gpu -B build-gpu $GEN -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >"$LOG/configure.log" 2>&1 || { tail -30 "$LOG/configure.log"; note "FAIL configure"; exit 1; }
if [ -x .mpich/bin/mpicxx ]; then
  ( export PATH="$ROOT/.mpich/bin:$PATH"
    cmake -S test/gpu -B build-gpu-mpich $GEN -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DMPI_C_COMPILER="$ROOT/.mpich/bin/mpicc" -DMPI_CXX_COMPILER="$ROOT/.mpich/bin/mpicxx" &&
    cmake --build build-gpu-mpich -j "$((JOBS / 2))" --target tempi-gpu-mpi-pack ) >"$LOG/build-mpich.log" 2>&1 &
  mpich_pid=$!
fi
if ! cmake --build build-gpu -j "$JOBS" >"$LOG/build.log" 2>&1; then
  grep -E "error" "$LOG/build.log" | head -30; note "FAIL build"; exit 1
fi
grep -E "registers|spill" "$LOG/build.log" | sort | uniq -c | sort -rn | head -5 >"$LOG/ptxas.txt" || true
B=build-gpu/bin

run index-host $B/tempi-kernel-index-host 2000
run exactness $B/tempi-gpu-exactness 5000
run mpi-pack-openmpi mpirun --allow-run-as-root -n 1 $B/tempi-gpu-mpi-pack 10000
if [ -n "${mpich_pid:-}" ]; then
  if wait "$mpich_pid"; then
    run mpi-pack-mpich env LD_LIBRARY_PATH="$ROOT/.mpich/lib:$ROOT/.mpich/lib/mpich:${LD_LIBRARY_PATH:-}" \
      "$ROOT/.mpich/bin/mpiexec" -n 1 build-gpu-mpich/bin/tempi-gpu-mpi-pack 10000
  else
    tail -20 "$LOG/build-mpich.log"; note "FAIL build against MPICH"; status=1
  fi
fi
TAILN=80 run bench $B/tempi-bench-pack --csv "$OUT/bench.csv"
if command -v compute-sanitizer >/dev/null; then
  run memcheck compute-sanitizer --tool memcheck --error-exitcode 9 $B/tempi-gpu-exactness 150 --no-large
  run racecheck compute-sanitizer --tool racecheck --error-exitcode 9 $B/tempi-gpu-exactness 40 --no-large
fi
run measure mpirun --allow-run-as-root --oversubscribe -n 2 $B/tempi-measure --out "$OUT/model.txt"

echo; echo "== summary"; printf '%s\n' "${summary[@]}" | tee "$OUT/summary.txt"
tar czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$LOG"
exit $status
