# The Arcade Learning Environment's C++ library, built from the ale-py source
# distribution on the package index and linked statically into the extension.
#
#   ENVPOOL_ALE_SOURCE_DIR  (CMake cache variable or environment variable):
#       an already unpacked ale-py source tree, for offline builds.
#   ENVPOOL_SOURCE_PACKAGES  (CMake cache variable or environment variable):
#       a folder holding the pinned sdist, ale_py-<version>.tar.gz, which is
#       used instead of downloading it (its sha256 is still checked).
# Otherwise the pinned sdist is fetched with pip and its sha256 checked.

set(ENVPOOL_ALE_VERSION 0.12.1)
set(ENVPOOL_ALE_SHA256
    c503d574c5983e1063b451201ccb779d935919c0f6bf116fb0f4f8aa4c86d249)

include("${CMAKE_CURRENT_LIST_DIR}/../source_packages.cmake")

set(ENVPOOL_ALE_SOURCE_DIR "$ENV{ENVPOOL_ALE_SOURCE_DIR}" CACHE PATH
    "An unpacked ale-py ${ENVPOOL_ALE_VERSION} source tree (skips the download)")

if(NOT ENVPOOL_ALE_SOURCE_DIR)
  set(_ale_dir "${CMAKE_BINARY_DIR}/_deps/ale-py")
  set(_ale_sdist "${_ale_dir}/ale_py-${ENVPOOL_ALE_VERSION}.tar.gz")
  envpool_local_source_package("${_ale_sdist}")
  if(NOT EXISTS "${_ale_sdist}")
    message(STATUS "Fetching the ale-py ${ENVPOOL_ALE_VERSION} sdist with pip")
    execute_process(
      COMMAND "${Python_EXECUTABLE}" -m pip download --no-binary ale-py
              --no-deps --no-build-isolation --disable-pip-version-check
              "ale-py==${ENVPOOL_ALE_VERSION}" -d "${_ale_dir}"
      RESULT_VARIABLE _ale_result
      OUTPUT_VARIABLE _ale_output
      ERROR_VARIABLE _ale_output)
    if(NOT _ale_result EQUAL 0 OR NOT EXISTS "${_ale_sdist}")
      message(FATAL_ERROR
        "Could not download ale-py==${ENVPOOL_ALE_VERSION} with pip:\n"
        "${_ale_output}\n"
        "For an offline build, unpack that sdist and set "
        "ENVPOOL_ALE_SOURCE_DIR to its folder.")
    endif()
  endif()
  file(SHA256 "${_ale_sdist}" _ale_hash)
  if(NOT _ale_hash STREQUAL ENVPOOL_ALE_SHA256)
    file(REMOVE "${_ale_sdist}")
    message(FATAL_ERROR "ale-py sdist hash mismatch: got ${_ale_hash}, "
                        "expected ${ENVPOOL_ALE_SHA256}")
  endif()
  set(ENVPOOL_ALE_SOURCE_DIR "${_ale_dir}/ale_py-${ENVPOOL_ALE_VERSION}")
  if(NOT EXISTS "${ENVPOOL_ALE_SOURCE_DIR}/CMakeLists.txt")
    file(ARCHIVE_EXTRACT INPUT "${_ale_sdist}" DESTINATION "${_ale_dir}")
  endif()
endif()

if(NOT EXISTS "${ENVPOOL_ALE_SOURCE_DIR}/src/ale/ale_interface.hpp")
  message(FATAL_ERROR
    "ENVPOOL_ALE_SOURCE_DIR=${ENVPOOL_ALE_SOURCE_DIR} is not an ale-py source tree")
endif()

# ALE's options: the C++ library only, no Python module, no SDL.
set(BUILD_CPP_LIB ON CACHE BOOL "" FORCE)
set(BUILD_PYTHON_LIB OFF CACHE BOOL "" FORCE)
set(SDL_SUPPORT OFF CACHE BOOL "" FORCE)
set(BUILD_VECTOR_LIB OFF CACHE BOOL "" FORCE)
set(BUILD_VECTOR_XLA_LIB OFF CACHE BOOL "" FORCE)

# Its symbols stay inside the extension, so that ale_py's own copy of ALE can
# live in the same process.
set(CMAKE_CXX_VISIBILITY_PRESET hidden)
set(CMAKE_VISIBILITY_INLINES_HIDDEN ON)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
set(BUILD_SHARED_LIBS OFF)

add_subdirectory("${ENVPOOL_ALE_SOURCE_DIR}" "${CMAKE_BINARY_DIR}/_deps/ale-build"
                 EXCLUDE_FROM_ALL SYSTEM)

# ALE builds with link-time optimisation in release mode; its archive needs
# the same when it is linked into the extension.
add_library(envpool_ale INTERFACE)
target_link_libraries(envpool_ale INTERFACE ale-lib)
target_include_directories(envpool_ale SYSTEM INTERFACE
  "${ENVPOOL_ALE_SOURCE_DIR}/src"
  "${CMAKE_BINARY_DIR}/_deps/ale-build/src/ale")
