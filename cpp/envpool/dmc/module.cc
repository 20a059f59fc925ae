// The DeepMind Control Suite tasks, in their own extension module (it links
// libmujoco, as envpool._mujoco does). One domain per file in dmc/.
#include <pybind11/pybind11.h>

#include "envpool/dmc/register.h"
#include "envpool/mujoco_runtime/py_mujoco_module.h"
#include "envpool/numpy/py_numpy_parity.h"
#include "envpool/python/py_env_pool.h"

PYBIND11_MODULE(_dmc, m) {
  envpool::mujoco_runtime::InitMujocoModule(m);
  envpool::python::RegisterNumpyParity(m);
  namespace dmc = envpool::dmc;
  dmc::RegisterAcrobot(m);
  dmc::RegisterBallInCup(m);
  dmc::RegisterCartpole(m);
  dmc::RegisterCheetah(m);
  dmc::RegisterFinger(m);
  dmc::RegisterHopper(m);
  dmc::RegisterWalker(m);
  dmc::RegisterPendulum(m);
  dmc::RegisterPointMass(m);
  dmc::RegisterReacher(m);
  dmc::RegisterFish(m);
  dmc::RegisterSwimmer(m);
  dmc::RegisterHumanoid(m);
  dmc::RegisterManipulator(m);
  dmc::RegisterQuadruped(m);
}
