#!/usr/bin/env bash
# test/fuzz/build.sh OUTDIR: builds, with clang-22 and independently of the CMake build,
#   OUTDIR/fuzz_expr_text, fuzz_ir_text, fuzz_canonicalize  libFuzzer targets (ASan + UBSan)
#   OUTDIR/fuzz_decoder                                      libFuzzer target of runtime/mpitypes
#                                                            over MPICH (only when mpicc is found)
#   OUTDIR/sanitize_passes                                   every test/unit/passes/*_test.cpp in one
#                                                            GoogleTest binary under ASan + UBSan
#   OUTDIR/sanitize_oracle                                   tempi-check-types (test/oracle with
#                                                            runtime/mpitypes) under ASan + UBSan;
#                                                            only when mpicc is found (MPICH's own
#                                                            library is not instrumented)
# passes/*.cpp is compiled once (ASan, UBSan, fuzzer coverage) and linked into all four.
# UBSan findings are fatal (-fno-sanitize-recover=all), so a finding fails the run.
# Refuses (exit 2) when clang++-22 or libFuzzer (libclang_rt.fuzzer, from clang-22's compiler-rt)
# is missing. Environment: CXX (default clang++-22), JOBS (default 2).
set -euo pipefail
OUT=${1:?usage: test/fuzz/build.sh OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CXX=${CXX:-clang++-22}
JOBS=${JOBS:-2}
command -v "$CXX" >/dev/null || { echo "build.sh: $CXX not found" >&2; exit 2; }
RT=$("$CXX" -print-runtime-dir 2>/dev/null || true)
[ -f "$RT/libclang_rt.fuzzer.a" ] || [ -f "$RT/libclang_rt.fuzzer-x86_64.a" ] ||
  ls "$("$CXX" -print-resource-dir)"/lib/*/libclang_rt.fuzzer*.a >/dev/null 2>&1 ||
  { echo "build.sh: libFuzzer runtime not found for $CXX (install libclang-rt-22-dev)" >&2; exit 2; }

SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
FLAGS="-std=c++20 -O1 -g $SAN -I$ROOT -I$HERE"
mkdir -p "$OUT/obj"
# MPI: the compile and link flags of MPICH's mpicc wrapper (its first word is the compiler).
MPIFLAGS="" MPILIBS=""
if command -v mpicc >/dev/null && [ -d "$ROOT/runtime/mpitypes" ] && [ -d "$ROOT/test/oracle" ]; then
  MPIFLAGS="-DMPICH_SKIP_MPICXX -DOMPI_SKIP_MPICXX $(mpicc -show | tr ' ' '\n' | grep '^-I' | tr '\n' ' ')"
  MPILIBS=$(mpicc -show | tr ' ' '\n' | grep -E '^-(L|l|Wl)' | tr '\n' ' ')
fi
export CXX FLAGS OUT
# Incremental: an object is rebuilt when its source, build.sh or any header it may include
# (passes/, runtime/mpitypes/, test/oracle/, test/fuzz/) is newer than it.
NEWEST_HEADER=$(ls -t "$0" "$ROOT"/passes/*.h "$ROOT"/runtime/mpitypes/*.h "$ROOT"/test/oracle/*.h \
  "$HERE"/*.h 2>/dev/null | head -1 || true)
compile() { # src obj extra-flags
  if [ -f "$2" ] && [ "$2" -nt "$1" ] && [ "$2" -nt "$NEWEST_HEADER" ]; then return 0; fi
  "$CXX" $FLAGS $3 -c "$1" -o "$2"
}
export -f compile
export NEWEST_HEADER

# passes/ with fuzzer coverage; the unit tests without (they are not fuzzed).
{
  for s in "$ROOT"/passes/*.cpp; do
    printf '%s\0%s\0%s\0' "$s" "$OUT/obj/passes_$(basename "${s%.cpp}").o" "-fsanitize=fuzzer-no-link"
  done
  for s in "$HERE"/fuzz_*.cpp; do
    [ "$(basename "$s")" = fuzz_decoder.cpp ] && continue
    printf '%s\0%s\0%s\0' "$s" "$OUT/obj/$(basename "${s%.cpp}").o" "-fsanitize=fuzzer-no-link"
  done
  for s in "$ROOT"/test/unit/passes/*_test.cpp; do
    printf '%s\0%s\0%s\0' "$s" "$OUT/obj/unit_$(basename "${s%.cpp}").o" "-Wno-unused"
  done
  if [ -n "$MPIFLAGS" ]; then
    for s in "$ROOT"/runtime/mpitypes/*.cpp "$ROOT"/test/oracle/*.cpp; do
      printf '%s\0%s\0%s\0' "$s" "$OUT/obj/oracle_$(basename "${s%.cpp}").o" "$MPIFLAGS"
    done
    # The decoder target: runtime/mpitypes with fuzzer coverage, so the fuzzer is guided by it.
    for s in "$ROOT"/runtime/mpitypes/*.cpp "$HERE"/fuzz_decoder.cpp; do
      printf '%s\0%s\0%s\0' "$s" "$OUT/obj/fzmpi_$(basename "${s%.cpp}").o" \
        "-fsanitize=fuzzer-no-link $MPIFLAGS"
    done
  fi
} | xargs -0 -n 3 -P "$JOBS" bash -c 'compile "$0" "$1" "$2"'

PASSES=("$OUT"/obj/passes_*.o)
for s in "$HERE"/fuzz_*.cpp; do
  t=$(basename "${s%.cpp}")
  [ "$t" = fuzz_decoder ] && continue
  "$CXX" $FLAGS -fsanitize=fuzzer "$OUT/obj/$t.o" "${PASSES[@]}" -o "$OUT/$t"
done
"$CXX" $FLAGS "$OUT"/obj/unit_*.o "${PASSES[@]}" -lgtest -lgtest_main -pthread \
  -o "$OUT/sanitize_passes"
if [ -n "$MPIFLAGS" ]; then
  "$CXX" $FLAGS "$OUT"/obj/oracle_*.o "${PASSES[@]}" $MPILIBS -o "$OUT/sanitize_oracle"
  "$CXX" $FLAGS -fsanitize=fuzzer "$OUT"/obj/fzmpi_*.o "$OUT/obj/oracle_Checker.o" "${PASSES[@]}" \
    $MPILIBS -o "$OUT/fuzz_decoder"
fi
echo "build.sh: built $(ls "$OUT" | grep -c -E '^(fuzz_|sanitize_)') binaries in $OUT"
