# Which env families this build compiles: ENVPOOL_FAMILIES ("all" or a
# comma-separated list of the names below, from the cache or the environment).
# Sets envpool_family_<name> to ON or OFF for each family, and
# ENVPOOL_BUILT_FAMILIES_STRING to the chosen names, comma-separated (compiled
# into envpool._core, read by envpool.registry.built_families()).
#
# Keep the list equal to the folders of envpool/families/ and to
# envpool.registry.BUILTIN_FAMILIES (tests/test_build_families.py checks all three).
set(ENVPOOL_ALL_FAMILIES
    atari box2d classic_control dmc minigrid mpe2 mujoco procgen robotics toy_text)

# Read afresh at every configure, never remembered: a build folder that once built
# a subset builds all families again unless it is asked for the subset again.
if(DEFINED CACHE{ENVPOOL_FAMILIES})  # -DENVPOOL_FAMILIES=... (cmake.define in pip)
  set(ENVPOOL_FAMILIES "$CACHE{ENVPOOL_FAMILIES}")
  unset(ENVPOOL_FAMILIES CACHE)
elseif(DEFINED ENV{ENVPOOL_FAMILIES})
  set(ENVPOOL_FAMILIES "$ENV{ENVPOOL_FAMILIES}")
else()
  set(ENVPOOL_FAMILIES all)
endif()

string(STRIP "${ENVPOOL_FAMILIES}" _envpool_families)
if(_envpool_families STREQUAL "" OR _envpool_families STREQUAL "all")
  set(_envpool_families ${ENVPOOL_ALL_FAMILIES})
else()
  string(REPLACE "," ";" _envpool_families "${_envpool_families}")
  list(TRANSFORM _envpool_families STRIP)
  list(REMOVE_ITEM _envpool_families "")
  foreach(_family IN LISTS _envpool_families)
    if(NOT _family IN_LIST ENVPOOL_ALL_FAMILIES)
      string(REPLACE ";" ", " _known "${ENVPOOL_ALL_FAMILIES}")
      message(FATAL_ERROR
        "ENVPOOL_FAMILIES=${ENVPOOL_FAMILIES}: no family '${_family}'; the families "
        "are ${_known} (or all)")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES _envpool_families)
  list(SORT _envpool_families)
endif()

foreach(_family IN LISTS ENVPOOL_ALL_FAMILIES)
  if(_family IN_LIST _envpool_families)
    set(envpool_family_${_family} ON)
  else()
    set(envpool_family_${_family} OFF)
  endif()
endforeach()
string(REPLACE ";" "," ENVPOOL_BUILT_FAMILIES_STRING "${_envpool_families}")
message(STATUS "envpool: building the families ${ENVPOOL_BUILT_FAMILIES_STRING}")
