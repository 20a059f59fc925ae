// Typed construction options of an environment: the defaults an env declares
// and the values one env instance is built with.
#ifndef ENVPOOL_CORE_CONFIG_H_
#define ENVPOOL_CORE_CONFIG_H_

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace envpool {

// A list of floats holds a range such as (low, high) or a small vector.
using OptionValue =
    std::variant<bool, std::int64_t, double, std::string, std::vector<double>>;

inline std::string_view OptionTypeName(const OptionValue& value) {
  static constexpr std::string_view kNames[] = {"bool", "int", "float", "str",
                                                "tuple of floats"};
  return kNames[value.index()];
}

// An ordered list of named options. An env's DefaultConfig() declares every
// option it accepts; the engine hands each env a Config with the same names.
class Config {
 public:
  Config() = default;
  Config(std::initializer_list<std::pair<std::string, OptionValue>> items)
      : items_(items) {}

  const std::vector<std::pair<std::string, OptionValue>>& items() const {
    return items_;
  }

  bool Contains(std::string_view name) const { return Find(name) != nullptr; }

  const OptionValue& at(std::string_view name) const {
    const OptionValue* value = Find(name);
    if (value == nullptr) {
      throw std::out_of_range("unknown option '" + std::string(name) + "'");
    }
    return *value;
  }

  // Reads an option as T. Integers read as double where a float is asked for.
  // T = std::vector<double> reads a tuple of floats.
  template <typename T>
  T Get(std::string_view name) const {
    const OptionValue& value = at(name);
    if constexpr (std::is_same_v<T, bool>) {
      return Expect<bool>(name, value);
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(Expect<std::int64_t>(name, value));
    } else if constexpr (std::is_floating_point_v<T>) {
      if (const auto* i = std::get_if<std::int64_t>(&value)) {
        return static_cast<T>(*i);
      }
      return static_cast<T>(Expect<double>(name, value));
    } else if constexpr (std::is_same_v<T, std::vector<double>>) {
      return Expect<std::vector<double>>(name, value);
    } else {
      return Expect<std::string>(name, value);
    }
  }

  // Sets an existing option, or appends a new one.
  void Set(std::string_view name, OptionValue value) {
    for (auto& [key, current] : items_) {
      if (key == name) {
        current = std::move(value);
        return;
      }
    }
    items_.emplace_back(std::string(name), std::move(value));
  }

  bool operator==(const Config&) const = default;

 private:
  const OptionValue* Find(std::string_view name) const {
    for (const auto& [key, value] : items_) {
      if (key == name) {
        return &value;
      }
    }
    return nullptr;
  }

  template <typename T>
  static const T& Expect(std::string_view name, const OptionValue& value) {
    if (const auto* typed = std::get_if<T>(&value)) {
      return *typed;
    }
    throw std::invalid_argument("option '" + std::string(name) + "' holds a " +
                                std::string(OptionTypeName(value)));
  }

  std::vector<std::pair<std::string, OptionValue>> items_;
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_CONFIG_H_
