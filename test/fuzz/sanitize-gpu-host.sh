#!/usr/bin/env bash
# test/fuzz/sanitize-gpu-host.sh SANBUILD [MAINBUILD]: the host tests of test/gpu (ctest label
# "unit": they run on every machine, GPU or not) under ASan + UBSan. sanitize-runtime.sh runs it.
#
# The main build compiles them with nvcc; the sanitizer build has no CUDA (sanitize-runtime.sh),
# so they are compiled here by hand, with the sanitizer build's flags:
#   kernel-index-host  KernelIndexHost.cu by nvcc, its host code through gcc with SAN
#                      (-Xcompiler), linked with SANBUILD's instrumented libtempi_passes.a;
#                      run as ctest runs it (1000 random shapes);
#   host-ranges        HostRanges.cpp and the device layer's HostRanges.cpp, Classify.cpp and
#                      Availability.cpp by g++ with SAN, linked with the CUDA runtime (without a
#                      GPU its device checks are skipped, as in the main build).
# A test of test/gpu labelled "unit" that this script does not know fails it, so a new host test
# cannot go unsanitized unnoticed. nvcc comes from MAINBUILD's CMakeCache (CMAKE_CUDA_COMPILER),
# else PATH, else /usr/local/cuda/bin; without one the script says SKIPPED and exits 0 (the main
# build cannot build these tests either).
# Environment: SAN, DBG (sanitize-runtime.sh passes its own), MPICXX (default mpicxx: its -I flags),
# SANITIZE_GPU_HOST_TESTS (default both; scripts/gpu-check runs host-ranges alone on the GPU
# machine, where its device checks run: SANBUILD then only needs to be a writable folder).
# Exit status: non-zero on a build failure, a failing test or a sanitizer report.
set -euo pipefail
SANBUILD=${1:?usage: test/fuzz/sanitize-gpu-host.sh SANBUILD [MAINBUILD]}
MAIN=${2:-}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SAN=${SAN:-"-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"}
DBG=${DBG:-"-O1 -g1"}
KNOWN="kernel-index-host host-ranges"
SELECTED=${SANITIZE_GPU_HOST_TESTS:-$KNOWN}
REPORT='ERROR: (Address|Leak)Sanitizer|runtime error:|AddressSanitizer:DEADLYSIGNAL'
P="sanitize-gpu-host"

# Every "unit" test of test/gpu must be one of KNOWN.
UNITS=$(sed -n 's/^ *set_tests_properties(\([A-Za-z0-9_-]*\) PROPERTIES LABELS "\([^"]*\)".*/\1 \2/p' \
  "$ROOT"/test/gpu/CMakeLists.txt "$ROOT"/test/gpu/*.cmake | awk '$2 ~ /(^|;)unit(;|$)/ {print $1}')
for t in $UNITS; do
  grep -qw -- "$t" <<<"$KNOWN" ||
    { echo "$P: test/gpu's host test $t is not compiled here: add it to this script"; exit 1; }
done

NVCC=""
[ -n "$MAIN" ] && [ -f "$MAIN/CMakeCache.txt" ] &&
  NVCC=$(sed -n 's/^CMAKE_CUDA_COMPILER:[A-Z]*=//p' "$MAIN/CMakeCache.txt")
[ -x "$NVCC" ] || NVCC=$(command -v nvcc || true)
[ -x "$NVCC" ] || NVCC=/usr/local/cuda/bin/nvcc
if [ ! -x "$NVCC" ]; then
  echo "$P: SKIPPED $KNOWN: no nvcc (the main build cannot build them either)"
  exit 0
fi
CUDA=$(cd "$(dirname "$NVCC")/.." && pwd)
CUDALIB=$CUDA/lib64
[ -d "$CUDALIB" ] || CUDALIB=$CUDA/lib
selected() { grep -qw -- "$1" <<<"$SELECTED"; }
PASSES=$SANBUILD/lib/libtempi_passes.a
if selected kernel-index-host && [ ! -f "$PASSES" ]; then
  echo "$P: no $PASSES (sanitize-runtime.sh builds it)"
  exit 1
fi
MPIINC=$("${MPICXX:-mpicxx}" -show | tr ' ' '\n' | grep '^-I' | tr '\n' ' ' || true)
# mpi.h without the MPIs' C++ bindings (Open MPI's need libmpi_cxx): nothing here uses them.
INC="-I$ROOT -I$ROOT/test -I$ROOT/runtime/include -I$CUDA/include $MPIINC -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX"
OUT=$SANBUILD/gpu-host
mkdir -p "$OUT"
# nvcc hands -Xcompiler's comma-separated list to gcc for the host code: the same flags, each
# -fsanitize=a,b written as -fsanitize=a,-fsanitize=b so that its commas survive.
XSAN=""
for f in $DBG $SAN; do
  case $f in
  -f*=*,*) for v in $(tr ',' ' ' <<<"${f#*=}"); do XSAN="$XSAN,${f%%=*}=$v"; done ;;
  *) XSAN="$XSAN,$f" ;;
  esac
done
XSAN=${XSAN#,}
LINK="-L$CUDALIB -Wl,-rpath,$CUDALIB -lcudart"

build() { # NAME COMMAND...: runs the build command, log in OUT/NAME.build.log
  local name=$1
  shift
  "$@" >"$OUT/$name.build.log" 2>&1 ||
    { tail -30 "$OUT/$name.build.log"; echo "$P: $name: build FAILED"; exit 1; }
}
INSTRUMENTED=""
if selected kernel-index-host; then
  # shellcheck disable=SC2086
  build kernel-index-host-obj "$NVCC" -std=c++20 -Xcompiler="$XSAN" $INC \
    -c "$ROOT/test/gpu/KernelIndexHost.cu" -o "$OUT/KernelIndexHost.o"
  # shellcheck disable=SC2086
  build kernel-index-host g++ $SAN "$OUT/KernelIndexHost.o" "$PASSES" $LINK -o "$OUT/kernel-index-host"
  INSTRUMENTED="$OUT/KernelIndexHost.o"
fi
if selected host-ranges; then
  DEV=$ROOT/runtime/src/device
  # shellcheck disable=SC2086
  build host-ranges g++ -std=gnu++20 $DBG $SAN $INC "$ROOT/test/gpu/HostRanges.cpp" \
    "$DEV/HostRanges.cpp" "$DEV/Classify.cpp" "$DEV/Availability.cpp" $LINK -pthread -o "$OUT/host-ranges"
  INSTRUMENTED="$INSTRUMENTED $OUT/host-ranges"
fi

# The instrumented code must really be there: an object without ASan's calls would pass silently.
for f in $INSTRUMENTED; do
  syms=$(nm "$f") # not nm | grep -q: grep's early exit would fail nm, and the pipe (pipefail)
  grep -q '__asan_report' <<<"$syms" || { echo "$P: $f has no ASan instrumentation"; exit 1; }
done

status=0
run() { # NAME ARGS...: runs OUT/NAME, log in OUT/NAME.log; fails on exit status or a report
  local name=$1
  shift
  if ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
       "$OUT/$name" "$@" >"$OUT/$name.log" 2>&1 && ! grep -qE "$REPORT" "$OUT/$name.log"; then
    echo "$P: $name: $(tail -1 "$OUT/$name.log")"
  else
    tail -40 "$OUT/$name.log"
    echo "$P: $name FAILED (log $OUT/$name.log)"
    status=1
  fi
}
# No CUDA context is made without a GPU; with one, ASan must leave the address range the CUDA
# driver reserves alone (protect_shadow_gap=0, NVIDIA's advice for ASan with CUDA). host-ranges
# checks that a local array is on the thread's stack: ASan's fake stacks (use-after-return
# detection, on by default in newer libasan, e.g. gcc 13's on the GPU machine) would move it to
# the heap.
selected kernel-index-host && ASAN_OPTIONS=detect_leaks=1:protect_shadow_gap=0 run kernel-index-host 1000
selected host-ranges &&
  ASAN_OPTIONS=detect_leaks=1:protect_shadow_gap=0:detect_stack_use_after_return=0 run host-ranges
exit $status
