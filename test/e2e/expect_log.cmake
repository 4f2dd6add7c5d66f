# tempi_add_log_test(NAME LINE COMMAND...): a test that passes when COMMAND exits 0 and its output
# (stdout and stderr together, printed for ctest) holds LINE (a fixed string). Included by
# test/e2e/CMakeLists.txt (with every *.cmake here) and by test/e2e/runtime_gpu/CMakeLists.txt.
function(tempi_add_log_test name line)
  add_test(NAME ${name}
           COMMAND sh -c "line=$1; shift; out=$(\"$@\" 2>&1); rc=$?; echo \"$out\"; \
[ $rc -eq 0 ] && echo \"$out\" | grep -qF -- \"$line\""
                   sh "${line}" ${ARGN})
endfunction()
