// The Box2D tasks, in their own extension module: only it links the Box2D
// engine (third_party/box2d).
#include <pybind11/pybind11.h>

#include "envpool/box2d/bipedal_walker.h"
#include "envpool/python/py_env_pool.h"

PYBIND11_MODULE(_box2d, m) {
  using envpool::python::RegisterEnv;
  RegisterEnv<envpool::box2d::BipedalWalker>(m, "BipedalWalker");
}
