// gymnasium's classic-control tasks: the module envpool._classic_control.
#include <pybind11/pybind11.h>

#include "envpool/classic_control/acrobot.h"
#include "envpool/classic_control/cartpole.h"
#include "envpool/classic_control/mountain_car.h"
#include "envpool/classic_control/mountain_car_continuous.h"
#include "envpool/classic_control/pendulum.h"
#include "envpool/python/py_env_pool.h"

PYBIND11_MODULE(_classic_control, m) {
  namespace cc = envpool::classic_control;
  envpool::python::RegisterEnvs<cc::CartPole, cc::Pendulum, cc::MountainCar,
                                cc::MountainCarContinuous, cc::Acrobot>(
      m, "CartPole", "Pendulum", "MountainCar", "MountainCarContinuous",
      "Acrobot");
}
