#!/usr/bin/env bash
# test/fuzz/sanitize-corpus.sh SANBUILD MAINBUILD: the programs corpus (test/programs) under
# ASan + UBSan, against the sanitizer build's libtempi. Called by sanitize-runtime.sh (which has
# built SANBUILD/lib/libtempi.so with the flags below); it can also be run on its own.
#
# For each program of the corpus (a .c/.cpp file, or a folder of them forming one program; the
# header fields NP, ARGS, CFLAGS and FALLBACK as test/programs/run-corpus.sh reads them):
#   1. reference: every source compiled by mpicc/mpicxx (MPICC, MPICXX) with DBG SAN CFLAGS, one
#      -c per source from its own folder, then linked (-lm), as run-corpus.sh builds it;
#   2. tempi: the sources the main build's tempi-cc rewrites. `tempi-cc -show` with
#      TEMPI_KEEP_TEMPS=1 runs tempi-rewrite exactly as a real tempi-cc compile does (prescan,
#      flags, the OpenMP header folder) and keeps the rewritten copy in its temporary folder; that
#      copy is compiled by the wrapper with the same flags plus -I runtime/include, from standard
#      input in the source's folder as tempi-cc compiles it (the generated GPU kernels are not
#      built: this libtempi has no device layer, and host buffers never use them). A source the
#      tool leaves alone (nothing to rewrite, or a FALLBACK program's parse failure) is compiled
#      unchanged. Every tempi executable is linked against SANBUILD's libtempi before the MPI
#      (-L -rpath -ltempi), rewritten or not, so the runtime tier's interposed calls run too;
#   3. both run with mpiexec -n NP ARGS (MPIEXEC; CORPUS_TIMEOUT seconds each, default 120):
#      stdout and exit codes must be identical and neither run's stderr may hold a sanitizer report.
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
SAN=${SAN:-"-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"}
DBG=${DBG:-"-O1 -g1"}
JOBS=${JOBS:-2}
RUN_TIMEOUT=${CORPUS_TIMEOUT:-120}
MPICC=${MPICC:-mpicc} MPICXX=${MPICXX:-mpicxx} MPIEXEC=${MPIEXEC:-mpiexec}
export UCX_MEM_MMAP_HOOK_MODE=${UCX_MEM_MMAP_HOOK_MODE:-none}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TEMPI_CACHE_DIR=off TEMPI_KEEP_TEMPS=1 TEMPI_MPICC=$MPICC TEMPI_MPICXX=$MPICXX
WORK=$SANBUILD/corpus
REPORT='ERROR: (Address|Leak)Sanitizer|runtime error:|AddressSanitizer:DEADLYSIGNAL'
t0=$SECONDS

for tool in "$MAIN/bin/tempi-cc" "$MAIN/bin/tempi-rewrite"; do
  if [ ! -x "$tool" ]; then
    echo "sanitize-corpus: SKIPPED the programs corpus: no $tool (main build without the Clang tools)"
    exit 0
  fi
done
[ -f "$SANBUILD/lib/libtempi.so" ] ||
  { echo "sanitize-corpus: no $SANBUILD/lib/libtempi.so (run sanitize-runtime.sh)"; exit 1; }
mkdir -p "$WORK"

# run-corpus.sh's reading of the folder and of the header fields.
CORPUS_ROOT=$CORPUS
# shellcheck source=../programs/corpus-lib.sh
. "$ROOT/test/programs/corpus-lib.sh"

# OpenMP with the sanitizers (gcc's libgomp is not instrumented, which ASan and UBSan allow).
OPENMP_OK=0
printf '#include <omp.h>\nint main(void){int s=0;\n#pragma omp parallel reduction(+:s)\ns+=omp_get_thread_num()>=0;\nreturn s<1;}\n' \
  >"$WORK/openmp-probe.c"
# shellcheck disable=SC2086
"$MPICC" $DBG $SAN -fopenmp "$WORK/openmp-probe.c" -o "$WORK/openmp-probe" >"$WORK/openmp-probe.log" 2>&1 &&
  "$WORK/openmp-probe" >>"$WORK/openmp-probe.log" 2>&1 && OPENMP_OK=1

mapfile -t programs < <(corpus_programs)

# build_one PROG: WORK/NAME/{ref,tempi}/exe, NAME/build.status (ok | refbuild | tempibuild | skip:
# why), NAME/rewritten (how many of its sources the tool rewrote), logs in NAME/*/build.log.
build_one() {
  local prog=$1 name d srcs srcdir cflags lang cc tcc s b o n=0 i=0 rw
  name=$(name_of "$prog")
  d=$WORK/$name
  rm -rf "$d" && mkdir -p "$d/ref" "$d/tempi"
  mapfile -t srcs < <(sources_of "$prog")
  srcdir=$(dirname "${srcs[0]}")
  # -Wno-stringop-overflow: GCC misreads MPICH's MPI_STATUSES_IGNORE (a null array) as a 0-byte
  # region under the sanitizers (as in rewrite_tests.cmake); a corpus program builds with -Werror.
  cflags="$DBG $SAN -Wno-stringop-overflow $(header_field CFLAGS "${srcs[@]}")"
  lang=c cc=$MPICC tcc=$MAIN/bin/tempi-cc
  if printf '%s\n' "${srcs[@]}" | grep -q '\.cpp$'; then lang=c++ cc=$MPICXX tcc=$MAIN/bin/tempi-cxx; fi
  # What this toolchain cannot build under the sanitizers is skipped (one line says so). The
  # corpus holds C and C++ only (its Fortran-order program is C); OpenMP needs the probe below.
  case " $cflags " in *" -fopenmp "*)
    [ "$OPENMP_OK" = 1 ] ||
      { echo "skip: -fopenmp does not build with $SAN here ($WORK/openmp-probe.log)" >"$d/build.status"; return; } ;;
  esac
  for s in "${srcs[@]}"; do
    b=$(basename "$s") o=$(basename "${s%.*}").o
    # shellcheck disable=SC2086
    (cd "$srcdir" && "$cc" $cflags -c "$b" -o "$d/ref/$o") >>"$d/ref/build.log" 2>&1 ||
      { echo refbuild >"$d/build.status"; return; }
    i=$((i + 1))
    mkdir -p "$d/tmp/$i"
    # shellcheck disable=SC2086
    (cd "$srcdir" && TMPDIR=$d/tmp/$i "$tcc" -show $cflags -c "$b" -o "$d/tempi/$o") \
      >>"$d/tempi/show.log" 2>&1
    rw=$(find "$d/tmp/$i" -mindepth 3 -maxdepth 3 -path "*/tempi-cc.*/*" -name "$b" | head -1)
    if [ -n "$rw" ]; then
      n=$((n + 1))
      # shellcheck disable=SC2086
      (cd "$srcdir" && "$cc" $cflags -c -x "$lang" - -o "$d/tempi/$o" -I"$ROOT/runtime/include" <"$rw") \
        >>"$d/tempi/build.log" 2>&1 || { echo tempibuild >"$d/build.status"; return; }
    else
      # shellcheck disable=SC2086
      (cd "$srcdir" && "$cc" $cflags -c "$b" -o "$d/tempi/$o") >>"$d/tempi/build.log" 2>&1 ||
        { echo tempibuild >"$d/build.status"; return; }
    fi
  done
  echo "$n" >"$d/rewritten"
  # shellcheck disable=SC2086
  (cd "$srcdir" && "$cc" $cflags "$d"/ref/*.o -o "$d/ref/exe" -lm) >>"$d/ref/build.log" 2>&1 ||
    { echo refbuild >"$d/build.status"; return; }
  # shellcheck disable=SC2086
  (cd "$srcdir" && "$cc" $cflags "$d"/tempi/*.o -o "$d/tempi/exe" \
    -L"$SANBUILD/lib" -Wl,-rpath,"$SANBUILD/lib" -ltempi -lm) >>"$d/tempi/build.log" 2>&1 ||
    { echo tempibuild >"$d/build.status"; return; }
  echo ok >"$d/build.status"
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
      log=$d/ref/build.log; [ "$st" = tempibuild ] && log=$d/tempi/build.log
      tail -30 "$log" 2>/dev/null
      echo "sanitize-corpus: $name FAILED: build ($st; log $log)"; nfail=$((nfail + 1)); continue ;;
  esac
  nrun=$((nrun + 1))
  rw=$(cat "$d/rewritten"); nrw=$((nrw + rw))
  # Run from the work folder: a program that writes files must not write them into the tree.
  # shellcheck disable=SC2086
  (cd "$d" && timeout "$RUN_TIMEOUT" "$MPIEXEC" -n "$np" "$d/ref/exe" $args) \
    >"$d/ref.out" 2>"$d/ref.err" </dev/null
  ref_rc=$?
  # shellcheck disable=SC2086
  (cd "$d" && timeout "$RUN_TIMEOUT" "$MPIEXEC" -n "$np" "$d/tempi/exe" $args) \
    >"$d/tempi.out" 2>"$d/tempi.err" </dev/null
  tempi_rc=$?
  why=""
  if grep -qE "$REPORT" "$d/ref.err"; then
    why="sanitizer report in the reference (mpicc) build, a bug of the program itself ($d/ref.err)"
    grep -E -A25 "$REPORT" "$d/ref.err" | head -40
  elif grep -qE "$REPORT" "$d/tempi.err"; then
    why="sanitizer report in the tempi build only ($d/tempi.err)"
    grep -E -A25 "$REPORT" "$d/tempi.err" | head -40
  elif [ $ref_rc -ne 0 ]; then
    why="reference run exit $ref_rc ($d/ref.err)"; tail -20 "$d/ref.err"
  elif [ $tempi_rc -ne 0 ]; then
    why="tempi run exit $tempi_rc$([ $tempi_rc -eq 124 ] && echo ', timeout') ($d/tempi.err)"
    tail -20 "$d/tempi.err"
  elif ! cmp -s "$d/ref.out" "$d/tempi.out"; then
    why="output differs from the reference ($(diff "$d/ref.out" "$d/tempi.out" | grep -c '^[<>]') lines; first: $(diff "$d/ref.out" "$d/tempi.out" | grep -m1 '^[<>]' | cut -c1-100))"
  fi
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
