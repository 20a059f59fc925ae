// The Python module envpool loads GridWorld from:
// envpool_gridworld._gridworld.GridWorld.
#include "gridworld.h"

#include <pybind11/pybind11.h>

#include "envpool/python/py_env_pool.h"

PYBIND11_MODULE(_gridworld, m) {
  envpool::python::RegisterEnv<gridworld::GridWorld>(m, "GridWorld");
}
