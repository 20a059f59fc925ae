// set_numpy_normal, for a module whose envs draw Generator.normal (normal.h);
// envpool.numpy_parity calls it with the address it finds in numpy.
#ifndef ENVPOOL_NUMPY_PY_NUMPY_NORMAL_H_
#define ENVPOOL_NUMPY_PY_NUMPY_NORMAL_H_

#include <pybind11/pybind11.h>

#include <cstdint>

#include "envpool/numpy/normal.h"

namespace envpool::python {

inline void RegisterNumpyNormal(pybind11::module_& m) {
  m.def(
      "set_numpy_normal",
      [](std::uintptr_t random_normal) {
        NumpyNormal::Get().Set(random_normal);
      },
      "Installs numpy's random_normal(bitgen_t*, loc, scale) (envpool."
      "numpy_parity calls it once, before any pool is made).");
}

}  // namespace envpool::python

#endif  // ENVPOOL_NUMPY_PY_NUMPY_NORMAL_H_
