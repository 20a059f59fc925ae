// The functions envpool.numpy_parity calls on a module whose envs use
// numpy's kernels (ufuncs.h, linalg.h): it hands them the addresses it finds
// in the numpy that is loaded.
#ifndef ENVPOOL_NUMPY_PY_NUMPY_PARITY_H_
#define ENVPOOL_NUMPY_PY_NUMPY_PARITY_H_

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "envpool/numpy/linalg.h"
#include "envpool/numpy/ufuncs.h"

namespace envpool::python {

// set_numpy_loop, set_numpy_blas and NUMPY_FUNCTIONS on `m`.
inline void RegisterNumpyParity(pybind11::module_& m) {
  m.def(
      "set_numpy_loop",
      [](const std::string& name, std::uintptr_t loop, std::uintptr_t data) {
        if (!NumpyUfuncs::Get().Set(name, loop, data)) {
          throw pybind11::value_error("no numpy function " + name +
                                      " is used by this module's envs");
        }
      },
      "Installs numpy's float64 inner loop for `name` (envpool.numpy_parity "
      "calls it once, before any pool is made).");
  m.def(
      "set_numpy_blas",
      [](std::uintptr_t ddot, std::uintptr_t dgemv, std::uintptr_t dgemm,
         bool ilp64) { NumpyBlas::Get().Set(ddot, dgemv, dgemm, ilp64); },
      "Installs the cblas_ddot, cblas_dgemv and cblas_dgemm of numpy's BLAS "
      "(ilp64: 64-bit integer arguments).");
  m.attr("NUMPY_FUNCTIONS") = [] {
    pybind11::list names;
    for (auto name : kNumpyFuncNames) {
      names.append(std::string(name));
    }
    return names;
  }();
}

}  // namespace envpool::python

#endif  // ENVPOOL_NUMPY_PY_NUMPY_PARITY_H_
