// The Atari games (ALE, built from the pinned ale-py sdist): the module
// envpool._atari.
#include <pybind11/pybind11.h>

#include "envpool/atari/atari_env.h"
#include "envpool/python/py_env_pool.h"

PYBIND11_MODULE(_atari, m) {
  envpool::python::RegisterEnv<envpool::atari::AtariEnv>(m, "Atari");
}
