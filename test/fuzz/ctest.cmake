# test/fuzz/ctest.cmake: the fuzz and sanitizer tests, included from test/CMakeLists.txt.
# The binaries are built by test/fuzz/build.sh with clang-22 (ASan + UBSan, libFuzzer), outside
# the CMake toolchain so the main build keeps its own compiler and flags; target tempi_fuzz
# (part of ALL) rebuilds them when passes/, runtime/mpitypes/, test/oracle/, test/unit/passes/,
# test/fuzz/ or, where the Clang tools are built, tool/clang/ and tool/codegen/ change (the front
# end's target fuzz_frontend links their sources, instrumented, with the installed LLVM/Clang 22
# libraries). Tests (label "sanitize"; all fail on any finding):
#   fuzz-smoke        each libFuzzer target 20 s after replaying test/fuzz/regressions/
#                     (fuzz_frontend among them where the Clang tools are built)
#   sanitize-passes   every passes/ unit test (test/unit/passes) in one ASan+UBSan+LSan binary
#   sanitize-oracle   tempi-check-types --count 2000 and every fixed case under ASan + UBSan
#   sanitize-runtime  libtempi's host side (NoDevice and the fake device layer), the runtime unit
#                     tests and the MPI e2e tests runtime_* and reliability_* under ASan + UBSan:
#                     test/fuzz/sanitize-runtime.sh builds them with gcc in its own build folder
#                     (<build>/test/sanitize-runtime, incremental) and runs them; also label "mpi".
#                     Given this build directory too, it compiles the rewrite_* programs that this
#                     build's tempi-rewrite rewrote (test/e2e/rewrite_tests.cmake) with the same
#                     flags against its libtempi and runs them as rewrite_*-npN does (skipped,
#                     with a line saying so, where this build has no rewrite_* tests), and the
#                     programs corpus (test/programs) rewritten by this build's tempi-cc, compared
#                     with the unmodified programs (test/fuzz/sanitize-corpus.sh), and the examples
#                     compiled as their Makefiles do with this build's tempi-cc, compared with
#                     their mpicc builds (test/fuzz/sanitize-examples.sh); the examples'
#                     host-buffer tests (example-*-host) and the commit benchmarks' smoke tests
#                     also run in that build's ctest, and test/gpu's host tests (kernel-index-host,
#                     host-ranges: nvcc in this build) are compiled with its flags and run
#                     (test/fuzz/sanitize-gpu-host.sh)
#   sanitize-tools    the Clang tools (tempi-rewrite, tempi-lint, tempi-cc, ...) and the front
#                     end's unit tests under ASan + UBSan + LSan, with the lit suites rewrite, lint,
#                     driver, codegen and passes run against them: test/fuzz/sanitize-tools.sh, its own
#                     gcc build folder (<build>/test/sanitize-tools, incremental); label "tool"
#   fuzz-rewrite      the front end's mutation fuzzer (mutate-rewrite.py: not coverage-guided):
#                     60 mutants of test/rewrite/*.c through tempi-rewrite, no crash or hang,
#                     every rewritten call one the tool's remarks say it proved (label "fuzz;tool")
# Skipped with a warning when clang++-22 or its libFuzzer runtime (libclang-rt-22-dev) is missing
# (sanitize-runtime and fuzz-rewrite need neither: they are registered first).
if(TARGET tempi-rewrite)
  set(_fz_clang "")
  if(TEMPI_CLANG)
    set(_fz_clang --clang ${TEMPI_CLANG})
  endif()
  add_test(NAME fuzz-rewrite
           COMMAND ${TEMPI_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/mutate-rewrite.py
                   --tool $<TARGET_FILE:tempi-rewrite> --count 60 --seed 1 ${_fz_clang}
                   --outdir ${CMAKE_CURRENT_BINARY_DIR}/fuzz-rewrite)
  set_tests_properties(fuzz-rewrite PROPERTIES LABELS "fuzz;tool" TIMEOUT 300)
endif()
if(TARGET tempi-rewrite)
  add_test(NAME sanitize-tools
           COMMAND ${CMAKE_COMMAND} -E env TEMPI_PYTHON=${TEMPI_PYTHON}
                   ${CMAKE_CURRENT_LIST_DIR}/sanitize-tools.sh ${CMAKE_CURRENT_BINARY_DIR}/sanitize-tools
                   ${CMAKE_BINARY_DIR})
  set_tests_properties(sanitize-tools PROPERTIES LABELS "sanitize;tool" TIMEOUT 1800
                       RUN_SERIAL TRUE)
endif()
if(TARGET tempi_host)
  add_test(NAME sanitize-runtime
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/sanitize-runtime.sh ${CMAKE_CURRENT_BINARY_DIR}/sanitize-runtime
                   ${CMAKE_BINARY_DIR})
  # ~300 s alone on CI's 2 cores; its instrumented build took 639 s once while the machine
  # also built other things, and timed out at 900.
  set_tests_properties(sanitize-runtime PROPERTIES LABELS "sanitize;mpi" TIMEOUT 1800
                       RUN_SERIAL TRUE)
endif()
find_program(TEMPI_FUZZ_CXX NAMES clang++-22 HINTS ${TEMPI_LLVM_PREFIX}/bin)
set(TEMPI_FUZZ_RUNTIME "")
if(TEMPI_FUZZ_CXX)
  execute_process(COMMAND ${TEMPI_FUZZ_CXX} -print-resource-dir
                  OUTPUT_VARIABLE _tempi_fuzz_res OUTPUT_STRIP_TRAILING_WHITESPACE)
  file(GLOB TEMPI_FUZZ_RUNTIME ${_tempi_fuzz_res}/lib/*/libclang_rt.fuzzer*.a)
endif()
if(NOT TEMPI_FUZZ_CXX OR NOT TEMPI_FUZZ_RUNTIME OR NOT GTest_FOUND)
  message(WARNING "clang++-22, libFuzzer (libclang-rt-22-dev) or GoogleTest missing: "
                  "the fuzz and sanitizer tests are not registered")
  return()
endif()

get_filename_component(_fz_root ${CMAKE_CURRENT_LIST_DIR}/../.. ABSOLUTE)
set(_fz_src ${_fz_root}/test/fuzz)
set(_fz_bin ${CMAKE_CURRENT_BINARY_DIR}/fuzz)
file(GLOB _fz_deps CONFIGURE_DEPENDS
     ${_fz_root}/passes/*.cpp ${_fz_root}/passes/*.h
     ${_fz_root}/runtime/mpitypes/*.cpp ${_fz_root}/runtime/mpitypes/*.h
     ${_fz_root}/test/oracle/*.cpp ${_fz_root}/test/oracle/*.h
     ${_fz_root}/test/unit/passes/*.cpp ${_fz_src}/*.cpp ${_fz_src}/*.h ${_fz_src}/*.sh)
set(_fz_outs ${_fz_bin}/fuzz_expr_text ${_fz_bin}/fuzz_ir_text ${_fz_bin}/fuzz_canonicalize
             ${_fz_bin}/fuzz_decoder
             ${_fz_bin}/sanitize_passes ${_fz_bin}/sanitize_oracle)
# fuzz_frontend: where tempi-rewrite is built, LLVM/Clang 22's libraries are there; build.sh takes
# them from the same prefix (LLVM_CONFIG).
set(_fz_llvm_config "")
if(TARGET tempi-rewrite)
  file(GLOB _fz_fe_deps CONFIGURE_DEPENDS
       ${_fz_root}/tool/clang/*.cpp ${_fz_root}/tool/clang/*.h
       ${_fz_root}/tool/codegen/*.cpp ${_fz_root}/tool/codegen/*.h)
  list(APPEND _fz_deps ${_fz_fe_deps})
  list(APPEND _fz_outs ${_fz_bin}/fuzz_frontend)
  set(_fz_llvm_config LLVM_CONFIG=${TEMPI_LLVM_PREFIX}/bin/llvm-config)
endif()
add_custom_command(OUTPUT ${_fz_outs}
                   COMMAND ${CMAKE_COMMAND} -E env CXX=${TEMPI_FUZZ_CXX} ${_fz_llvm_config}
                           ${_fz_src}/build.sh ${_fz_bin}
                   DEPENDS ${_fz_deps}
                   COMMENT "Building the fuzz targets and sanitizer test binaries (test/fuzz/build.sh)"
                   USES_TERMINAL)
add_custom_target(tempi_fuzz ALL DEPENDS ${_fz_outs})

set(_fz_env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1)
add_test(NAME fuzz-smoke COMMAND ${_fz_src}/run.sh 20 ${_fz_bin})
add_test(NAME sanitize-passes COMMAND ${_fz_bin}/sanitize_passes)
add_test(NAME sanitize-oracle COMMAND ${_fz_src}/sanitize-oracle.sh ${_fz_bin} 2000)
set_tests_properties(fuzz-smoke sanitize-passes PROPERTIES ENVIRONMENT "${_fz_env}")
set_tests_properties(fuzz-smoke PROPERTIES LABELS "sanitize;fuzz" TIMEOUT 240)
set_tests_properties(sanitize-passes PROPERTIES LABELS sanitize TIMEOUT 120)
set_tests_properties(sanitize-oracle PROPERTIES LABELS "sanitize;mpi" TIMEOUT 180)
