# shellcheck shell=bash
# test/fuzz/sanitize-lib.sh: what sanitize-corpus.sh and sanitize-examples.sh share, sourced by
# both: build a program twice under ASan + UBSan (the unmodified sources, and the sources the main
# build's tempi-cc rewrites, linked against the sanitizer build's libtempi), run both builds with
# mpiexec, and judge the pair. Sourcing it also brings test/programs/corpus-lib.sh (build_all).
#
# The caller sets SANBUILD and MAIN (absolute) and ROOT, then calls san_init. Work folders (D
# below) hold ref/ (the unmodified build) and tempi/ (the tempi-cc build), their build logs, the
# temporary folders tempi-cc -show kept (D/tmp), and each run's stdout, stderr and exit code.

# shellcheck source=../programs/corpus-lib.sh
. "$ROOT/test/programs/corpus-lib.sh"

# san_init: the flags, tools and environment (defaults those of sanitize-runtime.sh, which passes
# SAN and DBG). UCX's mmap hooks and leak detection are off for MPI programs (MPICH/UCX, not
# TEMPI, need both: sanitize-runtime.sh's header).
san_init() {
  SAN=${SAN:-"-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"}
  DBG=${DBG:-"-O1 -g1"}
  JOBS=${JOBS:-2}
  MPICC=${MPICC:-mpicc} MPICXX=${MPICXX:-mpicxx} MPIEXEC=${MPIEXEC:-mpiexec}
  export UCX_MEM_MMAP_HOOK_MODE=${UCX_MEM_MMAP_HOOK_MODE:-none}
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  export TEMPI_CACHE_DIR=off TEMPI_KEEP_TEMPS=1 TEMPI_MPICC=$MPICC TEMPI_MPICXX=$MPICXX
  SAN_REPORT='ERROR: (Address|Leak)Sanitizer|runtime error:|AddressSanitizer:DEADLYSIGNAL'
}

# san_have_tools WHAT PREFIX: true when MAIN has tempi-cc and tempi-rewrite; otherwise prints
# "PREFIX: SKIPPED WHAT: ..." and is false. Then checks SANBUILD's libtempi (exit 1 if missing).
san_have_tools() {
  local tool
  for tool in "$MAIN/bin/tempi-cc" "$MAIN/bin/tempi-rewrite"; do
    if [ ! -x "$tool" ]; then
      echo "$2: SKIPPED $1: no $tool (main build without the Clang tools)"
      return 1
    fi
  done
  [ -f "$SANBUILD/lib/libtempi.so" ] ||
    { echo "$2: no $SANBUILD/lib/libtempi.so (run sanitize-runtime.sh)"; exit 1; }
}

# san_compile_pair D SRC LANG FLAGS...: compiles SRC (absolute) with -c from its own folder, as
# the build would, into D/ref/ (MPICC or MPICXX) and D/tempi/. For the latter, `tempi-cc -show`
# (tempi-cxx for c++) with TEMPI_KEEP_TEMPS runs tempi-rewrite exactly as a real tempi-cc compile
# does (prescan, flags, the OpenMP header folder) and keeps the tool's copy in its temporary
# folder (D/tmp/N); a copy that differs from SRC is compiled by the wrapper with the same flags
# plus -I runtime/include, from standard input in SRC's folder as tempi-cc compiles it, and its
# name is added to D/rewritten. A source the tool leaves alone (nothing to rewrite, a fallback) is
# compiled unchanged. The generated GPU kernels (SRC.tempi.cu) are not built: this libtempi has no
# device layer, and host buffers never use them. Logs: D/{ref,tempi}/build.log, D/tempi/show.log.
# Status: 0, or 1 (reference build failed), or 2 (tempi build failed).
san_compile_pair() {
  local d=$1 src=$2 lang=$3 cc=$MPICC tcc=$MAIN/bin/tempi-cc b o tmp rw
  shift 3
  [ "$lang" = c ] || cc=$MPICXX tcc=$MAIN/bin/tempi-cxx
  b=$(basename "$src") o=$(basename "${src%.*}").o
  mkdir -p "$d/ref" "$d/tempi" "$d/tmp"
  (cd "$(dirname "$src")" && "$cc" "$@" -c "$b" -o "$d/ref/$o") >>"$d/ref/build.log" 2>&1 || return 1
  tmp=$(mktemp -d "$d/tmp/XXXX") || return 2
  (cd "$(dirname "$src")" && TMPDIR=$tmp "$tcc" -show "$@" -c "$b" -o "$d/tempi/$o") \
    >>"$d/tempi/show.log" 2>&1
  rw=$(find "$tmp" -mindepth 3 -maxdepth 3 -path "*/tempi-cc.*/*" -name "$b" | head -1)
  if [ -n "$rw" ] && ! cmp -s "$rw" "$src"; then
    echo "$b" >>"$d/rewritten"
    (cd "$(dirname "$src")" && "$cc" "$@" -c -x "$lang" - -o "$d/tempi/$o" -I"$ROOT/runtime/include" <"$rw") \
      >>"$d/tempi/build.log" 2>&1 || return 2
  else
    (cd "$(dirname "$src")" && "$cc" "$@" -c "$b" -o "$d/tempi/$o") >>"$d/tempi/build.log" 2>&1 || return 2
  fi
}

# san_link_pair D LANG DIR FLAGS...: links D/ref/*.o into D/ref/exe and D/tempi/*.o into
# D/tempi/exe, from DIR, with FLAGS (the compile flags, then the libraries). Every tempi
# executable is linked against SANBUILD's libtempi before the MPI (the wrapper appends it), rewritten
# or not, so the runtime tier's interposed calls run too. Status as san_compile_pair's.
san_link_pair() {
  local d=$1 cc=$MPICC dir=$3
  [ "$2" = c ] || cc=$MPICXX
  shift 3
  (cd "$dir" && "$cc" "$d"/ref/*.o -o "$d/ref/exe" "$@") >>"$d/ref/build.log" 2>&1 || return 1
  (cd "$dir" && "$cc" "$d"/tempi/*.o -o "$d/tempi/exe" -L"$SANBUILD/lib" -Wl,-rpath,"$SANBUILD/lib" \
    -ltempi "$@") >>"$d/tempi/build.log" 2>&1 || return 2
}

# san_build_status RC: the word a program's build.status holds for RC, the status of
# san_compile_pair or san_link_pair: ok, refbuild (the reference failed) or tempibuild.
san_build_status() { case $1 in 0) echo ok ;; 1) echo refbuild ;; *) echo tempibuild ;; esac; }
# san_build_log D STATUS: the log of D's build that STATUS (refbuild | tempibuild) failed.
san_build_log() { if [ "$2" = tempibuild ]; then echo "$1/tempi/build.log"; else echo "$1/ref/build.log"; fi; }

# san_rewritten D: how many of D's sources the tool rewrote (their names in D/rewritten).
san_rewritten() { if [ -f "$1/rewritten" ]; then grep -c . "$1/rewritten"; else echo 0; fi; }

# san_run_pair D OUT TIMEOUT NP ARGS...: runs D/ref/exe and D/tempi/exe with mpiexec -n NP ARGS
# from D (a program that writes files must not write them into the tree), each at most TIMEOUT
# seconds: D/OUT/{ref,tempi}.{out,err,rc}. The tempi run checks every static plan against the
# MPI's MPI_Pack as run-corpus.sh does (TEMPI_VERIFY_PLANS, default 1), under the sanitizers too.
san_run_pair() {
  local d=$1 out=$1/$2 limit=$3 np=$4 which
  shift 4
  mkdir -p "$out"
  for which in ref tempi; do
    (cd "$d" && TEMPI_VERIFY_PLANS="${TEMPI_VERIFY_PLANS:-1}" \
       timeout "$limit" "$MPIEXEC" -n "$np" "$d/$which/exe" "$@") \
      >"$out/$which.out" 2>"$out/$which.err" </dev/null
    echo $? >"$out/$which.rc"
  done
}

# san_verdict OUT EXT: sets WHY to why the pair of runs in OUT failed, empty when it did not: a
# sanitizer report in either run's stderr (in the reference: a bug of the program itself), a
# non-zero exit, or OUT/ref.EXT and OUT/tempi.EXT differing (EXT: out, or the caller's reduction
# of it to what can be compared). Prints the report or the failing stderr's end.
# shellcheck disable=SC2034 # WHY is the caller's
san_verdict() {
  local out=$1 ext=$2 rrc trc
  rrc=$(cat "$out/ref.rc") trc=$(cat "$out/tempi.rc")
  WHY=""
  if grep -qE "$SAN_REPORT" "$out/ref.err"; then
    WHY="sanitizer report in the reference (mpicc) build, a bug of the program itself ($out/ref.err)"
    grep -E -A25 "$SAN_REPORT" "$out/ref.err" | head -40
  elif grep -qE "$SAN_REPORT" "$out/tempi.err"; then
    WHY="sanitizer report in the tempi build only ($out/tempi.err)"
    grep -E -A25 "$SAN_REPORT" "$out/tempi.err" | head -40
  elif [ "$rrc" -ne 0 ]; then
    WHY="reference run exit $rrc ($out/ref.err)"; tail -20 "$out/ref.err"
  elif [ "$trc" -ne 0 ]; then
    WHY="tempi run exit $trc$([ "$trc" -eq 124 ] && echo ', timeout') ($out/tempi.err)"
    tail -20 "$out/tempi.err"
  elif ! cmp -s "$out/ref.$ext" "$out/tempi.$ext"; then
    WHY="output differs from the reference ($(diff "$out/ref.$ext" "$out/tempi.$ext" | grep -c '^[<>]') lines; first: $(diff "$out/ref.$ext" "$out/tempi.$ext" | grep -m1 '^[<>]' | cut -c1-100))"
  fi
}
