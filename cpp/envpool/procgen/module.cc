// procgen's 16 games: the module envpool._procgen. The game library itself is
// loaded at run time from procgen's wheel (envpool/procgen_runtime.py).
#include <pybind11/pybind11.h>

#include "envpool/procgen/procgen_env.h"
#include "envpool/python/py_env_pool.h"

PYBIND11_MODULE(_procgen, m) {
  envpool::python::RegisterEnvs<envpool::procgen::ProcgenEnv>(m, "Procgen");
}
