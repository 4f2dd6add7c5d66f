# test/gpu/reliability.cmake: issue 8's load tests on a real GPU (included by test/gpu/CMakeLists.txt).
# They link libtempi (target tempi, with its CUDA device layer), so they exist only in the whole
# project's build (scripts/gpu-check: ctest -L gpu), not in test/gpu's standalone build.
# The sources are test/e2e's CPU tests built with REL_CUDA (cudaMalloc instead of the fake device).
#   gpu-reliability-halo-load  8 ranks on one GPU, 200 checked 26-neighbour exchanges (16^3
#                              per rank), host RSS and GPU memory flat after warm-up. (1,000 did
#                              not finish in gpu-check's 240 s: each runtime-tier Isend still
#                              synchronizes alone, and 8 processes time-share the GPU. Run longer
#                              by hand: mpiexec -n 8 tempi-gpu-reliability-halo-load 1000 16.)
#   gpu-reliability-threads    2 ranks x 4 threads, MPI_THREAD_MULTIPLE, 300 iterations each
# Both exit 77 (skipped) without a GPU. Known to fail until libtempi's request table is fixed
# (docs/reliability.md, "Findings" 4 and 6) where the MPI shares completed request handles
# (MPICH) or threads race on handle reuse.
if(NOT TARGET tempi)
  return()
endif()
find_package(Threads REQUIRED)
get_filename_component(_relg_root ${CMAKE_CURRENT_LIST_DIR}/../.. ABSOLUTE)
foreach(p halo-load threads)
  set(t tempi-gpu-reliability-${p})
  if(p STREQUAL "halo-load")
    add_executable(${t} ${CMAKE_CURRENT_LIST_DIR}/ReliabilityHaloLoad.c ${_relg_root}/examples/halo3d/halo.c)
  else()
    add_executable(${t} ${CMAKE_CURRENT_LIST_DIR}/ReliabilityThreads.c)
  endif()
  target_include_directories(${t} PRIVATE ${_relg_root}/test/e2e ${_relg_root}/examples
                             ${_relg_root}/runtime/include)
  target_link_libraries(${t} PRIVATE tempi CUDA::cudart MPI::MPI_C Threads::Threads)
endforeach()
add_test(NAME gpu-reliability-halo-load
         COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_PREFLAGS} ${MPIEXEC_NUMPROC_FLAG} 8
                 $<TARGET_FILE:tempi-gpu-reliability-halo-load> 200 16)
add_test(NAME gpu-reliability-threads
         COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_PREFLAGS} ${MPIEXEC_NUMPROC_FLAG} 2
                 $<TARGET_FILE:tempi-gpu-reliability-threads> 300)
set_tests_properties(gpu-reliability-halo-load gpu-reliability-threads PROPERTIES
                     LABELS "gpu;reliability" SKIP_RETURN_CODE 77 TIMEOUT 300)

# test/e2e's transcript tests on a real GPU (issue 8's odd buffers): the same sources built with
# REL_CUDA, whose "device" buffers are CUDA memory of the kind REL_MEMORY names, each compared with
# the plain MPI's transcript on host memory (test/e2e/run_compare.sh and the -plain twins that
# test/e2e builds):
#   gpu-reliability-{odd-types,errors}-{device,managed,pinned}   cudaMalloc, cudaMallocManaged,
#                                                                 cudaMallocHost buffers
#   gpu-reliability-odd-types-device-misaligned                  cudaMalloc + 3 bytes (REL_MISALIGN)
# odd-types runs with RELIABILITY_BOTTOM_DEVICE=1 (MPI_BOTTOM with absolute device addresses).
#   gpu-reliability-cuda-oom   a real CUDA failure: cudaMalloc of the staging buffer refused
#                              (ReliabilityCudaOom.c); MPI_ERR_NO_MEM, nothing sent, no leak
#   gpu-reliability-launch-failure  a pack kernel launch the driver refuses in the middle of a
#                              send (TEMPI_TEST_FAIL_LAUNCH, ReliabilityLaunchFailure.c): the error
#                              through the communicator's handler, nothing sent, no leak
foreach(p odd_types errors)
  string(REPLACE "_" "-" dash ${p})
  if(p STREQUAL "odd_types")
    set(src ReliabilityOddTypes.c)
  else()
    set(src ReliabilityErrors.c)
  endif()
  set(t tempi-gpu-reliability-${dash})
  add_executable(${t} ${CMAKE_CURRENT_LIST_DIR}/${src})
  target_include_directories(${t} PRIVATE ${_relg_root}/test/e2e ${_relg_root}/runtime/include)
  target_link_libraries(${t} PRIVATE tempi CUDA::cudart MPI::MPI_C)
  if(NOT TARGET reliability_${p}-plain)
    continue()
  endif()
  set(kinds device managed pinned)
  if(p STREQUAL "odd_types")
    list(APPEND kinds device-misaligned)
  endif()
  foreach(kind ${kinds})
    set(name gpu-reliability-${dash}-${kind})
    add_test(NAME ${name}
             COMMAND ${_relg_root}/test/e2e/run_compare.sh "${MPIEXEC_EXECUTABLE}" 2
                     $<TARGET_FILE:reliability_${p}-plain> $<TARGET_FILE:${t}>
                     ${CMAKE_CURRENT_BINARY_DIR}/${name}.out)
    # run_compare.sh puts these after mpiexec, as add_test does for the other tests (Open MPI on
    # the GPU machine runs as root and needs --allow-run-as-root there)
    string(JOIN " " preflags ${MPIEXEC_PREFLAGS})
    set(env RELIABILITY_BOTTOM_DEVICE=1 "MPIEXEC_PREFLAGS=${preflags}")
    if(kind STREQUAL "device-misaligned")
      list(APPEND env REL_MEMORY=device REL_MISALIGN=3)
    else()
      list(APPEND env REL_MEMORY=${kind})
    endif()
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${env}" LABELS "gpu;reliability"
                         SKIP_RETURN_CODE 77 TIMEOUT 120)
  endforeach()
endforeach()

# The two CUDA-failure tests: 2 ranks, staged method, no idle staging kept (a leak shows).
foreach(p CudaOom:cuda-oom LaunchFailure:launch-failure)
  string(REPLACE ":" ";" p ${p})
  list(GET p 0 src)
  list(GET p 1 name)
  set(t tempi-gpu-reliability-${name})
  add_executable(${t} ${CMAKE_CURRENT_LIST_DIR}/Reliability${src}.c)
  target_include_directories(${t} PRIVATE ${_relg_root}/test/e2e ${_relg_root}/test)
  target_link_libraries(${t} PRIVATE tempi CUDA::cudart MPI::MPI_C)
  add_test(NAME gpu-reliability-${name}
           COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_PREFLAGS} ${MPIEXEC_NUMPROC_FLAG} 2
                   $<TARGET_FILE:${t}>)
  set_tests_properties(gpu-reliability-${name} PROPERTIES
                       ENVIRONMENT "TEMPI_METHOD=staged;TEMPI_POOL_BYTES=0"
                       LABELS "gpu;reliability" SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()
