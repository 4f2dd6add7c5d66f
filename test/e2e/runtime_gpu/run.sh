#!/usr/bin/env bash
# Builds libtempi with CUDA and the runtime's e2e programs, and runs them on this GPU machine.
#   test/e2e/runtime_gpu/run.sh [build-dir]
# Uses the MPI on PATH (mpicc/mpiexec); with Open MPI as root set OMPI_ALLOW_RUN_AS_ROOT=1 and
# OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 (done here).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
BUILD="${1:-$ROOT/build-runtime-gpu}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
cmake -S "$ROOT/test/e2e/runtime_gpu" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" -j "$(nproc)"
nvidia-smi -L || true
ctest --test-dir "$BUILD" --output-on-failure --timeout 300
