// The MuJoCo tasks, in their own extension module: it links libmujoco from
// the installed `mujoco` package, which the rest of envpool does not need.
#include <mujoco/mujoco.h>
#include <pybind11/pybind11.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "envpool/mujoco/ant.h"
#include "envpool/mujoco/half_cheetah.h"
#include "envpool/mujoco/humanoid.h"
#include "envpool/mujoco/inverted_pendulum.h"
#include "envpool/mujoco/planar_walker.h"
#include "envpool/mujoco/reacher.h"
#include "envpool/mujoco/swimmer.h"
#include "envpool/python/py_env_pool.h"

namespace {

// MuJoCo's default error handler exits the process; an error inside an env
// (or while making a render context) becomes an exception instead.
[[noreturn]] void ThrowMujocoError(const char* message) {
  throw std::runtime_error(std::string("MuJoCo error: ") + message);
}

// MuJoCo's default warning handler also appends to MUJOCO_LOG.TXT in the
// current folder; warnings go to stderr only.
void PrintMujocoWarning(const char* message) {
  std::fprintf(stderr, "MuJoCo warning: %s\n", message);
}

}  // namespace

PYBIND11_MODULE(_mujoco, m) {
  // The library found at run time must be the one compiled against.
  if (mj_version() != mjVERSION_HEADER) {
    throw pybind11::import_error(
        "envpool's MuJoCo tasks were built against MuJoCo " +
        std::to_string(mjVERSION_HEADER) + " but libmujoco " +
        std::string(mj_versionString()) +
        " was loaded; pip install the "
        "mujoco version envpool pins (envpool.mujoco_tasks.MUJOCO_VERSION)");
  }
  if (mju_user_error == nullptr) {  // else the mujoco module's own handler
    mju_user_error = &ThrowMujocoError;
  }
  if (mju_user_warning == nullptr) {
    mju_user_warning = &PrintMujocoWarning;
  }
  m.attr("MUJOCO_VERSION") = std::string(mj_versionString());
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
