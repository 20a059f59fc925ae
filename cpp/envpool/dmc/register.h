// The DMC domains, one translation unit each, registered into envpool._dmc
// by cpp/envpool/dmc/module.cc. pybind11's module type is only declared here:
// each domain's file includes the binding (envpool/python/py_env_pool.h).
#ifndef ENVPOOL_DMC_REGISTER_H_
#define ENVPOOL_DMC_REGISTER_H_

namespace pybind11 {
class module_;
}  // namespace pybind11

namespace envpool::dmc {

void RegisterAcrobot(pybind11::module_& m);
void RegisterBallInCup(pybind11::module_& m);
void RegisterCartpole(pybind11::module_& m);
void RegisterCheetah(pybind11::module_& m);
void RegisterFinger(pybind11::module_& m);
void RegisterFish(pybind11::module_& m);
void RegisterHopper(pybind11::module_& m);
void RegisterHumanoid(pybind11::module_& m);
void RegisterManipulator(pybind11::module_& m);
void RegisterPendulum(pybind11::module_& m);
void RegisterPointMass(pybind11::module_& m);
void RegisterQuadruped(pybind11::module_& m);
void RegisterReacher(pybind11::module_& m);
void RegisterSwimmer(pybind11::module_& m);
void RegisterWalker(pybind11::module_& m);

}  // namespace envpool::dmc

#endif  // ENVPOOL_DMC_REGISTER_H_
