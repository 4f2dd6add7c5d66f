# End-to-end tests of tempi-rewrite (tool/clang), included by test/e2e/CMakeLists.txt. Each
# rewrite_* program is rewritten at build time, compiled against libtempi (linked before the MPI),
# run with mpiexec -n 4 on host buffers, and every rank's transcript compared byte for byte with
# the unmodified program's (run_compare.sh). A second test per program fails unless the rewritten
# source really calls the runtime with static plans, so a rewriter that silently stops rewriting
# cannot pass.
if(TARGET tempi-rewrite AND TARGET tempi)
  list(GET MPI_C_INCLUDE_DIRS 0 tempi_rewrite_mpi_include)
  # program | plans the rewritten source must use (lower bound)
  set(tempi_rewrite_e2e
      rewrite_halo3d.c:7 rewrite_transpose.c:1 rewrite_struct_fields.c:1
      rewrite_fortran_subarray.c:1 rewrite_class_types.cpp:1 rewrite_alltoallw.c:4
      rewrite_check_macro.c:2)
  if(TEMPI_MPI_HAS_LARGE_COUNT) # from large_count.cmake, included before this file (sorted glob)
    list(APPEND tempi_rewrite_e2e rewrite_large_count.c:1)
  endif()
  foreach(entry ${tempi_rewrite_e2e})
    string(REPLACE ":" ";" parts ${entry})
    list(GET parts 0 src)
    list(GET parts 1 min_plans)
    get_filename_component(name ${src} NAME_WE)
    get_filename_component(ext ${src} EXT)
    set(out ${CMAKE_CURRENT_BINARY_DIR}/${name}.rewritten${ext})
    set(std_flag -std=c11)
    if(ext STREQUAL ".cpp")
      set(std_flag -std=c++17)
    endif()
    add_custom_command(
      OUTPUT ${out}
      COMMAND tempi-rewrite ${CMAKE_CURRENT_SOURCE_DIR}/${src} -o ${out} --
              ${std_flag} -I${tempi_rewrite_mpi_include}
      DEPENDS tempi-rewrite ${CMAKE_CURRENT_SOURCE_DIR}/${src}
      COMMENT "tempi-rewrite ${src}" VERBATIM)
    # GCC misreads MPICH's MPI_STATUSES_IGNORE (a null array) as a 0-byte region.
    set(quiet $<$<COMPILE_LANG_AND_ID:C,GNU>:-Wno-stringop-overflow>)
    add_executable(${name} ${out})
    target_compile_options(${name} PRIVATE ${quiet})
    target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/runtime/include)
    target_link_libraries(${name} PRIVATE tempi MPI::MPI_C MPI::MPI_CXX)
    add_executable(${name}-plain ${src})
    target_compile_options(${name}-plain PRIVATE ${quiet})
    target_link_libraries(${name}-plain PRIVATE MPI::MPI_C MPI::MPI_CXX)
    add_test(NAME ${name}-np4
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/run_compare.sh "${MPIEXEC_EXECUTABLE}" 4
                     $<TARGET_FILE:${name}-plain> $<TARGET_FILE:${name}>
                     ${CMAKE_CURRENT_BINARY_DIR}/${name}-np4.out)
    add_test(NAME ${name}-rewritten
             COMMAND ${CMAKE_COMMAND} -DFILE=${out} -DMIN=${min_plans}
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/rewrite/count_plans.cmake)
    set_tests_properties(${name}-np4 ${name}-rewritten PROPERTIES LABELS "mpi;rewrite" TIMEOUT 120)
  endforeach()
endif()
