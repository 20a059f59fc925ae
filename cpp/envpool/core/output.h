// The output slot an env writes one reset or step result into.
#ifndef ENVPOOL_CORE_OUTPUT_H_
#define ENVPOOL_CORE_OUTPUT_H_

#include <cstddef>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>

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
  double reward = 0.0;
  bool terminated = false;
  // Set by an env that ends an episode early for a reason other than its
  // task (the engine sets it itself at max_episode_steps).
  bool truncated = false;

  // This env's observation array, typed as the env's spec says.
  template <ArrayElement T>
  std::span<T> Obs() {
    return Field<T>(kObsField);
  }

  // The info array at `index` in the env's spec.info.
  template <ArrayElement T>
  std::span<T> Info(std::size_t index) {
    if (index >= Buffer()->layout->num_info()) {
      throw std::out_of_range("info index " + std::to_string(index) +
                              " is past the env's spec.info");
    }
    return Field<T>(kFirstInfoField + index);
  }

  // Engine side.
  explicit Output(RowSource* source) : source_(source) {}
  Output(BatchBuffer* buffer, std::size_t row)
      : buffer_(buffer), row_(row) {}
  bool claimed() const { return buffer_ != nullptr; }
  BatchBuffer* Buffer() {
    if (buffer_ == nullptr) {
      row_ = source_->ClaimRow(buffer_);
      ZeroInfo();
    } else if (!zeroed_) {
      ZeroInfo();
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

 private:
  template <ArrayElement T>
  std::span<T> Field(std::size_t field) {
    BatchBuffer* buffer = Buffer();
    const FieldLayout& f = buffer->layout->field(field);
    if (f.spec.dtype != kDTypeOf<T>) {
      throw std::logic_error("env wrote '" + f.spec.name + "' as " +
                             std::string(DTypeTraits<T>::kName) +
                             " but its spec says " +
                             std::string(DTypeName(f.spec.dtype)));
    }
    return {reinterpret_cast<T*>(buffer->Row(field, row_)),
            f.spec.NumElements()};
  }

  // Info arrays an env does not write read as zero rather than stale data.
  void ZeroInfo() {
    zeroed_ = true;
    const BatchLayout& layout = *buffer_->layout;
    for (std::size_t i = 0; i < layout.num_info(); ++i) {
      const FieldLayout& f = layout.field(kFirstInfoField + i);
      std::memset(buffer_->Row(kFirstInfoField + i, row_), 0, f.row_bytes);
    }
  }

  RowSource* source_ = nullptr;
  BatchBuffer* buffer_ = nullptr;
  std::size_t row_ = 0;
  bool zeroed_ = false;
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_OUTPUT_H_
