#!/usr/bin/env bash
# test/fuzz/build.sh OUTDIR: builds, with clang-22 and independently of the CMake build,
#   OUTDIR/fuzz_expr_text, fuzz_ir_text, fuzz_canonicalize  libFuzzer targets (ASan + UBSan)
#   OUTDIR/fuzz_decoder                                      libFuzzer target of runtime/mpitypes
#                                                            over MPICH (only when mpicc is found)
#   OUTDIR/fuzz_frontend                                     libFuzzer target of the Clang front end
#                                                            (tool/clang, tool/codegen, instrumented)
#                                                            over the installed LLVM/Clang 22 libraries
#                                                            (not instrumented); only when they are found
#   OUTDIR/sanitize_passes                                   every test/unit/passes/*_test.cpp in one
#                                                            GoogleTest binary under ASan + UBSan
#   OUTDIR/sanitize_oracle                                   tempi-check-types (test/oracle with
#                                                            runtime/mpitypes) under ASan + UBSan;
#                                                            only when mpicc is found (MPICH's own
#                                                            library is not instrumented)
# passes/*.cpp is compiled once (ASan, UBSan, fuzzer coverage) and linked into all four.
# UBSan findings are fatal (-fno-sanitize-recover=all), so a finding fails the run.
# Refuses (exit 2) when clang++-22 or libFuzzer (libclang_rt.fuzzer, from clang-22's compiler-rt)
# is missing; skips fuzz_frontend, saying why, when LLVM_CONFIG, its headers or libclang-cpp are
# missing. Environment: CXX (default clang++-22), JOBS (default 2), LLVM_CONFIG (default
# llvm-config-22; the LLVM/Clang 22 install whose libraries fuzz_frontend links).
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
# The front end (fuzz_frontend): LLVM/Clang 22's headers and shared libraries, as
# tool/clang/CMakeLists.txt takes them (LLVM_DEFINITIONS, clang-cpp and LLVM).
LLVM_CONFIG=${LLVM_CONFIG:-llvm-config-22}
FEFLAGS="" FELIBS="" FEWHY=""
if ! command -v "$LLVM_CONFIG" >/dev/null; then
  FEWHY="$LLVM_CONFIG not found"
elif [ "$("$LLVM_CONFIG" --version | cut -d. -f1)" != 22 ]; then
  FEWHY="$LLVM_CONFIG is LLVM $("$LLVM_CONFIG" --version), not 22"
else
  LLVM_LIBDIR=$("$LLVM_CONFIG" --libdir)
  LLVM_INC=$("$LLVM_CONFIG" --includedir)
  CLANG_CPP=$(ls "$LLVM_LIBDIR"/libclang-cpp.so "$LLVM_LIBDIR"/libclang-cpp.so.* 2>/dev/null | head -1 || true)
  if [ ! -f "$LLVM_INC/clang/Tooling/Tooling.h" ]; then
    FEWHY="no Clang headers in $LLVM_INC (install libclang-22-dev)"
  elif [ -z "$CLANG_CPP" ]; then
    FEWHY="no libclang-cpp.so in $LLVM_LIBDIR (install libclang-22-dev)"
  else
    RES=$("$("$LLVM_CONFIG" --bindir)/clang" -print-resource-dir 2>/dev/null || "$CXX" -print-resource-dir)
    # -isystem instead of -I, and the -D of llvm-config --cppflags (LLVM_DEFINITIONS).
    FEFLAGS="-isystem $LLVM_INC $("$LLVM_CONFIG" --cppflags | tr ' ' '\n' | grep '^-D' | tr '\n' ' ')"
    FEFLAGS="$FEFLAGS -DTEMPI_RESOURCE_DIR=\"$RES\" -DTEMPI_CUDA_PATH=\"/usr/local/cuda\""
    FEFLAGS="$FEFLAGS -DTEMPI_VERSION=\"fuzz\" -DTEMPI_SOURCE_DIR=\"$ROOT\" -fsanitize=fuzzer-no-link"
    FEFLAGS="$FEFLAGS -gline-tables-only" # enough for stack traces; full -g doubles the time
    FELIBS="$CLANG_CPP $("$LLVM_CONFIG" --link-shared --libs) -L$LLVM_LIBDIR -Wl,-rpath,$LLVM_LIBDIR"
  fi
fi
[ -n "$FEWHY" ] && echo "build.sh: fuzz_frontend not built: $FEWHY" >&2

export CXX FLAGS OUT
# Incremental: an object is rebuilt when its source, build.sh or any header it may include
# (passes/, runtime/mpitypes/, test/oracle/, test/fuzz/; for the front end's objects also
# tool/clang/ and tool/codegen/) is newer than it.
NEWEST_HEADER=$(ls -t "$0" "$ROOT"/passes/*.h "$ROOT"/runtime/mpitypes/*.h "$ROOT"/test/oracle/*.h \
  "$HERE"/*.h 2>/dev/null | head -1 || true)
NEWEST_FE_HEADER=$(ls -t "$NEWEST_HEADER" "$ROOT"/tool/clang/*.h "$ROOT"/tool/codegen/*.h 2>/dev/null |
  head -1 || true)
compile() { # src obj extra-flags newest-header
  if [ -f "$2" ] && [ "$2" -nt "$1" ] && [ "$2" -nt "$4" ]; then return 0; fi
  "$CXX" $FLAGS $3 -c "$1" -o "$2"
}
export -f compile

# passes/ with fuzzer coverage; the unit tests without (they are not fuzzed).
{
  for s in "$ROOT"/passes/*.cpp; do
    printf '%s\0%s\0%s\0%s\0' "$s" "$OUT/obj/passes_$(basename "${s%.cpp}").o" "-fsanitize=fuzzer-no-link" "$NEWEST_HEADER"
  done
  for s in "$HERE"/fuzz_*.cpp; do
    case "$(basename "$s")" in fuzz_decoder.cpp | fuzz_frontend.cpp) continue ;; esac
    printf '%s\0%s\0%s\0%s\0' "$s" "$OUT/obj/$(basename "${s%.cpp}").o" "-fsanitize=fuzzer-no-link" "$NEWEST_HEADER"
  done
  for s in "$ROOT"/test/unit/passes/*_test.cpp; do
    printf '%s\0%s\0%s\0%s\0' "$s" "$OUT/obj/unit_$(basename "${s%.cpp}").o" "-Wno-unused" "$NEWEST_HEADER"
  done
  if [ -n "$MPIFLAGS" ]; then
    for s in "$ROOT"/runtime/mpitypes/*.cpp "$ROOT"/test/oracle/*.cpp; do
      printf '%s\0%s\0%s\0%s\0' "$s" "$OUT/obj/oracle_$(basename "${s%.cpp}").o" "$MPIFLAGS" "$NEWEST_HEADER"
    done
    # The decoder target: runtime/mpitypes with fuzzer coverage, so the fuzzer is guided by it.
    for s in "$ROOT"/runtime/mpitypes/*.cpp "$HERE"/fuzz_decoder.cpp; do
      printf '%s\0%s\0%s\0%s\0' "$s" "$OUT/obj/fzmpi_$(basename "${s%.cpp}").o" \
        "-fsanitize=fuzzer-no-link $MPIFLAGS" "$NEWEST_HEADER"
    done
  fi
  # The front end with fuzzer coverage (tool/clang minus its main, and tool/codegen), so the
  # fuzzer is guided by our code, not by Clang's (whose libraries are not instrumented).
  if [ -z "$FEWHY" ]; then
    for s in "$ROOT"/tool/clang/*.cpp "$ROOT"/tool/codegen/KernelGen.cpp "$HERE"/fuzz_frontend.cpp; do
      [ "$(basename "$s")" = TempiRewrite.cpp ] && continue
      printf '%s\0%s\0%s\0%s\0' "$s" "$OUT/obj/fe_$(basename "${s%.cpp}").o" "$FEFLAGS" \
        "$NEWEST_FE_HEADER"
    done
  fi
} | xargs -0 -n 4 -P "$JOBS" bash -c 'compile "$0" "$1" "$2" "$3"'

PASSES=("$OUT"/obj/passes_*.o)
for s in "$HERE"/fuzz_*.cpp; do
  t=$(basename "${s%.cpp}")
  case "$t" in fuzz_decoder | fuzz_frontend) continue ;; esac
  "$CXX" $FLAGS -fsanitize=fuzzer "$OUT/obj/$t.o" "${PASSES[@]}" -o "$OUT/$t"
done
if [ -z "$FEWHY" ]; then
  # shellcheck disable=SC2086
  "$CXX" $FLAGS -fsanitize=fuzzer "$OUT"/obj/fe_*.o "${PASSES[@]}" $FELIBS -o "$OUT/fuzz_frontend"
else
  rm -f "$OUT/fuzz_frontend" # never run a stale one
fi
"$CXX" $FLAGS "$OUT"/obj/unit_*.o "${PASSES[@]}" -lgtest -lgtest_main -pthread \
  -o "$OUT/sanitize_passes"
if [ -n "$MPIFLAGS" ]; then
  "$CXX" $FLAGS "$OUT"/obj/oracle_*.o "${PASSES[@]}" $MPILIBS -o "$OUT/sanitize_oracle"
  "$CXX" $FLAGS -fsanitize=fuzzer "$OUT"/obj/fzmpi_*.o "$OUT/obj/oracle_Checker.o" "${PASSES[@]}" \
    $MPILIBS -o "$OUT/fuzz_decoder"
fi
echo "build.sh: built $(ls "$OUT" | grep -c -E '^(fuzz_|sanitize_)') binaries in $OUT"
