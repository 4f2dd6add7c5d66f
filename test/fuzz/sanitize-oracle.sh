#!/usr/bin/env bash
# test/fuzz/sanitize-oracle.sh BINDIR [COUNT]: the differential oracle (tempi-check-types) built
# with ASan + UBSan by build.sh: COUNT (default 2000) random types, then every fixed case set.
# Exit status non-zero on a wrong packing or a sanitizer report (both abort the run).
set -euo pipefail
BIN=${1:?usage: test/fuzz/sanitize-oracle.sh BINDIR [COUNT]}
COUNT=${2:-2000}
# MPICH here runs over UCX, whose mmap hooks crash under ASan; leaks of MPICH/UCX's unloaded
# transport modules cannot be suppressed by name, so LSan is off here (on for sanitize_passes).
export UCX_MEM_MMAP_HOOK_MODE=none
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
"$BIN/sanitize_oracle" --count "$COUNT" --seed 1
for c in cuboid halo rowcol resized negative pairs zero padding named; do
  "$BIN/sanitize_oracle" --case "$c"
done
