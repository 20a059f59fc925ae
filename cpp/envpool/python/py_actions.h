// Checking a batch of actions from Python and copying it into the engine.
#ifndef ENVPOOL_PYTHON_PY_ACTIONS_H_
#define ENVPOOL_PYTHON_PY_ACTIONS_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "envpool/core/array_spec.h"

namespace envpool::python {

namespace py = pybind11;

// What the copy needs of a numpy array, read while holding the GIL so that
// the copy itself can run without it.
struct RawArray {
  explicit RawArray(const py::array& array)
      : data(array.data()),
        kind(array.dtype().kind()),
        itemsize(array.itemsize()) {}
  RawArray(const void* data, char kind, py::ssize_t itemsize)
      : data(data), kind(kind), itemsize(itemsize) {}
  const void* data;
  char kind;
  py::ssize_t itemsize;
};

// Calls call(T{}) for the one of `Types` that is `size` bytes wide; false
// if none is.
template <typename... Types, typename Call>
bool CallForSize(py::ssize_t size, Call&& call) {
  return ((size == static_cast<py::ssize_t>(sizeof(Types)) &&
           (call(Types{}), true)) ||
          ...);
}

// Calls fn(const T*) with the array's data typed as its numpy dtype, for
// integer and float dtypes; returns false for any other dtype.
template <typename Fn>
bool VisitNumericArray(const RawArray& array, Fn&& fn) {
  auto call = [&](auto tag) {
    fn(static_cast<const decltype(tag)*>(array.data));
  };
  switch (array.kind) {
    case 'i':
      return CallForSize<std::int8_t, std::int16_t, std::int32_t, std::int64_t>(
          array.itemsize, call);
    case 'u':
      return CallForSize<std::uint8_t, std::uint16_t, std::uint32_t,
                         std::uint64_t>(array.itemsize, call);
    case 'f':
      return CallForSize<float, double>(array.itemsize, call);
    default:
      return false;
  }
}

inline std::string ShapeString(std::span<const py::ssize_t> shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    out += std::to_string(shape[i]);
    if (shape.size() == 1 || i + 1 < shape.size()) {
      out += ',';
    }
    if (i + 1 < shape.size()) {
      out += ' ';
    }
  }
  return out + ")";
}

// Turns `actions` into a C-contiguous numeric array of shape (n, *spec.shape)
// with a dtype of the right kind, or raises TypeError / ValueError.
inline py::array AsActionArray(const py::object& actions, const ArraySpec& spec,
                               std::size_t n) {
  const bool discrete = IsInteger(spec.dtype);
  py::array array = py::array::ensure(actions, py::array::c_style);
  if (!array) {
    PyErr_Clear();
    throw py::type_error(
        "actions must be array-like, got " +
        std::string(py::str(py::type::of(actions).attr("__name__"))));
  }
  if (array.ndim() == 0) {
    // gymnasium's vector envs raise TypeError for a scalar: it is not a batch.
    throw py::type_error("actions must hold one row per env (" +
                         std::to_string(n) +
                         " rows), got a scalar; pass an array such as "
                         "env.action_space.sample()");
  }
  const char kind = array.dtype().kind();
  if (discrete && kind != 'i' && kind != 'u') {
    throw py::type_error("discrete actions need an integer dtype, got " +
                         std::string(py::str(array.dtype())) +
                         "; convert with np.asarray(actions, dtype=np.int64)");
  }
  if (!discrete && kind != 'f') {
    throw py::type_error(
        "continuous actions need a float dtype, got " +
        std::string(py::str(array.dtype())) +
        "; convert with np.asarray(actions, dtype=np.float32)");
  }
  if (kind == 'f' && array.itemsize() != 4 && array.itemsize() != 8) {
    array =
        py::array::ensure(array.attr("astype")("float64"), py::array::c_style);
  }
  std::vector<py::ssize_t> expected{static_cast<py::ssize_t>(n)};
  for (auto d : spec.shape) {
    expected.push_back(static_cast<py::ssize_t>(d));
  }
  const std::span<const py::ssize_t> got(
      array.shape(), static_cast<std::size_t>(array.ndim()));
  if (!std::equal(got.begin(), got.end(), expected.begin(), expected.end())) {
    throw py::value_error("actions must have shape " + ShapeString(expected) +
                          " (one row per env), got " + ShapeString(got));
  }
  return array;
}

// Copies row i of `array` into row_of(i), checking every value first: a
// discrete action must lie in the spec's bounds, a continuous one must be
// finite. Nothing is written unless every value passes.
template <typename Scalar, typename RowOf>
void CopyActions(const RawArray& array, const ArraySpec& spec,
                 std::span<const std::int32_t> env_ids, RowOf row_of) {
  const std::size_t per_env = spec.NumElements();
  const std::size_t n = env_ids.size();
  VisitNumericArray(array, [&](const auto* src) {
    using Src = std::remove_cvref_t<decltype(*src)>;
    if constexpr (std::is_integral_v<Scalar>) {
      const auto low = static_cast<std::int64_t>(spec.low.at(0));
      const auto high = static_cast<std::int64_t>(spec.high.at(0));
      for (std::size_t i = 0; i < n * per_env; ++i) {
        const Src v = src[i];
        bool ok;
        if constexpr (std::is_unsigned_v<Src>) {
          ok = v <= static_cast<std::uint64_t>(
                        std::numeric_limits<std::int64_t>::max()) &&
               static_cast<std::int64_t>(v) >= low &&
               static_cast<std::int64_t>(v) <= high;
        } else {
          ok = static_cast<std::int64_t>(v) >= low &&
               static_cast<std::int64_t>(v) <= high;
        }
        if (!ok) {
          throw py::value_error("action " + std::to_string(v) + " for env " +
                                std::to_string(env_ids[i / per_env]) +
                                " is out of range [" + std::to_string(low) +
                                ", " + std::to_string(high) + "]");
        }
      }
    } else {
      for (std::size_t i = 0; i < n * per_env; ++i) {
        if (!std::isfinite(static_cast<double>(src[i]))) {
          throw py::value_error("action for env " +
                                std::to_string(env_ids[i / per_env]) +
                                " is not finite (NaN or inf)");
        }
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      Scalar* dst = row_of(env_ids[i]);
      const Src* row = src + i * per_env;
      for (std::size_t j = 0; j < per_env; ++j) {
        // int8 actions are small numbers, not characters.
        dst[j] =
            static_cast<Scalar>(row[j]);  // NOLINT(bugprone-signed-char-misuse)
      }
    }
  });
}

}  // namespace envpool::python

#endif  // ENVPOOL_PYTHON_PY_ACTIONS_H_
