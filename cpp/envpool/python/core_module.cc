// envpool._core: the engine's own bindings, shared by every env module
// (worker groups for thread pools, pool-option resolution, and the numpy
// random hooks the tests compare against numpy, and which families this build
// compiled). No envs live here: each family has its own module in
// cpp/envpool/<family>/module.cc.
#include <pybind11/pybind11.h>

#include "envpool/python/py_env_pool.h"
#include "envpool/python/py_numpy_random.h"

// Set by CMakeLists.txt (cmake/families.cmake); an out-of-tree build of this
// file without them reports every family.
#ifndef ENVPOOL_BUILT_FAMILIES
#define ENVPOOL_BUILT_FAMILIES "all"
#endif
#ifndef ENVPOOL_SOURCE_DIR
#define ENVPOOL_SOURCE_DIR ""
#endif

PYBIND11_MODULE(_core, m) {
  envpool::python::BindWorkerGroups(m);
  envpool::python::RegisterNumpyRandomForTests(m);
  // The families compiled into this install (ENVPOOL_FAMILIES at build time),
  // comma-separated, and the source folder it was built from.
  m.attr("BUILT_FAMILIES") = ENVPOOL_BUILT_FAMILIES;
  m.attr("SOURCE_DIR") = ENVPOOL_SOURCE_DIR;
}
