// What every extension module that links libmujoco does when it loads.
#ifndef ENVPOOL_MUJOCO_RUNTIME_PY_MUJOCO_MODULE_H_
#define ENVPOOL_MUJOCO_RUNTIME_PY_MUJOCO_MODULE_H_

#include <mujoco/mujoco.h>
#include <pybind11/pybind11.h>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace envpool::mujoco_runtime {

// MuJoCo's default error handler exits the process; an error inside an env
// (or while making a render context) becomes an exception instead.
[[noreturn]] inline void ThrowMujocoError(const char* message) {
  throw std::runtime_error(std::string("MuJoCo error: ") + message);
}

// MuJoCo's default warning handler also appends to MUJOCO_LOG.TXT in the
// current folder; warnings go to stderr only.
inline void PrintMujocoWarning(const char* message) {
  std::fprintf(stderr, "MuJoCo warning: %s\n", message);
}

// Checks that the libmujoco loaded is the one compiled against, installs the
// handlers above and sets m.MUJOCO_VERSION.
inline void InitMujocoModule(pybind11::module_& m) {
  if (mj_version() != mjVERSION_HEADER) {
    throw pybind11::import_error(
        "envpool's MuJoCo tasks were built against MuJoCo " +
        std::to_string(mjVERSION_HEADER) + " but libmujoco " +
        std::string(mj_versionString()) +
        " was loaded; pip install the "
        "mujoco version envpool pins (envpool.mujoco_runtime.MUJOCO_VERSION)");
  }
  if (mju_user_error == nullptr) {  // else the mujoco module's own handler
    mju_user_error = &ThrowMujocoError;
  }
  if (mju_user_warning == nullptr) {
    mju_user_warning = &PrintMujocoWarning;
  }
  m.attr("MUJOCO_VERSION") = std::string(mj_versionString());
}

}  // namespace envpool::mujoco_runtime

#endif  // ENVPOOL_MUJOCO_RUNTIME_PY_MUJOCO_MODULE_H_
