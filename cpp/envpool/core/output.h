// The output slot an env writes one reset or step result into.
#ifndef ENVPOOL_CORE_OUTPUT_H_
#define ENVPOOL_CORE_OUTPUT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "envpool/core/batch.h"
#include "envpool/core/dtype.h"

namespace envpool {

// Supplies the batch row an env result goes to. In async mode the row is
// claimed only when the env first writes, so a batch holds the envs that
// finished first.
class RowSource {
 public:
  virtual ~RowSource() = default;
  virtual std::size_t ClaimRow(BatchBuffer*& buffer) = 0;
};

// What an env's Reset and Step write: the observation and info arrays go
// straight into the batch memory handed to Python; reward and flags are
// plain fields the engine copies out afterwards.
class Output {
 public:
  // At most this many info arrays per env.
  static constexpr std::size_t kMaxInfo = 63;

  double reward = 0.0;
  bool terminated = false;
  // Set by an env that ends an episode early for a reason other than its
  // task (the engine sets it itself at max_episode_steps).
  bool truncated = false;

  // This env's observation array, typed as the env's spec says.
  template <ArrayElement T>
  std::span<T> Obs() {
    // A dict's packed row is uint8 bytes: any other T fails Field's dtype
    // check (which then names the dict), so only uint8 needs a look here.
    if constexpr (std::is_same_v<T, std::uint8_t>) {
      if (Buffer()->layout->field(kObsField).spec.IsDict()) [[unlikely]] {
        DictWrittenWhole();
      }
    }
    written_ |= 1;
    return Field<T>(kObsField);
  }

  // Key `key` of a dict observation (MakeDict), typed as its spec says. The
  // first key written zeroes the others, so a key an env leaves out reads 0.
  template <ArrayElement T>
  std::span<T> Obs(std::size_t key) {
    BatchBuffer* buffer = Buffer();
    const FieldLayout& f = buffer->layout->field(kObsField);
    if (key >= f.spec.keys.size()) [[unlikely]] {
      NoSuchKey(f.spec, key);
    }
    const ArraySpec& spec = f.spec.keys[key];
    if (spec.dtype != kDTypeOf<T>) [[unlikely]] {
      WrongDType(spec, DTypeTraits<T>::kName);
    }
    std::byte* row = buffer->data + f.offset + row_ * f.row_bytes;
    if ((written_ & 1) == 0) {
      std::memset(row, 0, f.row_bytes);
      written_ |= 1;
    }
    return {reinterpret_cast<T*>(row + spec.offset), spec.NumElements()};
  }

  // Writes `text` into key `key`, a text (MakeText), NUL-padded.
  void Text(std::size_t key, std::string_view text) {
    const std::span<std::uint8_t> bytes = Obs<std::uint8_t>(key);
    WriteText(Buffer()->layout->field(kObsField).spec.keys[key], bytes, text);
  }
  // Writes `text` as the whole observation, a text (MakeText).
  void Text(std::string_view text) {
    const std::span<std::uint8_t> bytes = Obs<std::uint8_t>();
    WriteText(Buffer()->layout->field(kObsField).spec, bytes, text);
  }

  // The info array at `index` in the env's spec.info.
  template <ArrayElement T>
  std::span<T> Info(std::size_t index) {
    BatchBuffer* buffer = Buffer();
    if (index >= buffer->layout->num_info()) {
      throw std::out_of_range("info index " + std::to_string(index) +
                              " is past the env's spec.info");
    }
    written_ |= std::uint64_t{2} << index;
    return Field<T>(kFirstInfoField + index);
  }

  // Engine side.
  explicit Output(RowSource* source) : source_(source) {}
  Output(BatchBuffer* buffer, std::size_t row) : buffer_(buffer), row_(row) {}
  BatchBuffer* Buffer() {
    if (buffer_ == nullptr) [[unlikely]] {
      row_ = source_->ClaimRow(buffer_);
    }
    return buffer_;
  }
  std::size_t row() {
    Buffer();
    return row_;
  }
  void ClearResult() {
    reward = 0.0;
    terminated = false;
    truncated = false;
  }
  // Zeroes the arrays the env did not write, so that they never show stale
  // data from a recycled buffer, and starts tracking writes afresh.
  void ZeroUnwritten() {
    BatchBuffer* buffer = Buffer();
    const std::size_t num_arrays = 1 + buffer->layout->num_info();
    const std::uint64_t all = (std::uint64_t{2} << (num_arrays - 1)) - 1;
    if ((written_ & all) != all) [[unlikely]] {
      for (std::size_t i = 0; i < num_arrays; ++i) {
        if ((written_ & (std::uint64_t{1} << i)) == 0) {
          const std::size_t field =
              i == 0 ? kObsField : kFirstInfoField + i - 1;
          std::memset(buffer->Row(field, row_), 0,
                      buffer->layout->field(field).row_bytes);
        }
      }
    }
    written_ = 0;
  }

 private:
  template <ArrayElement T>
  std::span<T> Field(std::size_t field) {
    BatchBuffer* buffer = Buffer();
    const FieldLayout& f = buffer->layout->field(field);
    if (f.spec.dtype != kDTypeOf<T>) [[unlikely]] {
      WrongDType(f.spec, DTypeTraits<T>::kName);
    }
    return {reinterpret_cast<T*>(buffer->data + f.offset + row_ * f.row_bytes),
            f.num_elements};
  }

  static void WriteText(const ArraySpec& spec, std::span<std::uint8_t> bytes,
                        std::string_view text) {
    if (!spec.is_text) [[unlikely]] {
      throw std::logic_error("out.Text wrote '" + spec.name +
                             "', which is not a text (MakeText)");
    }
    if (text.size() > bytes.size()) [[unlikely]] {
      throw std::length_error(
          "text '" + spec.name + "' of " + std::to_string(text.size()) +
          " characters is longer than its max_length " +
          std::to_string(bytes.size()) + ": \"" + std::string(text) + "\"");
    }
    std::memcpy(bytes.data(), text.data(), text.size());
    std::memset(bytes.data() + text.size(), 0, bytes.size() - text.size());
  }

  [[noreturn, gnu::cold, gnu::noinline]] static void DictWrittenWhole() {
    throw std::logic_error(
        "the env's observation is a dict (MakeDict): write each key with "
        "out.Obs<T>(key index), not out.Obs<T>()");
  }

  [[noreturn, gnu::cold, gnu::noinline]] static void NoSuchKey(
      const ArraySpec& spec, std::size_t key) {
    if (!spec.IsDict()) {
      throw std::logic_error(
          "out.Obs<T>(" + std::to_string(key) +
          ") names a key, but the env's observation is one array: write it "
          "with out.Obs<T>()");
    }
    throw std::out_of_range("observation key index " + std::to_string(key) +
                            " is past the " + std::to_string(spec.keys.size()) +
                            " keys of the env's dict observation");
  }

  [[noreturn, gnu::cold, gnu::noinline]] static void WrongDType(
      const ArraySpec& spec, std::string_view written_as) {
    if (spec.IsDict()) {
      DictWrittenWhole();
    }
    throw std::logic_error("env wrote '" + spec.name + "' as " +
                           std::string(written_as) + " but its spec says " +
                           std::string(DTypeName(spec.dtype)));
  }

  RowSource* source_ = nullptr;
  BatchBuffer* buffer_ = nullptr;
  std::size_t row_ = 0;
  std::uint64_t written_ = 0;  // bit 0: obs, bit 1 + i: info i
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_OUTPUT_H_
