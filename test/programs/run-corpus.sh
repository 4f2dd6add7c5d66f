#!/usr/bin/env bash
# Differential check of tempi-cc on a corpus of ordinary MPI programs.
#
#   test/programs/run-corpus.sh [PROGRAM...]      (default: every program in this folder)
#
# A program is a .c/.cpp file here, or a subfolder whose .c/.cpp files form one program. Its
# header comment may say `NP: n` (ranks, default 4), `ARGS: ...` (command-line arguments) and
# `CFLAGS: ...` (compile flags added to -O2 for both builds) and `FALLBACK: reason` (the program
# is expected to fall back: its --no-fallback build must fail, and the plain tempi-cc build must
# pass the comparison; a FALLBACK program that builds with --no-fallback is a FAIL, so the mark
# is dropped once the tool handles it). `ONESTEP: 1` builds a one-source program with one command
# (compile and link, which tempi-cc treats as the whole program) instead of -c then link.
# For each program:
#   1. build it with the real wrapper (mpicc / mpicxx), one `-c` per source then a link, as make does;
#   2. build it the same way with tempi-cc / tempi-cxx --no-fallback (a tool, nvcc, partial-link or
#      rewritten-compile failure is then an error instead of a fallback to the unmodified source);
#      if that fails, build it again without --no-fallback (what a user gets) and run that, but
#      the program still counts as FAIL;
#   3. run both with mpiexec -n NP and compare stdout and exit codes (and a build that mpicc does
#      without printing anything must print nothing with tempi-cc either); the tempi-cc build runs with
#      TEMPI_VERIFY_PLANS=1 (unless the environment sets it), so a static plan that does not
#      describe its datatype aborts it (exit 70, the check's line shown in the verdict) even on
#      host buffers, which the MPI packs itself;
#   4. record what was rewritten: `tempi-rewrite --explain --compiler-macros` (the compiler's
#      `-dM -E` listing, as tempi-cc passes it) remarks per source (rewritten call
#      sites, datatype arguments left to the runtime, calls left unchanged) and the `U tempi_*`
#      symbols of the tempi-cc executable.
# Prints one line per program, then the remarks of everything left to the runtime.
#
# Environment: TEMPI_BUILD (build tree, default <repo>/build), CORPUS_DIR (the folder of programs,
# default this one: a folder of your own programs runs the same way), MPICC, MPICXX, MPIEXEC,
# TEMPI_VERIFY_PLANS (for the tempi-cc runs, default 1; 0 turns the plan check off),
# CORPUS_WORK (scratch folder, default a new /tmp/tempi-corpus.XXXXXX),
# CORPUS_JOBS (programs built at once, default 2), CORPUS_TIMEOUT (seconds per run, default 120),
# TEMPI_CACHE_DIR (default: a fresh cache inside the scratch folder, so every build is real).
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${TEMPI_BUILD:-$repo/build}
tempi_cc=$build/bin/tempi-cc
tempi_cxx=$build/bin/tempi-cxx
rewrite=$build/bin/tempi-rewrite
mpicc=${MPICC:-mpicc}
mpicxx=${MPICXX:-mpicxx}
mpiexec=${MPIEXEC:-mpiexec}
work=${CORPUS_WORK:-$(mktemp -d /tmp/tempi-corpus.XXXXXX)}
jobs=${CORPUS_JOBS:-2}
run_timeout=${CORPUS_TIMEOUT:-120}
export TEMPI_CACHE_DIR=${TEMPI_CACHE_DIR:-$work/cache}
mkdir -p "$work"

for tool in "$tempi_cc" "$rewrite"; do
  [ -x "$tool" ] || { echo "run-corpus: $tool not found (set TEMPI_BUILD)" >&2; exit 2; }
done
# The wrapper's include flags, for tempi-rewrite --explain (tempi-cc finds them the same way).
mpi_flags=$("$mpicc" -show | tr ' ' '\n' | grep -E '^-I' | tr '\n' ' ')

# ---- the list of programs ----
CORPUS_ROOT=$(cd "${CORPUS_DIR:-$here}" && pwd) || exit 2
# shellcheck source=corpus-lib.sh
. "$here/corpus-lib.sh"
programs=()
if [ $# -gt 0 ]; then
  programs=("$@")
else
  mapfile -t programs < <(corpus_programs)
fi
for prog in "${programs[@]}"; do # a name, as corpus_programs lists them: file.c, file.cpp, folder/
  [ -e "$CORPUS_ROOT/$prog" ] ||
    { echo "run-corpus: no program $prog in $CORPUS_ROOT (give names, not paths; CORPUS_DIR sets the folder)" >&2; exit 2; }
done

# build_one NAME: builds the reference and the tempi-cc executables, writes NAME/build.status
# (ok | fallback: --no-fallback failed but the plain tempi-cc build worked | tempibuild | refbuild).
# Sources are compiled from their own folder by their relative name, as make does, so __FILE__
# is what a user's build would give.
build_one() {
  local prog=$1 name d srcdir srcs lang cc tcc src obj rc=0 cflags
  name=$(name_of "$prog")
  d=$work/$name
  rm -rf "$d" && mkdir -p "$d/ref" "$d/tempi" "$d/fallback"
  mapfile -t srcs < <(sources_of "$prog")
  srcdir=$(dirname "${srcs[0]}")
  cflags="-O2 $(header_field CFLAGS "${srcs[@]}")"
  lang=c; cc=$mpicc; tcc=$tempi_cc
  if printf '%s\n' "${srcs[@]}" | grep -q '\.cpp$'; then lang=c++; cc=$mpicxx; tcc=$tempi_cxx; fi
  echo "$lang" > "$d/lang"
  # compile_all OUTDIR COMPILER FLAGS...: one -c per source, then the link; returns non-zero on failure
  # (ONESTEP: one command compiles and links the one source, as `mpicc prog.c -o prog` does.)
  local onestep
  onestep=$(header_field ONESTEP "${srcs[@]}")
  compile_all() {
    local out=$1 comp=$2 s o
    shift 2
    if [ -n "$onestep" ]; then
      (cd "$srcdir" && "$comp" "$@" $cflags "$(basename "${srcs[0]}")" -o "$out/exe" -lm) >> "$out/build.log" 2>&1
      return
    fi
    for s in "${srcs[@]}"; do
      o=$out/$(basename "${s%.*}").o
      # shellcheck disable=SC2086
      (cd "$srcdir" && "$comp" "$@" $cflags -c "$(basename "$s")" -o "$o") >> "$out/build.log" 2>&1 || return 1
    done
    # shellcheck disable=SC2086
    (cd "$srcdir" && "$comp" "$@" $cflags "$out"/*.o -o "$out/exe" -lm) >> "$out/build.log" 2>&1
  }
  compile_all "$d/ref" "$cc" || { echo "refbuild" > "$d/build.status"; return; }
  local t0 t1
  t0=$(date +%s.%N)
  compile_all "$d/tempi" "$tcc" --no-fallback || rc=1
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{printf "%.1f\n", $2 - $1}' > "$d/tempi/build.seconds"
  if [ $rc -ne 0 ]; then
    # What a user without --no-fallback gets: the warning, then (one hopes) mpicc's object.
    if compile_all "$d/fallback" "$tcc"; then echo "fallback" > "$d/build.status"; else echo "tempibuild" > "$d/build.status"; fi
  else
    echo "ok" > "$d/build.status"
  fi
  # Remarks (independent of the build result).
  local xflag=""
  [ "$lang" = c++ ] && xflag="-x c++"
  : > "$d/remarks.txt"
  # The compiler's predefined macros, as tempi-cc passes them (--compiler-macros), so the
  # remarks count what the build rewrites.
  local macros=$d/compiler-macros.h lx=c
  [ "$lang" = c++ ] && lx=c++
  # shellcheck disable=SC2086
  (cd "$srcdir" && "$cc" $cflags -dM -E -x $lx /dev/null) > "$macros" 2>/dev/null || : > "$macros"
  for src in "${srcs[@]}"; do
    # shellcheck disable=SC2086
    (cd "$srcdir" && "$rewrite" --explain ${onestep:+--whole-program} --compiler-macros="$macros" "$(basename "$src")" -o /dev/null -- $cflags $xflag $mpi_flags) >> "$d/remarks.txt" 2>&1
  done
}

# ---- build, at most $jobs at once ----
t_start=$(date +%s)
build_all "$jobs" build_one "${programs[@]}"
t_built=$(date +%s)

# ---- run and compare, one program at a time (each uses NP ranks) ----
pass=0 fail=0
summary=()
for prog in "${programs[@]}"; do
  name=$(name_of "$prog")
  d=$work/$name
  mapfile -t srcs < <(sources_of "$prog")
  np=$(header_field NP "${srcs[@]}"); np=${np:-4}
  args=$(header_field ARGS "${srcs[@]}")
  status=$(cat "$d/build.status" 2>/dev/null || echo missing)
  expect_fallback=$(header_field FALLBACK "${srcs[@]}")
  note=""
  rewritten=$(grep -c 'remark: rewritten:' "$d/remarks.txt" 2>/dev/null)
  left=$(grep -c 'is left to the runtime' "$d/remarks.txt" 2>/dev/null)
  unchanged=$(grep -c 'is left unchanged' "$d/remarks.txt" 2>/dev/null)
  syms="-"
  verdict=""
  exe_dir=$d/tempi
  [ "$status" = fallback ] && exe_dir=$d/fallback
  if [ "$status" = ok ] || [ "$status" = fallback ]; then
    syms=$(nm "$exe_dir/exe" 2>/dev/null | awk '$1 == "U" && $2 ~ /^tempi_/ {print $2}' | sort -u | paste -sd, -)
    syms=${syms:--}
    # shellcheck disable=SC2086
    timeout "$run_timeout" "$mpiexec" -n "$np" "$d/ref/exe" $args > "$d/ref.out" 2> "$d/ref.err"
    ref_rc=$?
    # shellcheck disable=SC2086
    TEMPI_VERIFY_PLANS=${TEMPI_VERIFY_PLANS:-1} timeout "$run_timeout" "$mpiexec" -n "$np" "$exe_dir/exe" $args > "$d/tempi.out" 2> "$d/tempi.err"
    tempi_rc=$?
    if [ $ref_rc -ne 0 ]; then
      verdict="FAIL (reference run exit $ref_rc)"
    elif [ $tempi_rc -ne 0 ] && grep -q 'TEMPI_VERIFY_PLANS: .*does not describe' "$d/tempi.err"; then
      verdict="FAIL (tempi run exit $tempi_rc, wrong static plan: $(grep -m1 'TEMPI_VERIFY_PLANS: .*does not describe' "$d/tempi.err" | cut -c1-300))"
    elif [ $tempi_rc -ne 0 ]; then
      verdict="FAIL (tempi run exit $tempi_rc$([ $tempi_rc -eq 124 ] && echo ', timeout'))"
    elif ! diff -q "$d/ref.out" "$d/tempi.out" > /dev/null; then
      verdict="FAIL (output differs: $(diff "$d/ref.out" "$d/tempi.out" | grep -c '^[<>]') lines; first: $(diff "$d/ref.out" "$d/tempi.out" | grep -m1 '^>' | cut -c1-100))"
    elif [ "$status" = ok ] && [ ! -s "$d/ref/build.log" ] && [ -s "$d/tempi/build.log" ]; then
      # A build mpicc does quietly must stay quiet: tempi-cc adds no warning or message.
      verdict="FAIL (the mpicc build printed nothing, the tempi-cc build printed: $(head -1 "$d/tempi/build.log" | cut -c1-150))"
    else
      verdict="PASS"
    fi
    if [ "$status" = fallback ] && [ -n "$expect_fallback" ] && [ "$verdict" = PASS ]; then
      verdict="PASS"
      note="  (falls back as expected: $expect_fallback)"
    elif [ "$status" = fallback ]; then
      verdict="FAIL (--no-fallback build failed: $(grep -m1 'tempi-c[cx]*: error' "$d/tempi/build.log" | cut -c1-150); without it: ${verdict%% *})"
    elif [ -n "$expect_fallback" ]; then
      verdict="FAIL (marked FALLBACK ($expect_fallback) but the --no-fallback build worked: drop the mark)"
    fi
  elif [ "$status" = tempibuild ]; then
    verdict="FAIL (tempi-cc build, with and without --no-fallback: $(grep -m1 'tempi-c[cx]*: error' "$d/tempi/build.log" | cut -c1-150))"
  else
    verdict="FAIL (build status: $status)"
  fi
  case $verdict in PASS) pass=$((pass + 1));; *) fail=$((fail + 1));; esac
  line=$(printf '%-16s %-6s np=%s rewritten=%s left-to-runtime=%s unchanged=%s build=%ss entry=%s' \
    "$name" "${verdict%% *}" "$np" "$rewritten" "$left" "$unchanged" \
    "$(cat "$d/tempi/build.seconds" 2>/dev/null || echo '?')" "$syms")
  [ "$verdict" != PASS ] && line="$line  ${verdict#FAIL }"
  line="$line$note"
  summary+=("$line")
  echo "$line"
done
t_end=$(date +%s)

echo
echo "== remarks: datatypes left to the runtime / calls left unchanged =="
for prog in "${programs[@]}"; do
  name=$(name_of "$prog")
  grep -E 'is left to the runtime|is left unchanged' "$work/$name/remarks.txt" 2>/dev/null \
    | sed -E "s|^$CORPUS_ROOT/||; s| remark:||; s| \[-Rtempi\]$||"
done
echo
echo "== $pass passed, $fail failed; build $((t_built - t_start)) s, run $((t_end - t_built)) s, total $((t_end - t_start)) s; outputs in $work =="
[ $fail -eq 0 ]
