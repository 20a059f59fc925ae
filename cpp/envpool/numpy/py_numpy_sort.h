// set_numpy_argsort, for a module whose envs sort as np.argsort does
// (sort.h); envpool.numpy_parity calls it with the address it finds in the
// numpy that is loaded.
#ifndef ENVPOOL_NUMPY_PY_NUMPY_SORT_H_
#define ENVPOOL_NUMPY_PY_NUMPY_SORT_H_

#include <pybind11/pybind11.h>

#include <cstdint>

#include "envpool/numpy/sort.h"

namespace envpool::python {

inline void RegisterNumpyArgsort(pybind11::module_& m) {
  m.def(
      "set_numpy_argsort",
      [](std::uintptr_t argsort) { NumpySort::Get().SetArgsort(argsort); },
      "Installs numpy's float64 argsort of the default kind (envpool."
      "numpy_parity calls it once, before any pool is made).");
}

}  // namespace envpool::python

#endif  // ENVPOOL_NUMPY_PY_NUMPY_SORT_H_
