// The env ids and seeds of a call from Python, checked and converted.
#ifndef ENVPOOL_PYTHON_PY_ARGS_H_
#define ENVPOOL_PYTHON_PY_ARGS_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "envpool/core/pool_options.h"

namespace envpool::python {

namespace py = pybind11;

// The env ids `env_ids` names, each in [0, all.size()); None: `all`.
inline std::vector<std::int32_t> EnvIdsFrom(
    const py::object& env_ids, const std::vector<std::int32_t>& all) {
  if (env_ids.is_none()) {
    return all;
  }
  const auto num_envs = static_cast<std::int64_t>(all.size());
  py::array array = py::array::ensure(env_ids, py::array::c_style);
  if (!array || (array.dtype().kind() != 'i' && array.dtype().kind() != 'u')) {
    PyErr_Clear();
    throw py::type_error("env_id must be an integer array or list");
  }
  if (array.ndim() > 1) {
    throw py::value_error("env_id must be one-dimensional");
  }
  array = array.attr("astype")("int64").cast<py::array>();
  const auto* data = static_cast<const std::int64_t*>(array.data());
  std::vector<std::int32_t> ids(static_cast<std::size_t>(array.size()));
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (data[i] < 0 || data[i] >= num_envs) {
      throw py::index_error("env_id " + std::to_string(data[i]) +
                            " is out of range [0, " + std::to_string(num_envs) +
                            ")");
    }
    ids[i] = static_cast<std::int32_t>(data[i]);
  }
  return ids;
}

// None: keep each env's generator; an int s: env id gets EnvSeed(s, id);
// a sequence: one seed (or None) per env of the call.
inline std::vector<std::optional<std::uint64_t>> SeedsFrom(
    const py::object& seeds, const std::vector<std::int32_t>& ids) {
  const std::size_t n = ids.size();
  std::vector<std::optional<std::uint64_t>> out(n);
  if (seeds.is_none()) {
    return out;
  }
  auto to_seed = [](const py::handle& value) -> std::uint64_t {
    if (py::isinstance<py::bool_>(value) || !py::hasattr(value, "__index__")) {
      throw py::type_error("a seed must be an int or None");
    }
    py::int_ as_int =
        py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr()));
    if (as_int < py::int_(0)) {
      throw py::value_error("seeds must be non-negative, got " +
                            std::string(py::str(as_int)));
    }
    return as_int.cast<std::uint64_t>();
  };
  if (py::hasattr(seeds, "__index__") && !py::isinstance<py::bool_>(seeds)) {
    const std::uint64_t base = to_seed(seeds);
    for (std::size_t i = 0; i < n; ++i) {
      out[i] = EnvSeed(base, ids[i]);
    }
    return out;
  }
  if (!py::isinstance<py::sequence>(seeds) &&
      !py::isinstance<py::array>(seeds)) {
    throw py::type_error("seed must be None, an int, or a list of ints");
  }
  auto values = py::list(seeds);
  if (values.size() != n) {
    throw py::value_error("got " + std::to_string(values.size()) +
                          " seeds for " + std::to_string(n) + " envs");
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!values[i].is_none()) {
      out[i] = to_seed(values[i]);
    }
  }
  return out;
}

}  // namespace envpool::python

#endif  // ENVPOOL_PYTHON_PY_ARGS_H_
