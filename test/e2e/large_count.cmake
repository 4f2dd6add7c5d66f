# The MPI-4 large-count (_c) interposers (runtime/src/host/InterposeLargeCount.cpp), included from
# test/e2e/CMakeLists.txt. Only where the MPI has the _c calls (MPI_VERSION >= 4: MPICH 4, not
# Open MPI 4.1/5.0), which is when libtempi defines them (TEMPI_HAVE_LARGE_COUNT in tempi.h).
include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_LIBRARIES MPI::MPI_C)
check_c_source_compiles("
#include <mpi.h>
#if !defined(MPI_VERSION) || MPI_VERSION < 4
#error no MPI-4 large-count calls
#endif
int main(void) { return MPI_Send_c(0, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD); }" TEMPI_MPI_HAS_LARGE_COUNT)
unset(CMAKE_REQUIRED_LIBRARIES)

if(NOT TEMPI_MPI_HAS_LARGE_COUNT)
  message(STATUS "e2e: large-count (_c) tests skipped (the MPI has no MPI-4 _c calls)")
elseif(TARGET tempi_host) # tempi_fakedev (defined in CMakeLists.txt after this file) exists too
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
