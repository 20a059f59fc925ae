// The calls an XLA custom call makes into a pool, in types that need neither
// pybind11 nor XLA: envpool._xla holds the FFI handlers and drives, through a
// Bridge, the pools of every extension module (out-of-tree env packages too).
//
// A Bridge is made once per pool, on its first xla() call, and never freed:
// compiled executables keep its address after the pool is gone, and must find
// `owner` null there rather than dangling memory.
#ifndef ENVPOOL_PYTHON_XLA_BRIDGE_H_
#define ENVPOOL_PYTHON_XLA_BRIDGE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <shared_mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/batch.h"
#include "envpool/core/dtype.h"

namespace envpool::xla {

// Bumped when Bridge or HostBuffer change, so that an _xla module and a pool
// module built from different envpool versions refuse each other.
inline constexpr std::uint32_t kBridgeVersion = 1;

// One array of a custom call, in host memory.
struct HostBuffer {
  void* data = nullptr;
  std::size_t num_elements = 0;
  DType dtype = DType::kUInt8;
};

struct Bridge {
  using SendFn = bool (*)(void* owner, const HostBuffer& env_ids,
                          const HostBuffer& action, std::string* error);
  using RecvFn = bool (*)(void* owner, std::span<const HostBuffer> outputs,
                          std::string* error);

  std::uint32_t version = kBridgeVersion;
  // The pool object; null once it is destroyed. Calls hold `mutex` shared,
  // the pool's destructor holds it exclusively to clear `owner`.
  void* owner = nullptr;
  std::shared_mutex mutex;
  SendFn send = nullptr;
  RecvFn recv = nullptr;
};

// Where one output of recv comes from: `num_elements` values of `dtype` at
// byte `offset` within each row of batch field `field`.
struct OutputSlot {
  std::string name;
  std::size_t field = 0;
  std::size_t offset = 0;
  std::size_t num_elements = 0;
  DType dtype = DType::kUInt8;
  std::vector<std::int64_t> shape;
};

// The outputs of recv, in order: the observation (one per key of a dict
// observation, named "obs.<key>"), reward, terminated, truncated, then
// "info.<name>" for env_id, elapsed_step and each info array; with same-step
// autoreset also "final_obs", "final_info.<name>" and "final_mask".
inline std::vector<OutputSlot> OutputSlots(const BatchLayout& layout) {
  std::vector<OutputSlot> slots;
  auto add = [&](std::string name, std::size_t field) {
    const ArraySpec& spec = layout.field(field).spec;
    if (spec.IsDict()) {
      for (const ArraySpec& key : spec.keys) {
        slots.push_back({name + "." + key.name, field, key.offset,
                         key.NumElements(), key.dtype, key.shape});
      }
    } else {
      slots.push_back({std::move(name), field, 0, spec.NumElements(),
                       spec.dtype, spec.shape});
    }
  };
  add("obs", kObsField);
  add("reward", kRewardField);
  add("terminated", kTerminatedField);
  add("truncated", kTruncatedField);
  add("info.env_id", kEnvIdField);
  add("info.elapsed_step", kElapsedStepField);
  const std::size_t num_info = layout.num_info();
  for (std::size_t i = 0; i < num_info; ++i) {
    add("info." + layout.field(kFirstInfoField + i).spec.name,
        kFirstInfoField + i);
  }
  if (layout.has_final()) {
    const std::size_t final_obs = layout.final_obs();
    add("final_obs", final_obs);
    add("final_info.elapsed_step", final_obs + 1);
    for (std::size_t i = 0; i < num_info; ++i) {
      add("final_info." + layout.field(final_obs + 2 + i).spec.name,
          final_obs + 2 + i);
    }
    add("final_mask", layout.final_mask());
  }
  return slots;
}

// jax without x64 holds 64-bit values in 32 bits: an output may be the
// 32-bit type of its slot's kind.
inline bool CanHold(DType out, DType slot) {
  if (out == slot) {
    return true;
  }
  return (slot == DType::kFloat64 && out == DType::kFloat32) ||
         (slot == DType::kInt64 && out == DType::kInt32) ||
         (slot == DType::kUInt64 && out == DType::kUInt32);
}

// Copies `rows` rows of `slot` from `buffer` into `out`, converting 64-bit
// values to 32 bits where `out` asks for it (CanHold).
inline void CopySlot(const OutputSlot& slot, const BatchBuffer& buffer,
                     std::size_t rows, const HostBuffer& out) {
  const std::size_t row_bytes = slot.num_elements * DTypeSize(slot.dtype);
  const std::size_t field_row_bytes =
      buffer.layout->field(slot.field).row_bytes;
  auto* dst = static_cast<std::byte*>(out.data);
  if (out.dtype == slot.dtype) {
    if (row_bytes == field_row_bytes) {  // rows are contiguous
      std::memcpy(dst, buffer.Row(slot.field, 0) + slot.offset,
                  rows * row_bytes);
      return;
    }
    for (std::size_t r = 0; r < rows; ++r) {
      std::memcpy(dst + r * row_bytes, buffer.Row(slot.field, r) + slot.offset,
                  row_bytes);
    }
    return;
  }
  auto narrow = [&](auto src_tag, auto dst_tag) {
    using Src = decltype(src_tag);
    using Dst = decltype(dst_tag);
    auto* to = reinterpret_cast<Dst*>(dst);
    for (std::size_t r = 0; r < rows; ++r) {
      const auto* from =
          reinterpret_cast<const Src*>(buffer.Row(slot.field, r) + slot.offset);
      for (std::size_t j = 0; j < slot.num_elements; ++j) {
        to[r * slot.num_elements + j] = static_cast<Dst>(from[j]);
      }
    }
  };
  if (slot.dtype == DType::kFloat64) {
    narrow(double{}, float{});
  } else if (slot.dtype == DType::kInt64) {
    narrow(std::int64_t{}, std::int32_t{});
  } else {
    narrow(std::uint64_t{}, std::uint32_t{});
  }
}

// Checks that `outputs` match `slots` for a batch of `rows` rows.
inline void CheckOutputs(std::span<const OutputSlot> slots,
                         std::span<const HostBuffer> outputs,
                         std::size_t rows) {
  if (outputs.size() != slots.size()) {
    throw std::invalid_argument("recv has " + std::to_string(outputs.size()) +
                                " outputs, the pool gives " +
                                std::to_string(slots.size()));
  }
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (!CanHold(outputs[i].dtype, slots[i].dtype) ||
        outputs[i].num_elements != rows * slots[i].num_elements) {
      throw std::invalid_argument(
          "recv output '" + slots[i].name + "' has " +
          std::to_string(outputs[i].num_elements) + " elements of " +
          std::string(DTypeName(outputs[i].dtype)) + ", the pool gives " +
          std::to_string(rows * slots[i].num_elements) + " of " +
          std::string(DTypeName(slots[i].dtype)));
    }
  }
}

}  // namespace envpool::xla

#endif  // ENVPOOL_PYTHON_XLA_BRIDGE_H_
