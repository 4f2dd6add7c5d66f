#!/usr/bin/env bash
# test/e2e/reliability_load.sh BUILD [ITERS] [NPROCS] [NX]: the long load run of
# reliability_halo_load (default 100,000 checked 26-neighbour exchanges, 1 rank, 6^3 grid per
# rank) on the fake device layer, memory sampled 20 times (VmRSS, VmHWM, libtempi's outstanding
# device/pinned allocations); prints the samples and the summary line, exits non-zero on a wrong
# cell or memory growth after warm-up. BUILD: a build folder with target reliability_halo_load.
# RELIABILITY_SKIP_KNOWN defaults to 1 (device receives, host sends: known bug 6 in
# docs/reliability.md leaks every device send MPICH completes at once); set it to 0 for the full run.
# The GPU version: test/gpu/ReliabilityHaloLoad.c (ctest -L gpu on the GPU machine).
# 1 rank: every neighbour is the rank itself (about 1.6 ms per exchange here); 2 ranks on this
# 2-core machine: about 12 ms per exchange (MPICH's ranks busy-poll).
set -euo pipefail
BUILD=${1:?usage: test/e2e/reliability_load.sh BUILD [ITERS] [NPROCS] [NX]}
ITERS=${2:-100000}
NP=${3:-1}
NX=${4:-6}
export RELIABILITY_SKIP_KNOWN=${RELIABILITY_SKIP_KNOWN:-1}
echo "reliability_load: $ITERS iterations, $NP ranks, ${NX}^3, RELIABILITY_SKIP_KNOWN=$RELIABILITY_SKIP_KNOWN, $(date -u)"
mpiexec -n "$NP" "$BUILD/bin/reliability_halo_load" "$ITERS" "$NX" --verbose
