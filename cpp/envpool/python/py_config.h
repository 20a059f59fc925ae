// Converting env options and specs between Python and C++.
#ifndef ENVPOOL_PYTHON_PY_CONFIG_H_
#define ENVPOOL_PYTHON_PY_CONFIG_H_

#include <pybind11/pybind11.h>

#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"

namespace envpool::python {

namespace py = pybind11;

inline py::object ToPython(const OptionValue& value) {
  return std::visit(
      [](const auto& v) -> py::object {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>,
                                     std::vector<double>>) {
          return py::tuple(py::cast(v));
        } else {
          return py::cast(v);
        }
      },
      value);
}

inline py::dict ToPython(const Config& config) {
  py::dict out;
  for (const auto& [name, value] : config.items()) {
    out[py::str(name)] = ToPython(value);
  }
  return out;
}

inline bool IsSequence(const py::handle& value) {
  return py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value);
}

// Converts `value` to the type of the option's default, or raises TypeError.
inline OptionValue FromPython(const std::string& name, const py::handle& value,
                              const OptionValue& like) {
  auto fail = [&] {
    return py::type_error(
        "option '" + name + "' must be " + std::string(OptionTypeName(like)) +
        ", got " + std::string(py::str(py::type::of(value).attr("__name__"))));
  };
  const bool is_bool =
      py::isinstance<py::bool_>(value) ||
      py::str(py::type::of(value).attr("__name__")).cast<std::string>() ==
          "bool";
  switch (like.index()) {
    case 0:  // bool
      if (!is_bool) {
        throw fail();
      }
      return value.cast<bool>();
    case 1:  // int
      if (is_bool || !py::hasattr(value, "__index__")) {
        throw fail();
      }
      return py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()))
          .cast<std::int64_t>();
    case 2:  // float
      if (is_bool || !(py::hasattr(value, "__float__"))) {
        throw fail();
      }
      return py::reinterpret_steal<py::object>(PyNumber_Float(value.ptr()))
          .cast<double>();
    case 3:  // str; an int is taken as its decimal text (for options such
             // as a body given by name or by id)
      if (!is_bool && py::isinstance<py::int_>(value)) {
        return std::string(py::str(value));
      }
      if (!py::isinstance<py::str>(value)) {
        throw fail();
      }
      return value.cast<std::string>();
    default: {  // tuple of floats (a list or 1-d array does too)
      if (!py::isinstance<py::sequence>(value) ||
          py::isinstance<py::str>(value)) {
        throw fail();
      }
      std::vector<double> values;
      for (const auto& item : py::reinterpret_borrow<py::sequence>(value)) {
        if (py::isinstance<py::bool_>(item) ||
            !py::hasattr(item, "__float__")) {
          throw py::type_error(
              "option '" + name +
              "' must be a tuple of floats, got an item of "
              "type " +
              std::string(py::str(py::type::of(item).attr("__name__"))));
        }
        values.push_back(
            py::reinterpret_steal<py::object>(PyNumber_Float(item.ptr()))
                .cast<double>());
      }
      return values;
    }
  }
}

// Whether `value` gives one value per env: a list or tuple, except that for a
// tuple-of-floats option only a sequence of sequences does.
inline bool IsPerEnv(const py::handle& value, const OptionValue& like) {
  if (!IsSequence(value)) {
    return false;
  }
  if (!std::holds_alternative<std::vector<double>>(like)) {
    return true;
  }
  auto values = py::reinterpret_borrow<py::sequence>(value);
  return !values.empty() && IsSequence(values[0]);
}

// Builds the Config of every env from the defaults and the user's options.
// A list or tuple value gives one value per env (see IsPerEnv).
inline std::vector<Config> MakeConfigs(const Config& defaults,
                                       const py::dict& options, int num_envs) {
  Config shared = defaults;
  std::vector<std::pair<std::string, py::sequence>> per_env;
  for (const auto& [key, value] : options) {
    const auto name = key.cast<std::string>();
    if (!defaults.Contains(name)) {
      throw py::type_error("unknown option '" + name + "'");
    }
    if (IsPerEnv(value, defaults.at(name))) {
      auto values = py::reinterpret_borrow<py::sequence>(value);
      if (static_cast<int>(values.size()) != num_envs) {
        throw py::value_error(
            "per-env option '" + name + "' has " +
            std::to_string(values.size()) +
            " values for num_envs=" + std::to_string(num_envs));
      }
      per_env.emplace_back(name, values);
    } else {
      shared.Set(name, FromPython(name, value, defaults.at(name)));
    }
  }
  if (per_env.empty()) {
    return {shared};
  }
  std::vector<Config> configs(static_cast<std::size_t>(num_envs), shared);
  for (const auto& [name, values] : per_env) {
    for (int i = 0; i < num_envs; ++i) {
      configs[i].Set(name, FromPython(name, values[i], defaults.at(name)));
    }
  }
  return configs;
}

inline py::dict ToPython(const ArraySpec& spec) {
  py::dict out;
  out["name"] = spec.name;
  out["dtype"] = std::string(DTypeName(spec.dtype));
  out["shape"] = py::tuple(py::cast(spec.shape));
  out["low"] = py::cast(spec.low);
  out["high"] = py::cast(spec.high);
  if (spec.IsDict()) {
    py::list keys;
    for (const ArraySpec& key : spec.keys) {
      keys.append(ToPython(key));
    }
    out["keys"] = keys;
    out["tuple"] = spec.is_tuple;
  }
  if (spec.is_text) {
    out["text"] = true;
    out["charset"] = spec.charset;
  }
  return out;
}

inline py::dict ToPython(const EnvSpec& spec) {
  py::dict out;
  out["obs"] = ToPython(spec.obs);
  out["action"] = ToPython(spec.action);
  py::list info;
  for (const auto& array : spec.info) {
    info.append(ToPython(array));
  }
  out["info"] = info;
  py::list agents;
  for (const AgentSpec& agent : spec.agents) {
    py::dict entry;
    entry["name"] = agent.name;
    entry["obs"] = ToPython(agent.obs);
    entry["action"] = ToPython(agent.action);
    agents.append(entry);
  }
  out["agents"] = agents;
  return out;
}

}  // namespace envpool::python

#endif  // ENVPOOL_PYTHON_PY_CONFIG_H_
