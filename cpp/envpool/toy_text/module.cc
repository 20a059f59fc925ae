// gymnasium's toy-text tasks: the module envpool._toy_text.
#include <pybind11/pybind11.h>

#include "envpool/python/py_env_pool.h"
#include "envpool/toy_text/blackjack.h"
#include "envpool/toy_text/cliff_walking.h"
#include "envpool/toy_text/frozen_lake.h"
#include "envpool/toy_text/taxi.h"

PYBIND11_MODULE(_toy_text, m) {
  namespace tt = envpool::toy_text;
  envpool::python::RegisterEnvs<tt::Blackjack, tt::FrozenLake, tt::CliffWalking,
                                tt::Taxi>(m, "Blackjack", "FrozenLake",
                                          "CliffWalking", "Taxi");
}
