#!/usr/bin/env bash
# test/fuzz/sanitize-tools.sh BUILDDIR [MAINBUILD]: the Clang tools under ASan + UBSan.
#
# Configures (later runs are incremental) a separate CMake build of this source tree in BUILDDIR
# with the system compiler (gcc, as sanitize-runtime.sh), -fsanitize=address,undefined
# -fno-sanitize-recover=all, without CUDA, builds tempi-rewrite, tempi-lint, tempi-cc/tempi-cxx,
# tempi-gen, tempi-opt and the front end's unit tests, and runs
#   - tool_frontend_test (LeakSanitizer on),
#   - the lit suites rewrite, lint, driver, codegen and passes against BUILDDIR's tools (LeakSanitizer
#     on too: the tools free what they allocate, or the run fails), except driver/install.test,
#     which installs the whole project and so needs libtempi, built here without the runtime.
#     tempi-cc links libtempi into every program, and this build has none: the driver tests that
#     really link (make.test, cmake.test) take MAINBUILD's plain one (TEMPI_LIB_DIR); without
#     MAINBUILD or its lib/libtempi.so they are left out too, with a line saying so.
# LLVM and Clang's own libraries are not instrumented: a report names TEMPI's code or a bug at
# the boundary. Exit status: non-zero on a build failure, a failing test or any sanitizer report
# (UBSan and ASan abort the tool, so its lit test fails).
# Environment: JOBS (default 2), TEMPI_PYTHON (the venv python the lit tests use; default
# <repo>/.venv/bin/python when it exists, else python3).
set -euo pipefail
BUILD=${1:?usage: test/fuzz/sanitize-tools.sh BUILDDIR [MAINBUILD]}
MAIN=${2:-}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
JOBS=${JOBS:-2}
PY=${TEMPI_PYTHON:-}
[ -z "$PY" ] && { [ -x "$ROOT/.venv/bin/python" ] && PY="$ROOT/.venv/bin/python" || PY=python3; }
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
DBG="-O1 -g1"
GEN=""; command -v ninja >/dev/null && GEN="-G Ninja"
LIT=$(command -v lit || command -v llvm-lit || echo /usr/lib/llvm-22/bin/lit)
t0=$SECONDS

# shellcheck disable=SC2086
cmake -S "$ROOT" -B "$BUILD" $GEN -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG= \
  -DCMAKE_CXX_FLAGS_DEBUG= -DTEMPI_ENABLE_CUDA=OFF "-DTEMPI_PYTHON=$PY" \
  "-DCMAKE_C_FLAGS=$DBG $SAN" "-DCMAKE_CXX_FLAGS=$DBG $SAN" \
  "-DCMAKE_EXE_LINKER_FLAGS=$SAN" "-DCMAKE_SHARED_LINKER_FLAGS=$SAN" >"$BUILD.configure.log" 2>&1 ||
  { cat "$BUILD.configure.log"; exit 1; }
cmake --build "$BUILD" -j "$JOBS" --target tempi-rewrite tempi-lint tempi-cc tempi-gen tempi-opt \
  tool_frontend_test >"$BUILD.build.log" 2>&1 || { tail -40 "$BUILD.build.log"; exit 1; }
echo "sanitize-tools: built in $((SECONDS - t0)) s"

export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
"$BUILD/bin/tool_frontend_test" --gtest_brief=1 || status=1
FILTER_OUT='driver/install\.test'
if [ -n "$MAIN" ] && [ -f "$MAIN/lib/libtempi.so" ]; then
  export TEMPI_LIB_DIR=$MAIN/lib
else
  FILTER_OUT="$FILTER_OUT|driver/make\.test|driver/cmake\.test"
  echo "sanitize-tools: SKIPPED driver/make.test and driver/cmake.test: no libtempi to link" \
    "(give the main build as the 2nd argument)"
fi
LIT_FILTER_OUT=$FILTER_OUT "$LIT" -s "$BUILD/test/rewrite" "$BUILD/test/lint" \
  "$BUILD/test/driver" "$BUILD/test/codegen" "$BUILD/test/passes" || status=1
echo "sanitize-tools: $([ $status = 0 ] && echo clean || echo FAILED) in $((SECONDS - t0)) s"
exit $status
