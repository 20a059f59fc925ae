// Memory of one batch of results: every output array of every env in the batch
// lives in one aligned block, handed to Python without a copy.
#ifndef ENVPOOL_CORE_BATCH_H_
#define ENVPOOL_CORE_BATCH_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/placement.h"

namespace envpool {

// Positions of the fields every batch has, in BatchLayout::fields.
enum CoreField : std::size_t {
  kObsField = 0,
  kRewardField,
  kTerminatedField,
  kTruncatedField,
  kEnvIdField,
  kElapsedStepField,
  kFirstInfoField,
};

struct FieldLayout {
  ArraySpec spec;
  std::size_t offset = 0;        // from the start of the block
  std::size_t row_bytes = 0;     // bytes of one env's array
  std::size_t num_elements = 0;  // elements of one env's array
};

// Where each array sits in a block of `capacity` rows. With `final_fields` the
// layout also holds, after the env's info fields, the final observation, the
// final elapsed step, the final info and a mask, for same-step autoreset.
class BatchLayout {
 public:
  BatchLayout(const EnvSpec& spec, std::size_t capacity, bool final_fields)
      : capacity_(capacity), num_info_(spec.info.size()) {
    Add(spec.obs);
    Add(MakeArray<double>("reward", {}));
    Add(MakeArray<bool>("terminated", {}));
    Add(MakeArray<bool>("truncated", {}));
    Add(MakeArray<std::int32_t>("env_id", {}));
    Add(MakeArray<std::int32_t>("elapsed_step", {}));
    for (const auto& info : spec.info) {
      Add(info);
    }
    if (final_fields) {
      final_obs_ = fields_.size();
      Add(spec.obs);
      Add(MakeArray<std::int32_t>("elapsed_step", {}));
      for (const auto& info : spec.info) {
        Add(info);
      }
      Add(MakeArray<bool>("final_mask", {}));
    }
  }

  std::size_t capacity() const { return capacity_; }
  std::size_t total_bytes() const { return total_bytes_; }
  std::size_t num_info() const { return num_info_; }
  bool has_final() const { return final_obs_ != 0; }
  // Index of the final observation; the final elapsed step and final info
  // follow it, and the mask is the last field.
  std::size_t final_obs() const { return final_obs_; }
  std::size_t final_mask() const { return fields_.size() - 1; }
  const std::vector<FieldLayout>& fields() const { return fields_; }
  const FieldLayout& field(std::size_t i) const { return fields_[i]; }

 private:
  static constexpr std::size_t kAlign = 64;

  void Add(ArraySpec spec) {
    FieldLayout f;
    f.row_bytes = spec.NumBytes();
    f.num_elements = spec.NumElements();
    f.offset = total_bytes_;
    f.spec = std::move(spec);
    total_bytes_ += (f.row_bytes * capacity_ + kAlign - 1) / kAlign * kAlign;
    fields_.push_back(std::move(f));
  }

  std::size_t capacity_;
  std::size_t num_info_;
  std::size_t final_obs_ = 0;
  std::size_t total_bytes_ = 0;
  std::vector<FieldLayout> fields_;
};

class BufferPool;

// One block of batch memory. While Python holds arrays into it, `home` keeps
// its pool alive so that the block can be given back from any thread later.
struct BatchBuffer {
  // memory_node >= 0: the block gets pages of its own on that NUMA node.
  explicit BatchBuffer(const BatchLayout& layout, int memory_node = -1)
      : layout(&layout),
        data(static_cast<std::byte*>(
            AllocateOnNode(layout.total_bytes(), memory_node))),
        mapped_(data != nullptr) {
    if (data == nullptr) {
      data = static_cast<std::byte*>(
          ::operator new(layout.total_bytes() == 0 ? 1 : layout.total_bytes(),
                         std::align_val_t{64}));
    }
  }
  ~BatchBuffer() {
    if (mapped_) {
      FreeOnNode(data, layout->total_bytes());
    } else {
      ::operator delete(data, std::align_val_t{64});
    }
  }
  BatchBuffer(const BatchBuffer&) = delete;
  BatchBuffer& operator=(const BatchBuffer&) = delete;

  std::byte* Row(std::size_t field, std::size_t row) const {
    const FieldLayout& f = layout->field(field);
    return data + f.offset + row * f.row_bytes;
  }
  template <typename T>
  T& At(std::size_t field, std::size_t row) const {
    return *reinterpret_cast<T*>(Row(field, row));
  }

  const BatchLayout* layout;
  std::byte* data;
  std::shared_ptr<BufferPool> home;

 private:
  bool mapped_;
};

// A free list of batch buffers of one layout. Buffers come back once Python
// drops the last array that views them, so a steady loop allocates nothing.
class BufferPool : public std::enable_shared_from_this<BufferPool> {
 public:
  // memory_node >= 0: every buffer's pages are bound to that NUMA node.
  BufferPool(const EnvSpec& spec, std::size_t capacity, bool final_fields,
             int memory_node = -1)
      : layout_(spec, capacity, final_fields), memory_node_(memory_node) {}

  const BatchLayout& layout() const { return layout_; }

  std::unique_ptr<BatchBuffer> Acquire() {
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        auto buffer = std::move(free_.back());
        free_.pop_back();
        return buffer;
      }
    }
    return std::make_unique<BatchBuffer>(layout_, memory_node_);
  }

  void Release(std::unique_ptr<BatchBuffer> buffer) {
    std::lock_guard lock(mutex_);
    free_.push_back(std::move(buffer));
  }

  // Returns a buffer that was handed out with `home` set. The pool may die
  // here, after the buffer is back on its list, if nothing else holds it.
  static void GiveBack(BatchBuffer* raw) {
    std::unique_ptr<BatchBuffer> buffer(raw);
    std::shared_ptr<BufferPool> home = std::move(buffer->home);
    home->Release(std::move(buffer));
  }

  std::size_t NumFree() {
    std::lock_guard lock(mutex_);
    return free_.size();
  }

 private:
  BatchLayout layout_;
  int memory_node_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<BatchBuffer>> free_;
};

// A finished batch. Rows [0, size) of `buffer` hold results; the buffer goes
// back to `pool` once its last user is done with it.
struct Batch {
  std::unique_ptr<BatchBuffer> buffer;
  std::size_t size = 0;
  std::shared_ptr<BufferPool> pool;
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_BATCH_H_
