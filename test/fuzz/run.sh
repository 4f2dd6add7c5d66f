#!/usr/bin/env bash
# test/fuzz/run.sh SECONDS BINDIR [TARGET...]: replays every committed regression input, then runs
# each libFuzzer target (built by build.sh into BINDIR) for SECONDS seconds on its corpus
# (BINDIR/corpus/<target>, seeded by make-seeds.sh, kept between runs; fuzz_frontend, built where
# LLVM/Clang 22 is found, with the dictionary fuzz_frontend.dict). Prints one line per
# target: executions, corpus size, findings. Findings (crash, sanitizer report, failed check,
# timeout over 10 s, memory over 2 GiB) are saved as BINDIR/findings/<target>-*.
# Exit status: 0 when no target found anything, 1 when any did, 2 on a usage/build problem.
set -uo pipefail
SECS=${1:?usage: test/fuzz/run.sh SECONDS BINDIR [TARGET...]}
BIN=${2:?usage: test/fuzz/run.sh SECONDS BINDIR [TARGET...]}
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
  TARGETS=(fuzz_expr_text fuzz_ir_text fuzz_canonicalize)
  [ -x "$BIN/fuzz_decoder" ] && TARGETS+=(fuzz_decoder) # built only where mpicc was found
  [ -x "$BIN/fuzz_frontend" ] && TARGETS+=(fuzz_frontend) # only where LLVM/Clang 22 was found
fi
# fuzz_decoder reads the same byte format as fuzz_canonicalize.
declare -A SEEDS=([fuzz_expr_text]=expr [fuzz_ir_text]=ir [fuzz_canonicalize]=canon [fuzz_decoder]=canon
  [fuzz_frontend]=c)
# MPICH and UCX keep allocations to the end of the process, and UCX's mmap hooks crash under
# ASan (as in sanitize-oracle.sh): no leak checks and no hooks in the MPI target.
# fuzz_frontend: MPI tokens and C idioms as its dictionary (its inputs are C sources).
declare -A EXTRA=([fuzz_decoder]=-detect_leaks=0 [fuzz_frontend]=-dict=$HERE/fuzz_frontend.dict)
declare -A ENVS=([fuzz_decoder]="ASAN_OPTIONS=detect_leaks=0 UCX_MEM_MMAP_HOOK_MODE=none")
"$HERE/make-seeds.sh" "$BIN/seeds" >/dev/null || exit 2
mkdir -p "$BIN/findings" "$BIN/logs"
status=0
printf '%-20s %12s %8s %8s %s\n' target executions exec/s corpus findings
for t in "${TARGETS[@]}"; do
  [ -x "$BIN/$t" ] || { echo "run.sh: $BIN/$t not built (test/fuzz/build.sh $BIN)" >&2; exit 2; }
  corpus="$BIN/corpus/$t"
  mkdir -p "$corpus"
  cp -n "$BIN/seeds/${SEEDS[$t]}"/* "$corpus/" 2>/dev/null
  log="$BIN/logs/$t.log"
  before=$(ls "$BIN/findings" | grep -c "^$t-")
  # 1. every committed regression input must now pass.
  regress=ok
  if compgen -G "$HERE/regressions/$t/*" >/dev/null; then
    if ! env ${ENVS[$t]:-} "$BIN/$t" ${EXTRA[$t]:-} -timeout=10 -rss_limit_mb=2048 "$HERE/regressions/$t"/* >"$log.regress" 2>&1; then
      regress="FAILED (see $log.regress)"
      status=1
    fi
  fi
  # 2. fuzz.
  env ${ENVS[$t]:-} "$BIN/$t" ${EXTRA[$t]:-} "$corpus" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$BIN/findings/$t-" >"$log" 2>&1
  rc=$?
  after=$(ls "$BIN/findings" | grep -c "^$t-")
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  found=$((after - before))
  if [ $rc -ne 0 ] || [ $found -ne 0 ]; then
    status=1
    what="$found new ($(ls "$BIN/findings" | grep "^$t-" | tr '\n' ' ')) rc=$rc, log $log"
  else
    what=0
  fi
  printf '%-20s %12s %8s %8s %s; regressions %s\n' "$t" "${execs:-?}" "${rate:-?}" \
    "$(ls "$corpus" | wc -l)" "$what" "$regress"
done
exit $status
