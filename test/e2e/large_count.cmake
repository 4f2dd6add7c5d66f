# The MPI-4 large-count (_c) interposers (runtime/src/host/InterposeLargeCount*.cpp), included from
# test/e2e/CMakeLists.txt, and from test/e2e/runtime_gpu/CMakeLists.txt for the GPU machine (real
# CUDA memory through runtime_cuda_device_api.cpp: the tempi_runtime_gpu part below). Only where
# the MPI has the _c calls (MPI_VERSION >= 4: MPICH 4 and 5, not Open MPI 4.1/5.0), which is when
# libtempi defines them (TEMPI_HAVE_LARGE_COUNT in tempi.h).
include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_LIBRARIES MPI::MPI_C)
check_c_source_compiles("
#include <mpi.h>
#if !defined(MPI_VERSION) || MPI_VERSION < 4
#error no MPI-4 large-count calls
#endif
int main(void) { return MPI_Send_c(0, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD); }"
  TEMPI_MPI_HAS_LARGE_COUNT)
unset(CMAKE_REQUIRED_LIBRARIES)

if(NOT TEMPI_MPI_HAS_LARGE_COUNT)
  message(STATUS "e2e: large-count (_c) tests skipped (the MPI has no MPI-4 _c calls)")
  return()
endif()

if(PROJECT_NAME STREQUAL "tempi_runtime_gpu")
  # The GPU machine's standalone build (variables E2E, MPIEXEC from runtime_gpu/CMakeLists.txt).
  set(cuda_api ${E2E}/runtime_gpu/runtime_cuda_device_api.cpp)
  add_executable(runtime_large_count_host ${E2E}/runtime_large_count_host.c)
  target_link_libraries(runtime_large_count_host PRIVATE tempi MPI::MPI_C ${CMAKE_DL_LIBS})
  add_executable(runtime_large_count_host-plain ${E2E}/runtime_large_count_host.c)
  target_link_libraries(runtime_large_count_host-plain PRIVATE MPI::MPI_C ${CMAKE_DL_LIBS})
  add_executable(runtime_large_count_device ${E2E}/runtime_large_count_device.c ${cuda_api})
  target_include_directories(runtime_large_count_device PRIVATE ${E2E})
  target_link_libraries(runtime_large_count_device PRIVATE tempi MPI::MPI_C CUDA::cudart)
  add_executable(runtime_large_count_huge ${E2E}/runtime_large_count_huge.c ${cuda_api})
  target_include_directories(runtime_large_count_huge PRIVATE ${E2E})
  target_link_libraries(runtime_large_count_huge PRIVATE tempi MPI::MPI_C CUDA::cudart)
  foreach(np 2 4)
    add_test(NAME runtime_large_count_host-np${np}
             COMMAND ${E2E}/run_compare.sh "${MPIEXEC_EXECUTABLE}" ${np}
                     $<TARGET_FILE:runtime_large_count_host-plain>
                     $<TARGET_FILE:runtime_large_count_host>
                     ${CMAKE_BINARY_DIR}/runtime_large_count_host-np${np}.out)
    foreach(method auto staged oneshot)
      add_test(NAME runtime_large_count_device_${method}-np${np}
               COMMAND ${MPIEXEC} ${np} ${MPIEXEC_PREFLAGS}
                       $<TARGET_FILE:runtime_large_count_device> kernels)
      set_tests_properties(runtime_large_count_device_${method}-np${np} PROPERTIES
                           ENVIRONMENT "TEMPI_METHOD=${method}" TIMEOUT 300)
    endforeach()
  endforeach()
  add_test(NAME runtime_large_count_device_mirror-np2
           COMMAND ${MPIEXEC} 2 ${MPIEXEC_PREFLAGS}
                   $<TARGET_FILE:runtime_large_count_device> mirror)
  set_tests_properties(runtime_large_count_device_mirror-np2 PROPERTIES
                       ENVIRONMENT "TEMPI_NO_TYPE_CACHE=1" TIMEOUT 300)
  foreach(method auto staged)
    add_test(NAME runtime_large_count_huge_${method}-np2
             COMMAND ${MPIEXEC} 2 ${MPIEXEC_PREFLAGS}
                     $<TARGET_FILE:runtime_large_count_huge> device)
    set_tests_properties(runtime_large_count_huge_${method}-np2 PROPERTIES
                         ENVIRONMENT "TEMPI_METHOD=${method}" LABELS large RUN_SERIAL TRUE
                         TIMEOUT 300)
  endforeach()
  return()
endif()

if(TARGET tempi_host) # tempi_fakedev (defined in CMakeLists.txt after this file) exists too
  # Host buffers: exactly the plain MPI's behaviour, through libtempi (inactive on a machine
  # without a GPU, active on the GPU machine) and through the fake-device libtempi (active).
  tempi_add_mpi_test(runtime_large_count_host NPROCS 2 4 SOURCES runtime_large_count_host.c
                     COMPARE)
  tempi_add_mpi_test(runtime_large_count_host_active NPROCS 2 SOURCES runtime_large_count_host.c
                     LINK tempi_fakedev COMPARE)
  # Device buffers over the fake device layer, against the same calls on host buffers.
  foreach(method auto staged oneshot)
    tempi_add_mpi_test(runtime_large_count_device_${method} NPROCS 2 4
                       SOURCES runtime_large_count_device.c
                       LINK tempi_fakedev ARGS kernels ENV TEMPI_METHOD=${method})
  endforeach()
  tempi_add_mpi_test(runtime_large_count_device_mirror NPROCS 2
                     SOURCES runtime_large_count_device.c LINK tempi_fakedev ARGS mirror
                     ENV TEMPI_NO_TYPE_CACHE=1)
endif()

# Over 2^31: 2^31 + 16 MPI_BYTEs, and a vector element of 2^31 + 64 KiB packed bytes. About 4 GiB
# of memory at a time and a few seconds per message: label "large", never run beside another test.
if(TARGET tempi_host)
  tempi_add_mpi_test(runtime_large_count_huge_host NPROCS 2 SOURCES runtime_large_count_huge.c
                     ARGS host)
  if(TARGET runtime_large_count_huge_host)
    target_compile_definitions(runtime_large_count_huge_host PRIVATE LARGE_COUNT_HOST_ONLY)
  endif()
  tempi_add_mpi_test(runtime_large_count_huge_device NPROCS 2 SOURCES runtime_large_count_huge.c
                     LINK tempi_fakedev ARGS device ENV TEMPI_METHOD=oneshot)
  foreach(t runtime_large_count_huge_host-np2 runtime_large_count_huge_device-np2)
    if(TEST ${t})
      set_tests_properties(${t} PROPERTIES LABELS "mpi;large" RUN_SERIAL TRUE TIMEOUT 300)
    endif()
  endforeach()
endif()
