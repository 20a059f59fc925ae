// The queue of envs waiting for a worker in async mode: one producer (the
// thread holding the pool's call lock), many consumers (the workers).
#ifndef ENVPOOL_CORE_TASK_QUEUE_H_
#define ENVPOOL_CORE_TASK_QUEUE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace envpool {

// Bounded by the number of envs: an env is queued at most once at a time,
// so the producer can never lap a consumer that is still reading its slot.
class TaskQueue {
 public:
  explicit TaskQueue(std::size_t capacity) : slots_(capacity) {}

  void Push(std::int32_t env_id) {
    const std::uint64_t tail = tail_.load(std::memory_order_relaxed);
    slots_[tail % slots_.size()].store(env_id, std::memory_order_relaxed);
    tail_.store(tail + 1, std::memory_order_seq_cst);
  }

  std::optional<std::int32_t> TryPop() {
    std::uint64_t head = head_.load(std::memory_order_relaxed);
    while (head < tail_.load(std::memory_order_acquire)) {
      const std::int32_t env_id =
          slots_[head % slots_.size()].load(std::memory_order_relaxed);
      if (head_.compare_exchange_weak(head, head + 1,
                                      std::memory_order_acq_rel)) {
        return env_id;
      }
    }
    return std::nullopt;
  }

  bool Empty() const {
    return head_.load(std::memory_order_acquire) >=
           tail_.load(std::memory_order_acquire);
  }

  // Drops everything queued; only while no consumer runs.
  void Clear() { head_.store(tail_.load()); }

 private:
  std::vector<std::atomic<std::int32_t>> slots_;
  alignas(64) std::atomic<std::uint64_t> head_{0};
  alignas(64) std::atomic<std::uint64_t> tail_{0};
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_TASK_QUEUE_H_
