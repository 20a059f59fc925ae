// The mpe2 scenarios, as the module envpool._mpe2.
#include "envpool/mpe2/mpe_env.h"
#include "envpool/mpe2/scenarios/simple.h"
#include "envpool/mpe2/scenarios/simple_spread.h"
#include "envpool/python/py_env_pool.h"

PYBIND11_MODULE(_mpe2, m) {
  using envpool::mpe2::MpeEnv;
  envpool::python::RegisterEnv<MpeEnv<envpool::mpe2::SimpleScenario>>(m,
                                                                      "Simple");
  envpool::python::RegisterEnv<MpeEnv<envpool::mpe2::SimpleSpreadScenario>>(
      m, "SimpleSpread");
}
