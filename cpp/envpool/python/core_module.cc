// envpool._core: the engine's own bindings, shared by every env module
// (worker groups for thread pools, pool-option resolution, and the numpy
// random hooks the tests compare against numpy). No envs live here: each
// family has its own module in cpp/envpool/<family>/module.cc.
#include <pybind11/pybind11.h>

#include "envpool/python/py_env_pool.h"
#include "envpool/python/py_numpy_random.h"

PYBIND11_MODULE(_core, m) {
  envpool::python::BindWorkerGroups(m);
  envpool::python::RegisterNumpyRandomForTests(m);
}
