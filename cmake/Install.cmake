# `cmake --install`: the public headers (not *_internal.h, see src/quiver/api.h), libquiver (static and shared), the quiver program, a
# CMake package (find_package(quiver CONFIG): quiver::quiver static, quiver::shared) and
# quiver.pc. The package finds the same Debian libraries the build did.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/quiver DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*_internal.h" EXCLUDE PATTERN "cli" EXCLUDE)
install(TARGETS quiver quiver_shared EXPORT quiverTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS quiver_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT quiverTargets NAMESPACE quiver:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/quiver)

set(QUIVER_CONFIG_USE_MIMALLOC ${QUIVER_USE_MIMALLOC})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/quiverConfig.cmake.in
  ${PROJECT_BINARY_DIR}/quiverConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/quiver)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/quiverConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/quiverConfig.cmake ${PROJECT_BINARY_DIR}/quiverConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/quiver)

# pkg-config: the libraries are private (no public header includes theirs); mimalloc ships no
# .pc file, so it is named in Libs.private. The prefix is found from the file's own place, so
# that `cmake --install --prefix` anywhere gives a working file.
set(QUIVER_PC_REQUIRES_PRIVATE "fmt libzstd snappy liblz4 libdeflate libbrotlienc libbrotlidec zlib simdjson libxxhash lzo2 libpq libcrypto")
set(QUIVER_PC_LIBS_PRIVATE "-pthread")
if(QUIVER_USE_MIMALLOC)
  string(APPEND QUIVER_PC_LIBS_PRIVATE " -lmimalloc")
endif()
file(RELATIVE_PATH QUIVER_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
configure_file(${PROJECT_SOURCE_DIR}/cmake/quiver.pc.in ${PROJECT_BINARY_DIR}/quiver.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/quiver.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
