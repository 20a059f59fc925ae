// gymnasium's classic-control tasks: the module envpool._classic_control.
#include <pybind11/pybind11.h>

#include "envpool/classic_control/acrobot.h"
#include "envpool/classic_control/cartpole.h"
#include "envpool/classic_control/mountain_car.h"
#include "envpool/classic_control/mountain_car_continuous.h"
#include "envpool/classic_control/pendulum.h"
#include "envpool/python/py_env_pool.h"

PYBIND11_MODULE(_classic_control, m) {
  using envpool::python::RegisterEnv;
  namespace cc = envpool::classic_control;
  RegisterEnv<cc::CartPole>(m, "CartPole");
  RegisterEnv<cc::Pendulum>(m, "Pendulum");
  RegisterEnv<cc::MountainCar>(m, "MountainCar");
  RegisterEnv<cc::MountainCarContinuous>(m, "MountainCarContinuous");
  RegisterEnv<cc::Acrobot>(m, "Acrobot");
}
