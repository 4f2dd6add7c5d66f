# cmake/TEMPIInstall.cmake: what `cmake --install` puts under the prefix, in one place.
# Include it once, at the end of the top-level CMakeLists.txt (after every add_subdirectory):
#   include(cmake/TEMPIInstall.cmake)
# It installs the programs and libtempi that this build defines (targets that do not exist, e.g.
# the Clang tools with TEMPI_BUILD_TOOL=OFF, are skipped), the public headers, the CMake package
# (find_package(TEMPI) -> TEMPI::tempi, TEMPI_CC, ...) and a pkg-config file (tempi.pc).
# tempi-cc/tempi-cxx install themselves (tool/driver/CMakeLists.txt).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

foreach(program tempi-rewrite tempi-lint tempi-opt tempi-measure)
  if(TARGET ${program})
    install(TARGETS ${program} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

# Public headers: the C ABI and the kernel templates generated code instantiates.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/tempi
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h" PATTERN "*.cuh")

set(TEMPI_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/TEMPI)
if(TARGET tempi)
  # Installed libtempi finds its own dependencies (libcudart, libmpi) through its RUNPATH.
  set_target_properties(tempi PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
  # No install(EXPORT): the package defines TEMPI::tempi itself (TEMPIConfig.cmake.in), so the
  # runtime's build-tree usage requirements (source-tree include paths, static helper libraries
  # linked into libtempi) never leak into the installed package.
  install(TARGETS tempi LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
                        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/TEMPIConfig.cmake.in ${PROJECT_BINARY_DIR}/cmake/TEMPIConfig.cmake
  INSTALL_DESTINATION ${TEMPI_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/TEMPIConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/TEMPIConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/TEMPIConfigVersion.cmake
        DESTINATION ${TEMPI_CMAKE_DIR})

# tempi.pc names its folders relative to its own (${pcfiledir}), so it stays right under any
# prefix given at install time (`cmake --install --prefix`, DESTDIR); an absolute
# CMAKE_INSTALL_<dir> is written as it is.
set(TEMPI_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE "${TEMPI_PC_DIR}")
  set(TEMPI_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH TEMPI_PC_UP "/prefix/${TEMPI_PC_DIR}" "/prefix")
  string(REGEX REPLACE "/$" "" TEMPI_PC_UP "${TEMPI_PC_UP}")
  set(TEMPI_PC_PREFIX "\${pcfiledir}/${TEMPI_PC_UP}")
endif()
foreach(kind LIBDIR INCLUDEDIR BINDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${kind}}")
    set(TEMPI_PC_${kind} "${CMAKE_INSTALL_${kind}}")
  else()
    set(TEMPI_PC_${kind} "\${prefix}/${CMAKE_INSTALL_${kind}}")
  endif()
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/tempi.pc.in ${PROJECT_BINARY_DIR}/cmake/tempi.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cmake/tempi.pc DESTINATION ${TEMPI_PC_DIR})
