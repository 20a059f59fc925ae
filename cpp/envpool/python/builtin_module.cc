// The envs that ship with envpool, registered through the same call an
// out-of-tree env package uses.
#include <pybind11/pybind11.h>

#include "envpool/atari/atari_env.h"
#include "envpool/classic_control/acrobot.h"
#include "envpool/classic_control/cartpole.h"
#include "envpool/classic_control/mountain_car.h"
#include "envpool/classic_control/mountain_car_continuous.h"
#include "envpool/classic_control/pendulum.h"
#include "envpool/python/py_env_pool.h"
#include "envpool/python/py_numpy_random.h"
#include "envpool/toy_text/blackjack.h"
#include "envpool/toy_text/cliff_walking.h"
#include "envpool/toy_text/frozen_lake.h"
#include "envpool/toy_text/taxi.h"

PYBIND11_MODULE(_core, m) {
  using envpool::python::RegisterEnv;
  envpool::python::BindWorkerGroups(m);
  namespace cc = envpool::classic_control;
  RegisterEnv<cc::CartPole>(m, "CartPole");
  RegisterEnv<cc::Pendulum>(m, "Pendulum");
  RegisterEnv<cc::MountainCar>(m, "MountainCar");
  RegisterEnv<cc::MountainCarContinuous>(m, "MountainCarContinuous");
  RegisterEnv<cc::Acrobot>(m, "Acrobot");
  RegisterEnv<envpool::atari::AtariEnv>(m, "Atari");
  namespace tt = envpool::toy_text;
  RegisterEnv<tt::Blackjack>(m, "Blackjack");
  RegisterEnv<tt::FrozenLake>(m, "FrozenLake");
  RegisterEnv<tt::CliffWalking>(m, "CliffWalking");
  RegisterEnv<tt::Taxi>(m, "Taxi");
  envpool::python::RegisterNumpyRandomForTests(m);
}
