// A Python view of NumpyRandom's draws, so tests can compare them with numpy.
#ifndef ENVPOOL_PYTHON_PY_NUMPY_RANDOM_H_
#define ENVPOOL_PYTHON_PY_NUMPY_RANDOM_H_

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "envpool/numpy/random.h"

namespace envpool::python {

// _numpy_random_draws(seed, calls): one NumpyRandom seeded with `seed` makes
// the calls in order; each is ("random",), ("uniform", low, high),
// ("integers", low, high), ("raw",), ("categorical", [p0, p1, ...]) or
// ("shuffle", n), which shuffles the list [0, ..., n - 1].
inline void RegisterNumpyRandomForTests(pybind11::module_& m) {
  namespace py = pybind11;
  m.def(
      "_numpy_random_draws",
      [](std::uint64_t seed, const std::vector<py::tuple>& calls) {
        NumpyRandom rng(seed);
        py::list out;
        for (const py::tuple& call : calls) {
          const auto name = call[0].cast<std::string>();
          if (name == "random") {
            out.append(rng.Random());
          } else if (name == "uniform") {
            out.append(
                rng.Uniform(call[1].cast<double>(), call[2].cast<double>()));
          } else if (name == "integers") {
            out.append(rng.Integers(call[1].cast<std::int64_t>(),
                                    call[2].cast<std::int64_t>()));
          } else if (name == "raw") {
            out.append(rng.NextUint64());
          } else if (name == "categorical") {
            const auto probs = call[1].cast<std::vector<double>>();
            out.append(rng.Categorical(probs));
          } else if (name == "shuffle") {
            std::vector<std::int64_t> items(call[1].cast<std::size_t>());
            for (std::size_t i = 0; i < items.size(); ++i) {
              items[i] = static_cast<std::int64_t>(i);
            }
            rng.Shuffle(std::span<std::int64_t>(items));
            out.append(py::cast(items));
          } else {
            throw std::invalid_argument("unknown NumpyRandom call '" + name +
                                        "'");
          }
        }
        return out;
      },
      py::arg("seed"), py::arg("calls"));
}

}  // namespace envpool::python

#endif  // ENVPOOL_PYTHON_PY_NUMPY_RANDOM_H_
