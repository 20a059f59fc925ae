// Describes one per-env array: its name, element type, shape and bounds.
#ifndef ENVPOOL_CORE_ARRAY_SPEC_H_
#define ENVPOOL_CORE_ARRAY_SPEC_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "envpool/core/dtype.h"

namespace envpool {

struct ArraySpec {
  std::string name;
  DType dtype = DType::kFloat32;
  // Shape of one env's array; the batch dimension is added by the engine.
  std::vector<std::int64_t> shape;
  // Bounds: empty for unbounded, one value for every element, or one value
  // per element (row-major).
  std::vector<double> low;
  std::vector<double> high;
  // A dict observation (MakeDict): the named arrays packed in one row of
  // bytes, each at its `offset`. Empty for a plain array.
  std::vector<ArraySpec> keys{};
  std::size_t offset = 0;  // of a key, in bytes from the start of the row
  // A tuple observation (MakeTuple): packed as a dict's keys are; the front
  // ends show its elements in order, without their names (gymnasium's Tuple).
  bool is_tuple = false;
  // A text (MakeText): `shape` is {max_length} uint8 bytes holding the
  // characters, NUL-padded past the text's end; `low` and `high` hold the
  // least and most characters, `charset` the allowed ones (gymnasium's Text).
  bool is_text = false;
  std::string charset{};

  [[nodiscard]] bool IsDict() const { return !keys.empty(); }

  std::size_t NumElements() const {
    std::size_t n = 1;
    for (auto d : shape) {
      n *= static_cast<std::size_t>(d);
    }
    return n;
  }
  std::size_t NumBytes() const { return NumElements() * DTypeSize(dtype); }

  bool operator==(const ArraySpec&) const = default;
};

inline constexpr double kInf = std::numeric_limits<double>::infinity();

template <ArrayElement T>
ArraySpec MakeArray(std::string name, std::vector<std::int64_t> shape,
                    std::vector<double> low = {},
                    std::vector<double> high = {}) {
  return ArraySpec{std::move(name), kDTypeOf<T>, std::move(shape),
                   std::move(low), std::move(high)};
}

// A discrete choice among `n` values start, ..., start + n - 1.
template <ArrayElement T = std::int64_t>
ArraySpec MakeDiscrete(std::string name, std::int64_t n,
                       std::int64_t start = 0) {
  return ArraySpec{std::move(name),
                   kDTypeOf<T>,
                   {},
                   {static_cast<double>(start)},
                   {static_cast<double>(start + n - 1)}};
}

// The characters of gymnasium's printable ASCII: letters, digits,
// punctuation and the space.
inline constexpr std::string_view kPrintableAscii =
    " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`"
    "abcdefghijklmnopqrstuvwxyz{|}~";

// A text of `min_length` to `max_length` characters from `charset`, one byte
// each (gymnasium's Text space): in a batch, one Python str per env. An env
// writes it with out.Text(key, text) as a key of a dict or tuple observation
// (or out.Text(text) as the whole observation); a text longer than
// max_length is an error, never cut.
inline ArraySpec MakeText(std::string name, std::int64_t max_length,
                          std::int64_t min_length = 1,
                          std::string_view charset = kPrintableAscii) {
  const std::string where = "MakeText(\"" + name + "\")";
  if (max_length < 1 || min_length < 0 || min_length > max_length) {
    throw std::invalid_argument(
        where +
        ": needs 0 <= min_length <= max_length and max_length >= 1, "
        "got min_length " +
        std::to_string(min_length) + ", max_length " +
        std::to_string(max_length));
  }
  if (charset.empty() || charset.find('\0') != std::string_view::npos) {
    throw std::invalid_argument(where +
                                ": the charset must be non-empty and hold no "
                                "NUL (it pads the text)");
  }
  ArraySpec text{std::move(name),
                 DType::kUInt8,
                 {max_length},
                 {static_cast<double>(min_length)},
                 {static_cast<double>(max_length)}};
  text.is_text = true;
  text.charset = std::string(charset);
  return text;
}

namespace detail {

// The arrays `keys` packed side by side in one row of bytes, each 8-byte
// aligned; `maker` names the caller in error messages.
inline ArraySpec PackKeys(const std::string& maker, std::string name,
                          std::vector<ArraySpec> keys) {
  const std::string where = maker + "(\"" + name + "\")";
  if (keys.empty()) {
    throw std::invalid_argument(
        where + (maker == "MakeDict" ? ": a dict observation needs a key"
                                     : ": a tuple needs an element"));
  }
  std::size_t bytes = 0;
  for (ArraySpec& key : keys) {
    for (const ArraySpec& other : keys) {
      if (&other != &key && other.name == key.name) {
        throw std::invalid_argument(where + ": key '" + key.name +
                                    "' appears twice");
      }
    }
    if (key.IsDict()) {
      throw std::invalid_argument(where + ": key '" + key.name +
                                  "' is a dict or tuple; nest no dicts");
    }
    bytes = (bytes + 7) / 8 * 8;
    key.offset = bytes;
    bytes += key.NumBytes();
  }
  // Rows follow each other in a batch: a multiple of 8 keeps every row's
  // keys aligned.
  bytes = (bytes + 7) / 8 * 8;
  ArraySpec packed{std::move(name),
                   DType::kUInt8,
                   {static_cast<std::int64_t>(bytes)},
                   {},
                   {}};
  packed.keys = std::move(keys);
  return packed;
}

}  // namespace detail

// A dict observation of the named arrays `keys`, in that order (the order
// the front ends show them in). One env's arrays sit side by side in one row
// of bytes, each key 8-byte aligned; an env writes key i with
// out.Obs<T>(i).
inline ArraySpec MakeDict(std::string name, std::vector<ArraySpec> keys) {
  return detail::PackKeys("MakeDict", std::move(name), std::move(keys));
}

// A tuple observation of `elements`, in order (gymnasium's Tuple space):
// packed and written as a dict's keys are (out.Obs<T>(i)); the names stay
// the elements' names in dm_env specs, where observations are named.
inline ArraySpec MakeTuple(std::string name, std::vector<ArraySpec> elements) {
  ArraySpec tuple =
      detail::PackKeys("MakeTuple", std::move(name), std::move(elements));
  tuple.is_tuple = true;
  return tuple;
}

// One agent of a multi-agent env (core/agents.h): its name and the spaces of
// its own observation and action.
struct AgentSpec {
  std::string name;
  ArraySpec obs;
  ArraySpec action;

  bool operator==(const AgentSpec&) const = default;
};

// What an environment exchanges with the engine. `info` arrays are returned
// to Python in the info dict under their names. `agents` is empty for a
// single-agent env; a multi-agent env fills it through MakeMultiAgentSpec
// (core/agents.h), which also lays out obs, action and info for its agents.
struct EnvSpec {
  ArraySpec obs;
  ArraySpec action;
  std::vector<ArraySpec> info;
  std::vector<AgentSpec> agents{};

  bool operator==(const EnvSpec&) const = default;
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_ARRAY_SPEC_H_
