# TEMPI_VERIFY_PLANS=1 (runtime/src/host/VerifyPlans.h), included by test/e2e/CMakeLists.txt: the
# check of static plans against their datatypes must pass correct plans on every kind of entry
# point and stop the job on a wrong one (runtime_verify_plans.c), on host buffers, without a GPU.
# The rewritten programs' runs (run_compare.sh, test/programs/run-corpus.sh) turn the mode on.
tempi_add_mpi_test(runtime_verify_plans NPROCS 1 2 SOURCES runtime_verify_plans.c ARGS good
                   ENV TEMPI_VERIFY_PLANS=1)
if(NOT TARGET runtime_verify_plans)
  return()
endif()
# Off, a wrong plan on host buffers goes unnoticed (the MPI packs): the program runs to its end.
add_test(NAME runtime_verify_plans_off-np1
         COMMAND ${TEMPI_E2E_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG} 1
                 $<TARGET_FILE:runtime_verify_plans> bad-order)
set_tests_properties(runtime_verify_plans_off-np1 PROPERTIES LABELS mpi TIMEOUT 120
                     ENVIRONMENT TEMPI_VERIFY_PLANS=0
                     PASS_REGULAR_EXPRESSION "bad-order: bad plan not detected")
# case | ranks | what the check's line must say (grep -E; no double quotes, no brackets: a list)
set(tempi_verify_bad_cases
    "bad-order|1|tempi_Pack_size: static plan bad-order: .* packed bytes differ from MPI_Pack's at packed byte offset 0 "
    "bad-stride|1|tempi_Pack_size: static plan bad-stride: .* packed bytes differ from MPI_Pack's at packed byte offset 8 "
    "bad-outside|1|tempi_Pack_size: static plan bad-outside: .* run of 8 bytes at byte offset 80 lies outside the bytes .0, 80. of 2 elements"
    "bad-size|1|tempi_Pack_size: static plan bad-size: .*: size 28, the MPI's 24$"
    "bad-lb|1|tempi_Pack_size: static plan bad-lb: .*: lb 0, the MPI's -8$"
    "bad-sendrecv|2|tempi_Sendrecv: static plan bad-stride: .* packed bytes differ"
    "bad-alltoallw|2|tempi_Alltoallw: static plan bad-order: .* packed bytes differ"
    "bad-neighbor|2|tempi_Neighbor_alltoallw: static plan bad-lb: .*: extent 64, the MPI's 40$"
    "bad-reuse|1|tempi_Pack_size: static plan strided.*: extent 40, the MPI's 32$")
foreach(entry ${tempi_verify_bad_cases})
  string(REGEX MATCH "^([^|]*)\\|([^|]*)\\|(.*)$" _ "${entry}")
  set(case ${CMAKE_MATCH_1})
  set(np ${CMAKE_MATCH_2})
  set(expect ${CMAKE_MATCH_3})
  # Passes when the job stops with the check's code (70, PMPI_Abort), a line says
  # TEMPI_VERIFY_PLANS and matches `expect`, and the program never reached its "not detected".
  # The code is mpiexec's exit status or, when MPICH's hydra hangs up on the aborting rank before
  # it exits (a race in hydra: the job then exits 1, about 1 run in 100 here), the MPI's own
  # abort line (MPICH: "MPI_Abort(MPI_COMM_WORLD, 70)", Open MPI: "with errorcode 70").
  add_test(NAME runtime_verify_plans_${case}-np${np}
           COMMAND sh -c "expect=$1; shift; out=$(\"$@\" 2>&1); rc=$?; echo \"$out\"; \
[ $rc -eq 70 ] || { [ $rc -ne 0 ] && echo \"$out\" | grep -qE 'MPI_Abort.MPI_COMM_WORLD, 70.|with errorcode 70'; } || \
{ echo \"exit status $rc and no MPI abort line with code 70\"; exit 1; }; \
echo \"$out\" | grep 'TEMPI_VERIFY_PLANS: ' | grep -qE \"$expect\" || { echo \"no line matches: $expect\"; exit 1; }; \
! echo \"$out\" | grep -q 'not detected'"
                   sh "${expect}" ${TEMPI_E2E_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG} ${np}
                   $<TARGET_FILE:runtime_verify_plans> ${case})
  set_tests_properties(runtime_verify_plans_${case}-np${np} PROPERTIES LABELS mpi TIMEOUT 120
                       ENVIRONMENT TEMPI_VERIFY_PLANS=1)
endforeach()
