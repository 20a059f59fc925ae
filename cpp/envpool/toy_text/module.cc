// gymnasium's toy-text tasks: the module envpool._toy_text.
#include <pybind11/pybind11.h>

#include "envpool/python/py_env_pool.h"
#include "envpool/toy_text/blackjack.h"
#include "envpool/toy_text/cliff_walking.h"
#include "envpool/toy_text/frozen_lake.h"
#include "envpool/toy_text/taxi.h"

PYBIND11_MODULE(_toy_text, m) {
  using envpool::python::RegisterEnv;
  namespace tt = envpool::toy_text;
  RegisterEnv<tt::Blackjack>(m, "Blackjack");
  RegisterEnv<tt::FrozenLake>(m, "FrozenLake");
  RegisterEnv<tt::CliffWalking>(m, "CliffWalking");
  RegisterEnv<tt::Taxi>(m, "Taxi");
}
