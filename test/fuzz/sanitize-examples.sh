#!/usr/bin/env bash
# test/fuzz/sanitize-examples.sh SANBUILD MAINBUILD: the examples (examples/*/Makefile) built
# through tempi-cc, under ASan + UBSan, against the sanitizer build's libtempi. Called by
# sanitize-runtime.sh (which has built SANBUILD, its libtempi and its examples' tests, with the
# flags below); it can also be run on its own.
#
# What runs: every example-*-host test of SANBUILD's ctest whose program is a plain example (not
# a -tempi one; example-halo3d-host, -np1, example-halo3d-fixed-host, pingpong, transpose ...),
# with that test's rank count and arguments. For each program P those tests name:
#   1. its compile command is the example's own Makefile's (make -n OUT=... CUDA=0 CFLAGS="DBG
#      SAN" for target P, as a user's `CC=tempi-cc make` would run it: halo3d-fixed16 is the
#      Makefile's halo3d-fixed% with HALO_N=16); one -c per source (san_compile_pair,
#      sanitize-lib.sh): the reference with mpicc, the tempi build from the sources MAINBUILD's
#      tempi-cc -show rewrites, linked against SANBUILD's libtempi. The generated GPU kernel
#      files are not built (this libtempi has no device layer; the runs use host buffers);
#   2. both builds run as the test runs the plain program (mpiexec -n NP P ARGS), and
#      - neither run's stderr may hold a sanitizer report, both must exit 0,
#      - their result lines must match: the lines starting with the program's name (what rank 0
#        prints, one per variant or size) with the timing fields (*_ms, *_us, GBps*) removed, so
#        what is compared is the variant, sizes, ranks, iterations and the programs' own check
#        (wrong=N ok|FAILED); there must be at least one.
# Prints one line per test and a summary line; exit status non-zero when any build fails, any
# test fails or no test is found (each FAILED line names the test, its program and arguments, and the log).
# SKIPPED (exit 0) when MAINBUILD has no tempi-cc / tempi-rewrite.
# Environment: SAN, DBG, JOBS, MPICC, MPIEXEC as in sanitize-lib.sh; EXAMPLES_DIR (default
# examples/; failure-injection runs point it at a scratch copy); EXAMPLES_TIMEOUT (s, default 120).
set -uo pipefail
SANBUILD=${1:?usage: test/fuzz/sanitize-examples.sh SANBUILD MAINBUILD}
MAIN=${2:?usage: test/fuzz/sanitize-examples.sh SANBUILD MAINBUILD}
SANBUILD=$(cd "$SANBUILD" && pwd) && MAIN=$(cd "$MAIN" && pwd) || exit 1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
EXDIR=$(cd "${EXAMPLES_DIR:-$ROOT/examples}" && pwd) || exit 1
RUN_TIMEOUT=${EXAMPLES_TIMEOUT:-120}
WORK=$SANBUILD/examples-tempi-cc
# shellcheck source=sanitize-lib.sh
. "$ROOT/test/fuzz/sanitize-lib.sh"
san_init
san_have_tools "the examples through tempi-cc" sanitize-examples || exit 0
t0=$SECONDS

# example_tests: "TEST NP PROGRAM ARGS..." per plain example-*-host test, from ctest -N -V, where
# each test's command precedes its name:
#   148: Test command: /usr/bin/mpiexec "-n" "4" "<SANBUILD>/bin/halo3d" "12" "10" "8" ...
#     Test #148: example-halo3d-host
example_tests() {
  ctest --test-dir "$SANBUILD" -N -V -R '^example-.*-host(-np[0-9]+)?$' | awk '
    /^[0-9]+: Test command: / { sub(/^[0-9]+: Test command: /, ""); gsub(/"/, ""); cmd = $0; next }
    /^ *Test +#[0-9]+: / {
      n = split(cmd, w, " "); k = split(w[4], p, "/")
      if (p[k] ~ /-tempi$/) next
      line = $NF " " w[3] " " p[k]
      for (i = 5; i <= n; i++) line = line " " w[i]
      print line
    }'
}

# make_command PROGRAM: "DIR<TAB>COMMAND" for the example whose Makefile builds PROGRAM, COMMAND
# the recipe's compiler line with the compiler name CC (make -n; nothing is built).
make_command() {
  local mk line
  for mk in "$EXDIR"/*/Makefile; do
    line=$(make -s -n -C "$(dirname "$mk")" OUT=/nonexistent CUDA=0 CC=CC CFLAGS="$DBG $SAN" \
      "/nonexistent/$1" 2>/dev/null | grep -m1 '^CC ') &&
      { printf '%s\t%s\n' "$(dirname "$mk")" "${line#CC }"; return 0; }
  done
  return 1
}

# build_one PROGRAM: WORK/PROGRAM/{ref,tempi}/exe; WORK/PROGRAM/build.status (ok | refbuild |
# tempibuild | nomake); the kernels tempi-cc generated, counted in WORK/PROGRAM/kernels.
build_one() {
  local prog=$1 d=$WORK/$1 dir cmd w flags=() libs=() srcs=() after_o=0 s rc=0
  rm -rf "$d" && mkdir -p "$d"
  IFS=$'\t' read -r dir cmd < <(make_command "$prog") || { echo nomake >"$d/build.status"; return; }
  for w in $cmd; do # FLAGS SOURCES -o OUT LDFLAGS LDLIBS (example.mk's order)
    case $w in
      -o) after_o=1 ;;
      *.c) srcs+=("$dir/$w") ;;
      *) if [ $after_o = 0 ]; then flags+=("$w"); elif [ $after_o = 1 ]; then after_o=2; else libs+=("$w"); fi ;;
    esac
  done
  for s in "${srcs[@]}"; do
    san_compile_pair "$d" "$s" c "${flags[@]}"; rc=$?
    [ $rc = 0 ] || break
  done
  echo "${#srcs[@]}" >"$d/sources"
  [ $rc = 0 ] && { san_link_pair "$d" c "$dir" "${flags[@]}" "${libs[@]}"; rc=$?; }
  cat "$d"/tmp/*/tempi-cc.*/*/*.tempi.cu 2>/dev/null | sed -n 's|^// tempi-kernels: ||p' |
    awk '{ k += $1 } END { print k + 0 }' >"$d/kernels"
  san_build_status $rc >"$d/build.status"
}

# result_lines FILE PROGRAM: the lines PROGRAM prints as its result, timing fields removed.
result_lines() {
  grep "^$2 " "$1" | sed -E 's/ [A-Za-z_]*(_ms|_us)=[^ ]*//g; s/ GBps[A-Za-z_]*=[^ ]*//g'
}

mapfile -t tests < <(example_tests)
if [ "${#tests[@]}" = 0 ]; then
  echo "sanitize-examples: FAILED: no plain example-*-host test in $SANBUILD (ctest -N -V format changed?)"
  exit 1
fi
mkdir -p "$WORK"
mapfile -t programs < <(printf '%s\n' "${tests[@]}" | awk '{ print $3 }' | sort -u)
build_all "$JOBS" build_one "${programs[@]}"
t1=$SECONDS

nrun=0 nfail=0
for t in "${tests[@]}"; do
  read -r name np prog args <<<"$t"
  d=$WORK/$prog label="$name ($prog $args)"
  st=$(cat "$d/build.status" 2>/dev/null || echo missing)
  if [ "$st" != ok ]; then
    log=$(san_build_log "$d" "$st")
    [ "$st" = nomake ] && log="no examples/*/Makefile builds $prog"
    tail -30 "$log" 2>/dev/null
    echo "sanitize-examples: $label FAILED: build ($st; $log)"; nfail=$((nfail + 1)); continue
  fi
  nrun=$((nrun + 1))
  out=run-$name
  # shellcheck disable=SC2086
  san_run_pair "$d" "$out" "$RUN_TIMEOUT" "$np" $args
  for which in ref tempi; do result_lines "$d/$out/$which.out" "${prog%%-*}" >"$d/$out/$which.result"; done
  san_verdict "$d/$out" result
  [ -n "$WHY" ] || [ -s "$d/$out/ref.result" ] || WHY="no result line in $d/$out/ref.out"
  note="np=$np, $(san_rewritten "$d") of $(cat "$d/sources") sources rewritten"
  [ -f "$d/rewritten" ] && note="$note ($(paste -sd' ' "$d/rewritten"); $(cat "$d/kernels") GPU kernels generated, not built)"
  if [ -n "$WHY" ]; then
    echo "sanitize-examples: $label FAILED ($note): $WHY"; nfail=$((nfail + 1))
  else
    echo "sanitize-examples: $label ok ($note; $(grep -c . "$d/$out/ref.result") result lines match)"
  fi
done
echo "sanitize-examples: examples through tempi-cc: ${#tests[@]} tests of ${#programs[@]} programs," \
  "$nrun run, $nfail failed; build $((t1 - t0)) s, run $((SECONDS - t1)) s"
[ "$nfail" -eq 0 ]
