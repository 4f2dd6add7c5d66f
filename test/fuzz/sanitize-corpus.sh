#!/usr/bin/env bash
# test/fuzz/sanitize-corpus.sh SANBUILD MAINBUILD: the programs corpus (test/programs) under
# ASan + UBSan, against the sanitizer build's libtempi. Called by sanitize-runtime.sh (which has
# built SANBUILD/lib/libtempi.so with the flags below); it can also be run on its own.
#
# For each program of the corpus (a .c/.cpp file, or a folder of them forming one program; the
# header fields NP, ARGS, CFLAGS and FALLBACK as test/programs/run-corpus.sh reads them):
#   1. reference: every source compiled by mpicc/mpicxx (MPICC, MPICXX) with DBG SAN CFLAGS, one
#      -c per source from its own folder, then linked (-lm), as run-corpus.sh builds it;
#   2. tempi: the sources the main build's tempi-cc rewrites (san_compile_pair, sanitize-lib.sh:
#      `tempi-cc -show` with TEMPI_KEEP_TEMPS=1 runs tempi-rewrite as a real tempi-cc compile
#      does and keeps its copy; a copy that differs from the source is compiled by the wrapper
#      with the same flags plus -I runtime/include, from standard input in the source's folder as
#      tempi-cc compiles it; the generated GPU kernels are not built: this libtempi has no device
#      layer, and host buffers never use them). A source the tool leaves alone (nothing to
#      rewrite, or a FALLBACK program's parse failure) is compiled unchanged and not counted as
#      rewritten. Every tempi executable is linked against SANBUILD's libtempi before the MPI
#      (-L -rpath -ltempi), rewritten or not, so the runtime tier's interposed calls run too;
#   3. both run with mpiexec -n NP ARGS (MPIEXEC; CORPUS_TIMEOUT seconds each, default 120;
#      san_run_pair, san_verdict): stdout and exit codes must be identical and neither run's
#      stderr may hold a sanitizer report.
# Prints one line per program and a summary line; exit status non-zero when any program fails to
# build, fails, differs or has a report (the line names it and the log). Nothing is skipped
# unless it cannot be built by this toolchain (a line says so); SKIPPED (exit 0) when MAINBUILD
# has no tempi-cc / tempi-rewrite (built without the Clang tools).
# Environment: SAN, DBG (the flags; defaults those of sanitize-runtime.sh), CORPUS_DIR (default
# test/programs; failure-injection runs point it at a scratch copy), JOBS (programs built at once,
# default 2), UCX_MEM_MMAP_HOOK_MODE and ASAN_OPTIONS (default none and detect_leaks=0, as
# sanitize-runtime.sh sets them for MPI programs: MPICH/UCX, not TEMPI, need both).
set -uo pipefail
SANBUILD=${1:?usage: test/fuzz/sanitize-corpus.sh SANBUILD MAINBUILD}
MAIN=${2:?usage: test/fuzz/sanitize-corpus.sh SANBUILD MAINBUILD}
mkdir -p "$SANBUILD" && SANBUILD=$(cd "$SANBUILD" && pwd) && MAIN=$(cd "$MAIN" && pwd) || exit 1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CORPUS=$(cd "${CORPUS_DIR:-$ROOT/test/programs}" && pwd)
RUN_TIMEOUT=${CORPUS_TIMEOUT:-120}
WORK=$SANBUILD/corpus
# shellcheck source=sanitize-lib.sh
. "$ROOT/test/fuzz/sanitize-lib.sh"
san_init
san_have_tools "the programs corpus" sanitize-corpus || exit 0
t0=$SECONDS
mkdir -p "$WORK"

# run-corpus.sh's reading of the folder and of the header fields (corpus-lib.sh, sourced above).
CORPUS_ROOT=$CORPUS

# OpenMP with the sanitizers (gcc's libgomp is not instrumented, which ASan and UBSan allow).
OPENMP_OK=0
printf '#include <omp.h>\nint main(void){int s=0;\n#pragma omp parallel reduction(+:s)\ns+=omp_get_thread_num()>=0;\nreturn s<1;}\n' \
  >"$WORK/openmp-probe.c"
# shellcheck disable=SC2086
"$MPICC" $DBG $SAN -fopenmp "$WORK/openmp-probe.c" -o "$WORK/openmp-probe" >"$WORK/openmp-probe.log" 2>&1 &&
  "$WORK/openmp-probe" >>"$WORK/openmp-probe.log" 2>&1 && OPENMP_OK=1

mapfile -t programs < <(corpus_programs)

# build_one PROG: WORK/NAME/{ref,tempi}/exe, NAME/build.status (ok | refbuild | tempibuild | skip:
# why), NAME/rewritten (the names of the sources the tool rewrote), logs in NAME/*/build.log.
build_one() {
  local prog=$1 name d srcs cflags lang=c s rc
  name=$(name_of "$prog")
  d=$WORK/$name
  rm -rf "$d" && mkdir -p "$d"
  mapfile -t srcs < <(sources_of "$prog")
  # -Wno-stringop-overflow: GCC misreads MPICH's MPI_STATUSES_IGNORE (a null array) as a 0-byte
  # region under the sanitizers (as in rewrite_tests.cmake); a corpus program builds with -Werror.
  # shellcheck disable=SC2206,SC2207 # the flags are words
  cflags=($DBG $SAN -Wno-stringop-overflow $(header_field CFLAGS "${srcs[@]}"))
  printf '%s\n' "${srcs[@]}" | grep -q '\.cpp$' && lang=c++
  # What this toolchain cannot build under the sanitizers is skipped (one line says so). The
  # corpus holds C and C++ only (its Fortran-order program is C); OpenMP needs the probe below.
  case " ${cflags[*]} " in *" -fopenmp "*)
    [ "$OPENMP_OK" = 1 ] ||
      { echo "skip: -fopenmp does not build with $SAN here ($WORK/openmp-probe.log)" >"$d/build.status"; return; } ;;
  esac
  for s in "${srcs[@]}"; do
    san_compile_pair "$d" "$s" "$lang" "${cflags[@]}"; rc=$?
    [ $rc = 0 ] || break
  done
  [ $rc = 0 ] && { san_link_pair "$d" "$lang" "$(dirname "${srcs[0]}")" "${cflags[@]}" -lm; rc=$?; }
  san_build_status $rc >"$d/build.status"
}

build_all "$JOBS" build_one "${programs[@]}"
t1=$SECONDS

nrun=0 nfail=0 nskip=0 nrw=0
for prog in "${programs[@]}"; do
  name=$(name_of "$prog")
  d=$WORK/$name
  mapfile -t srcs < <(sources_of "$prog")
  np=$(header_field NP "${srcs[@]}"); np=${np:-4}
  args=$(header_field ARGS "${srcs[@]}")
  fb=$(header_field FALLBACK "${srcs[@]}")
  st=$(cat "$d/build.status" 2>/dev/null || echo missing)
  case $st in
    skip:*) echo "sanitize-corpus: SKIPPED $name: ${st#skip: }"; nskip=$((nskip + 1)); continue ;;
    ok) ;;
    *)
      log=$(san_build_log "$d" "$st")
      tail -30 "$log" 2>/dev/null
      echo "sanitize-corpus: $name FAILED: build ($st; log $log)"; nfail=$((nfail + 1)); continue ;;
  esac
  nrun=$((nrun + 1))
  rw=$(san_rewritten "$d"); nrw=$((nrw + rw))
  # shellcheck disable=SC2086
  san_run_pair "$d" run "$RUN_TIMEOUT" "$np" $args
  san_verdict "$d/run" out
  why=$WHY
  note="np=$np, $rw of ${#srcs[@]} source(s) rewritten"
  [ -n "$fb" ] && note="$note; FALLBACK: $fb"
  if [ -n "$why" ]; then
    echo "sanitize-corpus: $name FAILED ($note): $why"; nfail=$((nfail + 1))
  else
    echo "sanitize-corpus: $name ok ($note)"
  fi
done
echo "sanitize-corpus: programs corpus: $nrun run, $nskip skipped, $nfail failed, $nrw sources" \
  "rewritten; build $((t1 - t0)) s, run $((SECONDS - t1)) s"
[ "$nfail" -eq 0 ]
