# The MuJoCo C library, from the `mujoco` wheel on the package index: the
# wheel carries mujoco/include and mujoco/libmujoco.so.<version>. It is a
# build requirement (pyproject.toml), so the Python running the build has it.
# The extension is linked against that file and finds it at run time through
# its RUNPATH ($ORIGIN/../mujoco: both packages sit in one site-packages);
# envpool.families.mujoco.tasks also loads it by full path before importing the
# extension, which covers layouts where the two are apart.

set(ENVPOOL_MUJOCO_VERSION 3.17.0)

execute_process(
  COMMAND "${Python_EXECUTABLE}" -c
          "import importlib.metadata as m, importlib.util as u; print(m.version('mujoco')); print(u.find_spec('mujoco').submodule_search_locations[0])"
  RESULT_VARIABLE _mujoco_result
  OUTPUT_VARIABLE _mujoco_output
  ERROR_VARIABLE _mujoco_error
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _mujoco_result EQUAL 0)
  message(FATAL_ERROR
    "The MuJoCo tasks need the mujoco==${ENVPOOL_MUJOCO_VERSION} package in "
    "the Python that builds envpool (${Python_EXECUTABLE}): "
    "pip install mujoco==${ENVPOOL_MUJOCO_VERSION}\n${_mujoco_error}")
endif()
string(REPLACE "\n" ";" _mujoco_output "${_mujoco_output}")
list(GET _mujoco_output 0 _mujoco_found_version)
list(GET _mujoco_output 1 ENVPOOL_MUJOCO_PACKAGE_DIR)
if(NOT _mujoco_found_version VERSION_EQUAL ENVPOOL_MUJOCO_VERSION)
  message(FATAL_ERROR
    "envpool pins mujoco==${ENVPOOL_MUJOCO_VERSION}, but the build Python has "
    "mujoco ${_mujoco_found_version}: pip install mujoco==${ENVPOOL_MUJOCO_VERSION}")
endif()

set(_mujoco_library
    "${ENVPOOL_MUJOCO_PACKAGE_DIR}/libmujoco.so.${ENVPOOL_MUJOCO_VERSION}")
if(NOT EXISTS "${_mujoco_library}"
   OR NOT EXISTS "${ENVPOOL_MUJOCO_PACKAGE_DIR}/include/mujoco/mujoco.h")
  message(FATAL_ERROR
    "${ENVPOOL_MUJOCO_PACKAGE_DIR} lacks libmujoco.so.${ENVPOOL_MUJOCO_VERSION} "
    "or include/mujoco/mujoco.h; reinstall mujoco==${ENVPOOL_MUJOCO_VERSION}")
endif()

add_library(envpool_mujoco SHARED IMPORTED)
set_target_properties(envpool_mujoco PROPERTIES
  IMPORTED_LOCATION "${_mujoco_library}"
  IMPORTED_SONAME "libmujoco.so.${ENVPOOL_MUJOCO_VERSION}"
  INTERFACE_INCLUDE_DIRECTORIES "${ENVPOOL_MUJOCO_PACKAGE_DIR}/include")
message(STATUS "MuJoCo ${ENVPOOL_MUJOCO_VERSION}: ${ENVPOOL_MUJOCO_PACKAGE_DIR}")
