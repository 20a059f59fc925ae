// The DeepMind Control Suite tasks, in their own extension module (it links
// libmujoco, as envpool._mujoco does). One domain per header in dmc/domains/,
// each registered by its own generated translation unit (domains.cmake).
#include <pybind11/pybind11.h>

#include "envpool/dmc/domain_list.h"
#include "envpool/mujoco_runtime/py_mujoco_module.h"
#include "envpool/numpy/py_numpy_parity.h"

namespace envpool::dmc {

#define ENVPOOL_DMC_DECLARE_REGISTER(Class) \
  void Register##Class(pybind11::module_& m);
ENVPOOL_DMC_DOMAINS(ENVPOOL_DMC_DECLARE_REGISTER)
#undef ENVPOOL_DMC_DECLARE_REGISTER

}  // namespace envpool::dmc

PYBIND11_MODULE(_dmc, m) {
  envpool::mujoco_runtime::InitMujocoModule(m);
  envpool::python::RegisterNumpyParity(m);
#define ENVPOOL_DMC_REGISTER(Class) envpool::dmc::Register##Class(m);
  ENVPOOL_DMC_DOMAINS(ENVPOOL_DMC_REGISTER)
#undef ENVPOOL_DMC_REGISTER
}
