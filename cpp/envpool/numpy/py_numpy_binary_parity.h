// The hooks envpool.numpy_parity calls on a module whose envs use numpy's
// two-argument kernels (binary_ufuncs.h), beside RegisterNumpyParity's.
#ifndef ENVPOOL_NUMPY_PY_NUMPY_BINARY_PARITY_H_
#define ENVPOOL_NUMPY_PY_NUMPY_BINARY_PARITY_H_

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "envpool/numpy/binary_ufuncs.h"

namespace envpool::python {

// set_numpy_binary_loop and NUMPY_BINARY_FUNCTIONS on `m`.
inline void RegisterNumpyBinaryParity(pybind11::module_& m) {
  m.def(
      "set_numpy_binary_loop",
      [](const std::string& name, std::uintptr_t loop, std::uintptr_t data) {
        if (!NumpyBinaryUfuncs::Get().Set(name, loop, data)) {
          throw pybind11::value_error("no two-argument numpy function " + name +
                                      " is used by this module's envs");
        }
      },
      "Installs numpy's float64 inner loop for the two-argument `name` "
      "(envpool.numpy_parity calls it once, before any pool is made).");
  m.attr("NUMPY_BINARY_FUNCTIONS") = [] {
    pybind11::list names;
    for (auto name : kNumpyBinaryFuncNames) {
      names.append(std::string(name));
    }
    return names;
  }();
}

}  // namespace envpool::python

#endif  // ENVPOOL_NUMPY_PY_NUMPY_BINARY_PARITY_H_
