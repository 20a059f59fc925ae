# XLA's FFI API (three headers, xla/ffi/api/{api,c_api,ffi}.h), which the
# handlers of envpool._xla compile against. jaxlib publishes them in its wheels
# (jax.ffi.include_dir()); jax itself is needed only at run time.
#
# The headers are those of the OLDEST jaxlib that envpool.xla supports (XLA FFI
# API 0.1): XLA refuses a handler built against a newer FFI API than its own,
# and accepts older ones (XLA keeps old FFI API versions working for at least a
# year), so handlers built against 0.5.0's headers register with every jaxlib
# from 0.5.0 on (docs/jax.md: the supported range and why 0.5.0).
#
#   ENVPOOL_XLA_FFI_INCLUDE_DIR  (CMake cache variable or environment variable):
#       a folder holding xla/ffi/api/ffi.h, for offline builds (for example
#       the output of `python -c "import jax.ffi; print(jax.ffi.include_dir())"`),
#       or to build against another jaxlib's headers (the handlers then work
#       with that jaxlib and newer ones only).
#   ENVPOOL_SOURCE_PACKAGES  (CMake cache variable or environment variable):
#       a folder holding the pinned jaxlib wheel named below, which is used
#       instead of downloading it (its sha256 is still checked).
# Otherwise the build Python's jaxlib is used when its headers are the pinned
# ones, else the pinned jaxlib wheel is fetched with pip, its sha256 checked,
# and the headers unpacked from it.

# Keep equal to OLDEST_JAX in envpool/xla.py.
set(ENVPOOL_JAXLIB_VERSION 0.5.0)
# Any wheel of that version carries the same headers; this one is fetched.
set(ENVPOOL_JAXLIB_PLATFORM manylinux2014_x86_64)
set(ENVPOOL_JAXLIB_WHEEL
    "jaxlib-${ENVPOOL_JAXLIB_VERSION}-cp312-cp312-${ENVPOOL_JAXLIB_PLATFORM}.whl")
set(ENVPOOL_JAXLIB_WHEEL_SHA256
    f980c733e98c998a8da87c9a8cc61b6726d0be667a58bd664c1d717b4b4eae75)
set(_xla_ffi_header_sha256
    "api.h=24acf4f77885d8e06de09800c7dab9d3b41955e079ff5efd7b1ee7f00c49fed0"
    "c_api.h=c913f5a5b488bd0ee43b0f50bfffdc939409d758a46b21f70f74bd71de92c60a"
    "ffi.h=569a5ad04256b8a6bf3c8bb8d3477336672a7b613cc51af803660e8aa89b098f")

include("${CMAKE_CURRENT_LIST_DIR}/../source_packages.cmake")

set(ENVPOOL_XLA_FFI_INCLUDE_DIR "$ENV{ENVPOOL_XLA_FFI_INCLUDE_DIR}" CACHE PATH
    "A folder with XLA's FFI headers, xla/ffi/api/ffi.h (skips the download)")

# Sets ${out} to TRUE when ${dir}/xla/ffi/api holds the pinned headers.
function(_envpool_pinned_xla_headers dir out)
  set(${out} TRUE PARENT_SCOPE)
  foreach(entry IN LISTS _xla_ffi_header_sha256)
    string(REPLACE "=" ";" entry "${entry}")
    list(GET entry 0 header)
    list(GET entry 1 expected)
    set(path "${dir}/xla/ffi/api/${header}")
    if(NOT EXISTS "${path}")
      set(${out} FALSE PARENT_SCOPE)
      return()
    endif()
    file(SHA256 "${path}" hash)
    if(NOT hash STREQUAL expected)
      set(${out} FALSE PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

if(NOT ENVPOOL_XLA_FFI_INCLUDE_DIR)
  execute_process(
    COMMAND "${Python_EXECUTABLE}" -c
            "import jax.ffi; print(jax.ffi.include_dir())"
    RESULT_VARIABLE _jax_result
    OUTPUT_VARIABLE _jax_include
    ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_jax_result EQUAL 0)
    _envpool_pinned_xla_headers("${_jax_include}" _jax_pinned)
    if(_jax_pinned)
      set(ENVPOOL_XLA_FFI_INCLUDE_DIR "${_jax_include}")
    endif()
  endif()
endif()

if(NOT ENVPOOL_XLA_FFI_INCLUDE_DIR)
  set(_jaxlib_dir "${CMAKE_BINARY_DIR}/_deps/jaxlib")
  set(_jaxlib_wheel "${_jaxlib_dir}/${ENVPOOL_JAXLIB_WHEEL}")
  envpool_local_source_package("${_jaxlib_wheel}")
  if(NOT EXISTS "${_jaxlib_wheel}")
    message(STATUS "Fetching the jaxlib ${ENVPOOL_JAXLIB_VERSION} wheel with pip "
                   "(for XLA's FFI headers)")
    execute_process(
      COMMAND "${Python_EXECUTABLE}" -m pip download --no-deps
              --only-binary=:all: --python-version 3.12
              --platform "${ENVPOOL_JAXLIB_PLATFORM}" --disable-pip-version-check
              "jaxlib==${ENVPOOL_JAXLIB_VERSION}" -d "${_jaxlib_dir}"
      RESULT_VARIABLE _jaxlib_result
      OUTPUT_VARIABLE _jaxlib_output
      ERROR_VARIABLE _jaxlib_output)
    if(NOT _jaxlib_result EQUAL 0 OR NOT EXISTS "${_jaxlib_wheel}")
      message(FATAL_ERROR
        "Could not download jaxlib==${ENVPOOL_JAXLIB_VERSION} with pip:\n"
        "${_jaxlib_output}\n"
        "For an offline build, set ENVPOOL_XLA_FFI_INCLUDE_DIR to a folder "
        "with xla/ffi/api/ffi.h (jax.ffi.include_dir() of jaxlib "
        "${ENVPOOL_JAXLIB_VERSION}).")
    endif()
  endif()
  file(SHA256 "${_jaxlib_wheel}" _jaxlib_hash)
  if(NOT _jaxlib_hash STREQUAL ENVPOOL_JAXLIB_WHEEL_SHA256)
    file(REMOVE "${_jaxlib_wheel}")
    message(FATAL_ERROR "jaxlib wheel hash mismatch: got ${_jaxlib_hash}, "
                        "expected ${ENVPOOL_JAXLIB_WHEEL_SHA256}")
  endif()
  if(NOT EXISTS "${_jaxlib_dir}/jaxlib/include/xla/ffi/api/ffi.h")
    file(ARCHIVE_EXTRACT INPUT "${_jaxlib_wheel}" DESTINATION "${_jaxlib_dir}"
         PATTERNS "jaxlib/include/xla/ffi/api/*")
  endif()
  set(ENVPOOL_XLA_FFI_INCLUDE_DIR "${_jaxlib_dir}/jaxlib/include")
  _envpool_pinned_xla_headers("${ENVPOOL_XLA_FFI_INCLUDE_DIR}" _wheel_pinned)
  if(NOT _wheel_pinned)
    message(FATAL_ERROR "the FFI headers in ${_jaxlib_wheel} are not the pinned ones")
  endif()
endif()

if(NOT EXISTS "${ENVPOOL_XLA_FFI_INCLUDE_DIR}/xla/ffi/api/ffi.h")
  message(FATAL_ERROR
    "ENVPOOL_XLA_FFI_INCLUDE_DIR=${ENVPOOL_XLA_FFI_INCLUDE_DIR} lacks xla/ffi/api/ffi.h")
endif()
message(STATUS "XLA FFI headers: ${ENVPOOL_XLA_FFI_INCLUDE_DIR}")

add_library(envpool_xla_ffi INTERFACE)
# SYSTEM: the headers' own warnings are not envpool's.
target_include_directories(envpool_xla_ffi SYSTEM INTERFACE
  "${ENVPOOL_XLA_FFI_INCLUDE_DIR}")
