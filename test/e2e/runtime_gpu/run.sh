#!/usr/bin/env bash
# Builds libtempi with CUDA and the runtime's e2e programs, and runs them on this GPU machine:
# once with the MPI on PATH (Open MPI there), and once more with the MPICH 5.0.2 wheel when
# .mpich/ is present (scripts/fetch-mpich-wheel; carry it to the GPU machine).
#   test/e2e/runtime_gpu/run.sh [build-dir]   (builds in build-dir-system and build-dir-mpich)
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
BUILD="${1:-$ROOT/build-runtime-gpu}"
# scripts/gpu-check puts the wheel first on PATH before it calls this script: the first round is
# the machine's own MPI, so take the wheel out again (it was tested twice, labelled by its hydra).
without_wheel() { tr ':' '\n' <<<"$1" | grep -v "^$ROOT/.mpich" | paste -sd: -; }
PATH="$(without_wheel "$PATH")"
LD_LIBRARY_PATH="$(without_wheel "${LD_LIBRARY_PATH:-}")"
export PATH LD_LIBRARY_PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
nvidia-smi -L || true
status=0
build_and_test() { # <build-dir> <label> [cmake args...]
  local dir=$1 label=$2
  shift 2
  echo "=== runtime GPU tests over $label"
  cmake -S "$ROOT/test/e2e/runtime_gpu" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null &&
    cmake --build "$dir" -j "$(nproc)" >"$dir.build.log" 2>&1 ||
    { echo "build failed (see $dir.build.log)"; tail -20 "$dir.build.log"; status=1; return; }
  ctest --test-dir "$dir" --output-on-failure --timeout 300 || status=1
  # The per-call overhead's figures: ctest shows a passing test's output only with -V.
  ctest --test-dir "$dir" -R '^runtime_overhead$' -V 2>&1 | sed -n 's/^[0-9]*: \(runtime_overhead: .*\)/\1/p'
}
build_and_test "$BUILD-system" "$(mpiexec --version 2>&1 | head -1)" -DMPI_C_COMPILER="$(command -v mpicc)" \
  -DMPI_CXX_COMPILER="$(command -v mpicxx)" -DMPIEXEC_EXECUTABLE="$(command -v mpiexec)"
if [ -x "$ROOT/.mpich/bin/mpicc" ]; then
  export PATH="$ROOT/.mpich/bin:$PATH"
  export LD_LIBRARY_PATH="$ROOT/.mpich/lib:$ROOT/.mpich/lib/mpich:${LD_LIBRARY_PATH:-}"
  build_and_test "$BUILD-mpich" "the MPICH 5.0.2 wheel" -DMPI_C_COMPILER="$ROOT/.mpich/bin/mpicc" \
    -DMPI_CXX_COMPILER="$ROOT/.mpich/bin/mpicxx" -DMPIEXEC_EXECUTABLE="$ROOT/.mpich/bin/mpiexec"
fi
exit $status
