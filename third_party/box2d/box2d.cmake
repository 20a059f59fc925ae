# The Box2D 2.3 C++ engine that gymnasium's Box2D tasks run on, built from the
# box2d-py source distribution on the package index (the sdist gymnasium's
# box2d extra installs on CPython >= 3.14; it carries pybox2d's copy of the
# Box2D C++ sources) and linked statically into envpool._box2d.
#
#   ENVPOOL_BOX2D_SOURCE_DIR  (CMake cache variable or environment variable):
#       an already unpacked box2d-py source tree, for offline builds.
#   ENVPOOL_SOURCE_PACKAGES  (CMake cache variable or environment variable):
#       a folder holding the pinned sdist, box2d-py-<version>.tar.gz, which is
#       used instead of downloading it (its sha256 is still checked).
# Otherwise the pinned sdist is fetched with pip and its sha256 checked.

set(ENVPOOL_BOX2D_VERSION 2.3.8)
set(ENVPOOL_BOX2D_SHA256
    bdacfbbc56079bb317548efe49d3d5a86646885cc27f4a2ee97e4b2960921ab7)

include("${CMAKE_CURRENT_LIST_DIR}/../source_packages.cmake")

set(ENVPOOL_BOX2D_SOURCE_DIR "$ENV{ENVPOOL_BOX2D_SOURCE_DIR}" CACHE PATH
    "An unpacked box2d-py ${ENVPOOL_BOX2D_VERSION} source tree (skips the download)")

if(NOT ENVPOOL_BOX2D_SOURCE_DIR)
  set(_box2d_dir "${CMAKE_BINARY_DIR}/_deps/box2d-py")
  set(_box2d_sdist "${_box2d_dir}/box2d-py-${ENVPOOL_BOX2D_VERSION}.tar.gz")
  envpool_local_source_package("${_box2d_sdist}")
  if(NOT EXISTS "${_box2d_sdist}")
    message(STATUS "Fetching the box2d-py ${ENVPOOL_BOX2D_VERSION} sdist with pip")
    execute_process(
      COMMAND "${Python_EXECUTABLE}" -m pip download --no-binary box2d-py
              --no-deps --no-build-isolation --disable-pip-version-check
              "box2d-py==${ENVPOOL_BOX2D_VERSION}" -d "${_box2d_dir}"
      RESULT_VARIABLE _box2d_result
      OUTPUT_VARIABLE _box2d_output
      ERROR_VARIABLE _box2d_output)
    if(NOT _box2d_result EQUAL 0 OR NOT EXISTS "${_box2d_sdist}")
      message(FATAL_ERROR
        "Could not download box2d-py==${ENVPOOL_BOX2D_VERSION} with pip:\n"
        "${_box2d_output}\n"
        "For an offline build, unpack that sdist and set "
        "ENVPOOL_BOX2D_SOURCE_DIR to its folder.")
    endif()
  endif()
  file(SHA256 "${_box2d_sdist}" _box2d_hash)
  if(NOT _box2d_hash STREQUAL ENVPOOL_BOX2D_SHA256)
    file(REMOVE "${_box2d_sdist}")
    message(FATAL_ERROR "box2d-py sdist hash mismatch: got ${_box2d_hash}, "
                        "expected ${ENVPOOL_BOX2D_SHA256}")
  endif()
  set(ENVPOOL_BOX2D_SOURCE_DIR "${_box2d_dir}/box2d-py-${ENVPOOL_BOX2D_VERSION}")
  if(NOT EXISTS "${ENVPOOL_BOX2D_SOURCE_DIR}/Box2D/Box2D.h")
    file(ARCHIVE_EXTRACT INPUT "${_box2d_sdist}" DESTINATION "${_box2d_dir}")
  endif()
endif()

if(NOT EXISTS "${ENVPOOL_BOX2D_SOURCE_DIR}/Box2D/Box2D.h")
  message(FATAL_ERROR
    "ENVPOOL_BOX2D_SOURCE_DIR=${ENVPOOL_BOX2D_SOURCE_DIR} is not a box2d-py source tree")
endif()

# box2d-py's b2Settings.h reports a failed b2Assert through CPython's error
# indicator before throwing b2AssertException. envpool steps Box2D on worker
# threads without the GIL, so the build uses a copy of that one header with
# the CPython call taken out: the exception alone reports the failure, and the
# env turns it into a Python error. Every source includes it as
# <Box2D/Common/b2Settings.h>, so the overlay folder, searched first, wins.
set(_box2d_overlay "${CMAKE_BINARY_DIR}/_deps/box2d-overlay")
file(READ "${ENVPOOL_BOX2D_SOURCE_DIR}/Box2D/Common/b2Settings.h" _box2d_settings)
string(REPLACE "#include <Python.h>" "" _box2d_settings "${_box2d_settings}")
string(REPLACE "PyErr_SetString(PyExc_AssertionError, #A); " ""
       _box2d_settings "${_box2d_settings}")
if(_box2d_settings MATCHES "Py[A-Z]")
  message(FATAL_ERROR "b2Settings.h of box2d-py ${ENVPOOL_BOX2D_VERSION} still "
                      "calls CPython after the overlay edit; update box2d.cmake")
endif()
file(MAKE_DIRECTORY "${_box2d_overlay}/Box2D/Common")
file(WRITE "${_box2d_overlay}/b2Settings.h.new" "${_box2d_settings}")
file(COPY_FILE "${_box2d_overlay}/b2Settings.h.new"
     "${_box2d_overlay}/Box2D/Common/b2Settings.h" ONLY_IF_DIFFERENT)

# The C++ engine only (not the SWIG wrapper), the same source folders that
# box2d-py's setup.py compiles.
file(GLOB _box2d_sources CONFIGURE_DEPENDS
  "${ENVPOOL_BOX2D_SOURCE_DIR}/Box2D/Collision/*.cpp"
  "${ENVPOOL_BOX2D_SOURCE_DIR}/Box2D/Collision/Shapes/*.cpp"
  "${ENVPOOL_BOX2D_SOURCE_DIR}/Box2D/Common/*.cpp"
  "${ENVPOOL_BOX2D_SOURCE_DIR}/Box2D/Dynamics/*.cpp"
  "${ENVPOOL_BOX2D_SOURCE_DIR}/Box2D/Dynamics/Contacts/*.cpp"
  "${ENVPOOL_BOX2D_SOURCE_DIR}/Box2D/Dynamics/Joints/*.cpp")
add_library(envpool_box2d_engine STATIC ${_box2d_sources})
target_include_directories(envpool_box2d_engine SYSTEM BEFORE PUBLIC
  "${_box2d_overlay}" "${ENVPOOL_BOX2D_SOURCE_DIR}")
# Same float arithmetic as the wheel's build: no fused multiply-add, no
# fast-math; its symbols stay inside the extension, so the box2d wheel's own
# copy can live in the same process.
target_compile_options(envpool_box2d_engine PRIVATE -O2 -ffp-contract=off -w)
set_target_properties(envpool_box2d_engine PROPERTIES
  POSITION_INDEPENDENT_CODE ON
  CXX_VISIBILITY_PRESET hidden
  VISIBILITY_INLINES_HIDDEN ON)
