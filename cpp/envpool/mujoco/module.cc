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
#include "envpool/python/py_env_pool.h"

PYBIND11_MODULE(_mujoco, m) {
  envpool::mujoco_runtime::InitMujocoModule(m);
  using envpool::python::RegisterEnv;
  namespace mj = envpool::mujoco;
  RegisterEnv<mj::Ant>(m, "Ant");
  RegisterEnv<mj::HalfCheetah>(m, "HalfCheetah");
  RegisterEnv<mj::Hopper>(m, "Hopper");
  RegisterEnv<mj::Humanoid>(m, "Humanoid");
  RegisterEnv<mj::HumanoidStandup>(m, "HumanoidStandup");
  RegisterEnv<mj::InvertedDoublePendulum>(m, "InvertedDoublePendulum");
  RegisterEnv<mj::InvertedPendulum>(m, "InvertedPendulum");
  RegisterEnv<mj::Pusher>(m, "Pusher");
  RegisterEnv<mj::Reacher>(m, "Reacher");
  RegisterEnv<mj::Swimmer>(m, "Swimmer");
  RegisterEnv<mj::Walker2d>(m, "Walker2d");
}
