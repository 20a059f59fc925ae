// The test-only Python module envpool_fault_env, built by the Python tests
// (tests/fault_env.py) against the installed envpool, never shipped.
#include <pybind11/pybind11.h>

#include "envpool/python/py_env_pool.h"
#include "fault_agents_env.h"
#include "fault_env.h"
#include "text_env.h"

PYBIND11_MODULE(envpool_fault_env, m) {
  envpool::python::RegisterEnv<envpool::testing::FaultEnv>(m, "FaultEnv");
  envpool::python::RegisterEnv<envpool::testing::FaultDictEnv>(m,
                                                               "FaultDictEnv");
  envpool::python::RegisterEnv<envpool::testing::TextEnv>(m, "TextEnv");
  envpool::python::RegisterEnv<envpool::testing::TextDictEnv>(m, "TextDictEnv");
  envpool::python::RegisterEnv<envpool::testing::FaultAgentsEnv>(
      m, "FaultAgentsEnv");
}
