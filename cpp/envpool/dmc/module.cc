// The DeepMind Control Suite tasks, in their own extension module (it links
// libmujoco, as envpool._mujoco does). One domain per file in dmc/.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "envpool/dmc/numpy_math.h"
#include "envpool/dmc/register.h"
#include "envpool/mujoco/mujoco_module.h"
#include "envpool/python/py_env_pool.h"

PYBIND11_MODULE(_dmc, m) {
  envpool::mujoco::InitMujocoModule(m);
  m.def(
      "set_numpy_loop",
      [](const std::string& name, std::uintptr_t loop, std::uintptr_t data) {
        if (!envpool::dmc::NumpyMath::Get().Set(name, loop, data)) {
          throw pybind11::value_error("no numpy function " + name +
                                      " is used by the DMC tasks");
        }
      },
      "Installs numpy's float64 inner loop for `name` (envpool.dmc_tasks "
      "calls it once, before any pool is made).");
  m.def(
      "set_numpy_blas",
      [](std::uintptr_t ddot, std::uintptr_t dgemv, bool ilp64) {
        envpool::dmc::NumpyMath::Get().SetBlas(ddot, dgemv, ilp64);
      },
      "Installs the cblas_ddot and cblas_dgemv of numpy's BLAS (ilp64: "
      "64-bit integer arguments).");
  m.attr("NUMPY_FUNCTIONS") = [] {
    pybind11::list names;
    for (auto name : envpool::dmc::kNumpyFuncNames) {
      names.append(std::string(name));
    }
    return names;
  }();
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
