// The MuJoCo tasks, in their own extension module: it links libmujoco from
// the installed `mujoco` package, which the rest of envpool does not need.
#include <pybind11/pybind11.h>

#include "envpool/mujoco/ant.h"
#include "envpool/mujoco/half_cheetah.h"
#include "envpool/mujoco/humanoid.h"
#include "envpool/mujoco/inverted_pendulum.h"
#include "envpool/mujoco/planar_walker.h"
#include "envpool/mujoco/reacher.h"
#include "envpool/mujoco/swimmer.h"
#include "envpool/mujoco_runtime/py_mujoco_module.h"
#include "envpool/numpy/py_numpy_parity.h"
#include "envpool/python/py_env_pool.h"

PYBIND11_MODULE(_mujoco, m) {
  envpool::mujoco_runtime::InitMujocoModule(m);
  envpool::python::RegisterNumpyParity(m);
  namespace mj = envpool::mujoco;
  envpool::python::RegisterEnvs<
      mj::Ant, mj::HalfCheetah, mj::Hopper, mj::Humanoid, mj::HumanoidStandup,
      mj::InvertedDoublePendulum, mj::InvertedPendulum, mj::Pusher, mj::Reacher,
      mj::Swimmer, mj::Walker2d>(m, "Ant", "HalfCheetah", "Hopper", "Humanoid",
                                 "HumanoidStandup", "InvertedDoublePendulum",
                                 "InvertedPendulum", "Pusher", "Reacher",
                                 "Swimmer", "Walker2d");
}
