// gymnasium-robotics' tasks, in their own extension module: like
// envpool._mujoco it links libmujoco from the installed `mujoco` package.
#include <pybind11/pybind11.h>

#include "envpool/mujoco_runtime/py_mujoco_module.h"
#include "envpool/numpy/py_numpy_normal.h"
#include "envpool/numpy/py_numpy_parity.h"
#include "envpool/python/py_env_pool.h"
#include "envpool/robotics/adroit.h"
#include "envpool/robotics/ant_maze.h"
#include "envpool/robotics/fetch.h"
#include "envpool/robotics/hand.h"
#include "envpool/robotics/kitchen.h"
#include "envpool/robotics/point_maze.h"

PYBIND11_MODULE(_robotics, m) {
  envpool::mujoco_runtime::InitMujocoModule(m);
  envpool::python::RegisterNumpyParity(m);
  envpool::python::RegisterNumpyNormal(m);
  namespace rb = envpool::robotics;
  envpool::python::RegisterEnvs<rb::PointMaze, rb::AntMaze, rb::Fetch,
                                rb::AdroitDoor, rb::AdroitHammer, rb::AdroitPen,
                                rb::AdroitRelocate, rb::HandManipulate,
                                rb::HandReach, rb::FrankaKitchen>(
      m, "PointMaze", "AntMaze", "Fetch", "AdroitDoor", "AdroitHammer",
      "AdroitPen", "AdroitRelocate", "HandManipulate", "HandReach",
      "FrankaKitchen");
}
