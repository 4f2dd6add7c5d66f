# The host-mirrored calls (runtime/src/host/InterposeHostMirror.cpp, InterposeP2PMore.cpp;
# docs/runtime.md "Host-mirrored calls"), included by test/e2e/CMakeLists.txt (its *.cmake glob).
#   runtime_host_mirror_device   every call on fake-device buffers (each send/receive placement)
#                                against the plain MPI on host buffers, byte for byte; 2 and 4 ranks
#   runtime_host_mirror_mirror   the same with TEMPI_NO_TYPE_CACHE=1 (the p2p calls' wires mirror)
#   runtime_host_mirror_errors   TEMPI_FAKE_FAIL=copy: MPI_ERR_OTHER, nothing started or leaked
#   runtime_host_mirror_host     host buffers through libtempi (inactive here) vs the plain MPI:
#   runtime_host_mirror_host_active   ... and through the fake-device libtempi (active): identical
#                                transcripts (COMPARE)
if(NOT TARGET tempi_host)
  return()
endif()
set(_hm ${CMAKE_CURRENT_LIST_DIR}/runtime_host_mirror.c)

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
