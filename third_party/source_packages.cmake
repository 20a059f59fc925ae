# The pinned source packages that third_party/*/*.cmake download at configure
# time (the ale-py and box2d-py sdists, a jaxlib wheel for XLA's FFI headers)
# can come from a local folder instead, for offline builds:
#
#   ENVPOOL_SOURCE_PACKAGES  (CMake cache variable or environment variable):
#       a folder holding those files under their published names. When it is
#       set, a missing file is an error rather than a download. Each recipe
#       still checks the sha256 of the file it takes from there.
#
# .ci/build_release --download-sources <dir> fills such a folder; see
# docs/release.md.

include_guard(GLOBAL)

set(ENVPOOL_SOURCE_PACKAGES "$ENV{ENVPOOL_SOURCE_PACKAGES}" CACHE PATH
    "A folder with the pinned ale-py and box2d-py sdists and jaxlib wheel (skips their download)")

# Copies ${ENVPOOL_SOURCE_PACKAGES}/<name of dest> to dest, when that folder is
# set and dest does not exist yet; the caller checks the hash of dest.
function(envpool_local_source_package dest)
  if(NOT ENVPOOL_SOURCE_PACKAGES OR EXISTS "${dest}")
    return()
  endif()
  get_filename_component(_name "${dest}" NAME)
  set(_local "${ENVPOOL_SOURCE_PACKAGES}/${_name}")
  if(NOT EXISTS "${_local}")
    message(FATAL_ERROR
      "ENVPOOL_SOURCE_PACKAGES=${ENVPOOL_SOURCE_PACKAGES} lacks ${_name}")
  endif()
  get_filename_component(_dir "${dest}" DIRECTORY)
  file(MAKE_DIRECTORY "${_dir}")
  message(STATUS "Using ${_local}")
  file(COPY_FILE "${_local}" "${dest}")
endfunction()
