# test/e2e/reliability.cmake: issue 8's end-to-end tests (bad and odd inputs, load), included by
# test/e2e/CMakeLists.txt (its *.cmake glob). Every program here links libtempi over the fake device
# layer (target tempi_fakedev, defined later in that file), so the runtime is active and the
# device-buffer paths run on this CPU-only machine; COMPARE tests also run a plain-MPI twin and
# must write the same transcript (reliability_common.h). Labels "mpi" and "reliability".
# test/fuzz/sanitize-runtime.sh runs all of them under ASan + UBSan too.
if(NOT TARGET tempi_host)
  return()
endif()
set(_rel_dir ${CMAKE_CURRENT_LIST_DIR})
set(_rel_tests "")

# Invalid and freed datatypes, truncation (host and device buffers), no stray messages.
# Known bug 1 (truncated device receive, docs/reliability.md "Findings") is left out of the
# transcript here; reliability_errors_known_bugs-np2 compares it too. The two known-bug tests are
# DISABLED until libtempi is fixed (ctest lists them as not run); known_bugs is fixed and enabled.
tempi_add_mpi_test(reliability_errors NPROCS 2 SOURCES ${_rel_dir}/reliability_errors.c
                   LINK tempi_fakedev COMPARE ENV RELIABILITY_SKIP_KNOWN=1)
list(APPEND _rel_tests reliability_errors-np2)
if(TARGET reliability_errors)
  add_test(NAME reliability_errors_known_bugs-np2
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/run_compare.sh "${MPIEXEC_EXECUTABLE}" 2
                   $<TARGET_FILE:reliability_errors-plain> $<TARGET_FILE:reliability_errors>
                   ${CMAKE_CURRENT_BINARY_DIR}/reliability_errors_known_bugs-np2.out)
  # Known bug 2: MPI_ERRORS_RETURN on the communicator only, an invalid datatype: libtempi's
  # type lookup queries the MPI about the handle and the MPI raises that on MPI_COMM_WORLD (fatal)
  # before the call reaches the MPI, which would return MPI_ERR_TYPE on the communicator.
  add_test(NAME reliability_errors_comm_only-np2
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/run_compare.sh "${MPIEXEC_EXECUTABLE}" 2
                   $<TARGET_FILE:reliability_errors-plain> $<TARGET_FILE:reliability_errors>
                   ${CMAKE_CURRENT_BINARY_DIR}/reliability_errors_comm_only-np2.out)
  set_tests_properties(reliability_errors_comm_only-np2 PROPERTIES ENVIRONMENT RELIABILITY_COMM_ONLY=1)
  # The same transcript with every device buffer on the mirror path (no plans): a mirror copies
  # its span back whatever the MPI reported, truncations included, like the plain MPI's buffer.
  add_test(NAME reliability_errors_mirror-np2
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/run_compare.sh "${MPIEXEC_EXECUTABLE}" 2
                   $<TARGET_FILE:reliability_errors-plain> $<TARGET_FILE:reliability_errors>
                   ${CMAKE_CURRENT_BINARY_DIR}/reliability_errors_mirror-np2.out)
  set_tests_properties(reliability_errors_mirror-np2 PROPERTIES ENVIRONMENT TEMPI_NO_TYPE_CACHE=1)
  set_tests_properties(reliability_errors_known_bugs-np2 reliability_errors_comm_only-np2
                       reliability_errors_mirror-np2 PROPERTIES
                       LABELS "mpi;reliability" TIMEOUT 120)
  # (Finding 2 of docs/reliability.md, fixed 2026-11-25: an invalid non-null handle with a device
  # buffer aborted in the type cache; the cache now asks about unseen handles with errors returned.)
endif()

# Zero counts, negative strides and lower bounds, extents smaller than true extents, a struct,
# a pair type, MPI_BOTTOM with absolute addresses (host buffers; device buffers in
# reliability_odd_types_bottom_device-np2, finding 3, fixed in session 4).
tempi_add_mpi_test(reliability_odd_types NPROCS 2 SOURCES ${_rel_dir}/reliability_odd_types.c
                   LINK tempi_fakedev COMPARE)
list(APPEND _rel_tests reliability_odd_types-np2)
if(TARGET reliability_odd_types)
  add_test(NAME reliability_odd_types_bottom_device-np2
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/run_compare.sh "${MPIEXEC_EXECUTABLE}" 2
                   $<TARGET_FILE:reliability_odd_types-plain> $<TARGET_FILE:reliability_odd_types>
                   ${CMAKE_CURRENT_BINARY_DIR}/reliability_odd_types_bottom_device-np2.out)
  set_tests_properties(reliability_odd_types_bottom_device-np2 PROPERTIES
                       ENVIRONMENT RELIABILITY_BOTTOM_DEVICE=1 LABELS "mpi;reliability"
                       TIMEOUT 120)
endif()

# MPI_THREAD_MULTIPLE: 4 threads per rank, host and device buffers, types committed and freed
# concurrently. Over a thread-safe wrapper of the fake device layer (one lock around the fake
# GPU; libtempi's host side runs unserialized).
find_package(Threads REQUIRED)
add_library(reliability_fakedev_mt SHARED $<TARGET_OBJECTS:tempi_host>
            ${_rel_dir}/reliability_fake_device_mt.cpp)
target_link_libraries(reliability_fakedev_mt PUBLIC MPI::MPI_C Threads::Threads
                      PRIVATE tempi_hostcore tempi_passes)
if(TARGET tempi_mpitypes)
  target_link_libraries(reliability_fakedev_mt PRIVATE tempi_mpitypes)
endif()
target_include_directories(reliability_fakedev_mt PRIVATE ${PROJECT_SOURCE_DIR}
                           ${PROJECT_SOURCE_DIR}/runtime/include ${_rel_dir})
# Device nonblocking requests from 4 threads included: finding 4 (the request table under
# threads) is fixed (Requests.cpp, Claim); before the fix about every other run lost a message.
tempi_add_mpi_test(reliability_threads NPROCS 2 4 SOURCES ${_rel_dir}/reliability_threads.c
                   LINK reliability_fakedev_mt Threads::Threads ARGS 300)
list(APPEND _rel_tests reliability_threads-np2 reliability_threads-np4)

# Load: examples/halo3d's 26-neighbour Isend/Irecv exchange on device buffers, 2,000 checked
# exchanges, VmRSS flat after warm-up (the 100,000-iteration run: test/e2e/reliability_load.sh).
# Known bug 6 (device Isend requests leak) is left out here (device receives, host sends);
# reliability_halo_load_known_bugs-np2 (device both ways) is DISABLED until it is fixed.
# 1 rank (every neighbour is itself: 2,000 exchanges in about 3 s) and 2 ranks (500 exchanges,
# about 6 s; more ranks than cores make MPICH's busy-polling ranks crawl on 2 cores).
tempi_add_mpi_test(reliability_halo_load NPROCS 1
                   SOURCES ${_rel_dir}/reliability_halo_load.c ${PROJECT_SOURCE_DIR}/examples/halo3d/halo.c
                   LINK tempi_fakedev ARGS 2000 6 ENV RELIABILITY_SKIP_KNOWN=1)
if(TEST reliability_halo_load-np1)
  add_test(NAME reliability_halo_load-np2
           COMMAND ${TEMPI_E2E_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG} 2
                   $<TARGET_FILE:reliability_halo_load> 500 6)
  set_tests_properties(reliability_halo_load-np2 PROPERTIES LABELS mpi TIMEOUT 120
                       ENVIRONMENT RELIABILITY_SKIP_KNOWN=1)
endif()
if(TARGET reliability_halo_load)
  target_include_directories(reliability_halo_load PRIVATE ${PROJECT_SOURCE_DIR}/examples)
  add_test(NAME reliability_halo_load_known_bugs-np2
           COMMAND ${TEMPI_E2E_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG} 2
                   $<TARGET_FILE:reliability_halo_load> 300 6)
  set_tests_properties(reliability_halo_load_known_bugs-np2 PROPERTIES LABELS "mpi;reliability"
                       TIMEOUT 120)
endif()
list(APPEND _rel_tests reliability_halo_load-np1 reliability_halo_load-np2)

foreach(t ${_rel_tests})
  if(TEST ${t})
    set_property(TEST ${t} APPEND PROPERTY LABELS reliability)
  endif()
endforeach()
