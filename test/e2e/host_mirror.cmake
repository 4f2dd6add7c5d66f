# The host-mirrored calls (runtime/src/host/InterposeHostMirror*.cpp, InterposeP2PMore.cpp;
# docs/runtime.md "Host-mirrored calls"), included by test/e2e/CMakeLists.txt (its *.cmake glob).
#   runtime_host_mirror_device   every call on fake-device buffers (each send/receive placement)
#                                against the plain MPI on host buffers, byte for byte; 2 and 4 ranks
#   runtime_host_mirror_mirror   the same with TEMPI_NO_TYPE_CACHE=1 (the p2p calls' wires mirror)
#   runtime_host_mirror_errors   TEMPI_FAKE_FAIL=copy: MPI_ERR_OTHER, nothing started or leaked
#   runtime_host_mirror_host     host buffers through libtempi (inactive here) vs the plain MPI:
#   runtime_host_mirror_host_active   ... and through the fake-device libtempi (active): identical
#                                transcripts (COMPARE)
# On the GPU machine, test/e2e/runtime_gpu/CMakeLists.txt includes this file too (variables E2E,
# MPIEXEC from there): the same program over real CUDA memory (runtime_cuda_device_api.cpp).
set(_hm ${CMAKE_CURRENT_LIST_DIR}/runtime_host_mirror.c)
if(PROJECT_NAME STREQUAL "tempi_runtime_gpu")
  add_executable(runtime_host_mirror_host ${_hm})
  target_link_libraries(runtime_host_mirror_host PRIVATE tempi MPI::MPI_C)
  add_executable(runtime_host_mirror_host-plain ${_hm})
  target_link_libraries(runtime_host_mirror_host-plain PRIVATE MPI::MPI_C)
  add_executable(runtime_host_mirror_device ${_hm}
                 ${E2E}/runtime_gpu/runtime_cuda_device_api.cpp)
  target_include_directories(runtime_host_mirror_device PRIVATE ${E2E})
  target_compile_definitions(runtime_host_mirror_device PRIVATE HOST_MIRROR_DEVICE)
  target_link_libraries(runtime_host_mirror_device PRIVATE tempi MPI::MPI_C CUDA::cudart)
  foreach(np 2 4)
    add_test(NAME runtime_host_mirror_host-np${np}
             COMMAND ${E2E}/run_compare.sh "${MPIEXEC_EXECUTABLE}" ${np}
                     $<TARGET_FILE:runtime_host_mirror_host-plain>
                     $<TARGET_FILE:runtime_host_mirror_host>
                     ${CMAKE_BINARY_DIR}/runtime_host_mirror_host-np${np}.out)
    add_test(NAME runtime_host_mirror_device-np${np}
             COMMAND ${MPIEXEC} ${np} ${MPIEXEC_PREFLAGS} $<TARGET_FILE:runtime_host_mirror_device>
                     device)
  endforeach()
  # What the path costs (docs/runtime.md): run by hand, `mpiexec -n 2 bin/runtime_host_mirror_cost`.
  add_executable(runtime_host_mirror_cost ${E2E}/runtime_host_mirror_cost.c)
  target_link_libraries(runtime_host_mirror_cost PRIVATE tempi MPI::MPI_C CUDA::cudart)
  add_test(NAME runtime_host_mirror_mirror-np2
           COMMAND ${MPIEXEC} 2 ${MPIEXEC_PREFLAGS} $<TARGET_FILE:runtime_host_mirror_device>
                   device)
  set_tests_properties(runtime_host_mirror_mirror-np2 PROPERTIES
                       ENVIRONMENT "TEMPI_NO_TYPE_CACHE=1")
  return()
endif()

if(NOT TARGET tempi_host)
  return()
endif()

tempi_add_mpi_test(runtime_host_mirror_host NPROCS 2 4 SOURCES ${_hm} COMPARE)
tempi_add_mpi_test(runtime_host_mirror_host_active NPROCS 2 4 SOURCES ${_hm} LINK tempi_fakedev
                   COMPARE)

tempi_add_mpi_test(runtime_host_mirror_device NPROCS 2 4 SOURCES ${_hm} LINK tempi_fakedev
                   ARGS device)
tempi_add_mpi_test(runtime_host_mirror_mirror NPROCS 2 SOURCES ${_hm} LINK tempi_fakedev
                   ARGS device ENV TEMPI_NO_TYPE_CACHE=1)
tempi_add_mpi_test(runtime_host_mirror_errors NPROCS 2 SOURCES ${_hm} LINK tempi_fakedev
                   ARGS errors ENV TEMPI_FAKE_FAIL=copy TEMPI_LOG=error)
foreach(t runtime_host_mirror_device runtime_host_mirror_mirror runtime_host_mirror_errors)
  if(TARGET ${t})
    target_compile_definitions(${t} PRIVATE HOST_MIRROR_DEVICE)
  endif()
endforeach()
