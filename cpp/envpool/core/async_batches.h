// Async mode's side of the engine: the queue of envs sent and a ring of
// batches being filled. Workers take envs one at a time, and each result
// claims the next row of the batch being filled, so a batch holds the first
// batch_size envs to finish.
//
// One caller thread at a time sends and receives; the workers only run
// RunSome().
#ifndef ENVPOOL_CORE_ASYNC_BATCHES_H_
#define ENVPOOL_CORE_ASYNC_BATCHES_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>

#include "envpool/core/array_spec.h"
#include "envpool/core/batch.h"
#include "envpool/core/output.h"
#include "envpool/core/task_queue.h"
#include "envpool/core/waiter.h"

namespace envpool {

class AsyncBatches {
 public:
  // `caller_spins`: the caller spins for a while before it sleeps on a
  // batch; only where a CPU is left over for it, since its spin would
  // otherwise take a worker's time. It spins for about twice its recent
  // waits (within kMinSpin and kMaxSpin): a caller that slept would have to
  // be woken by the worker that fills the batch, a futex wake-up of a few
  // microseconds on that worker's time for every batch (13% of a 50 us step
  // at one thread, bench_engine.py).
  AsyncBatches(const EnvSpec& spec, std::size_t num_envs,
               std::size_t batch_size, bool final_fields, int memory_node,
               bool caller_spins = true)
      : batch_size_(batch_size),
        caller_spins_(caller_spins),
        buffers_(std::make_shared<BufferPool>(spec, batch_size, final_fields,
                                              memory_node)),
        queue_(num_envs),
        ring_size_((num_envs + batch_size - 1) / batch_size + 1),
        ring_(std::make_unique<RingEntry[]>(ring_size_)) {
    for (std::size_t i = 0; i < ring_size_; ++i) {
      ring_[i].buffer = buffers_->Acquire();
    }
  }

  AsyncBatches(const AsyncBatches&) = delete;
  AsyncBatches& operator=(const AsyncBatches&) = delete;

  // Queues `ids` for the workers; the caller wakes them next.
  void Push(std::span<const std::int32_t> ids) {
    sent_ += ids.size();
    for (const std::int32_t id : ids) {
      queue_.Push(id);
    }
  }

  // Runs up to `limit` queued envs with process(env_id, out), each into the
  // next free row; returns how many ran. Called by the workers.
  template <typename Process>
  std::size_t RunSome(std::size_t limit, Process&& process) {
    std::size_t ran = 0;
    while (ran < limit && !stop_.load(std::memory_order_relaxed)) {
      const auto id = queue_.TryPop();
      if (!id) {
        break;
      }
      Rows rows(this);
      Output out(&rows);
      process(*id, out);
      RingEntry& entry = ring_[rows.batch() % ring_size_];
      const std::size_t written =
          entry.written.fetch_add(1, std::memory_order_seq_cst) + 1;
      completed_.fetch_add(1, std::memory_order_seq_cst);
      // The caller waits only for a full batch (Next) or for every env sent
      // (Drain): waking it for each env would cost a context switch per env
      // while it has nothing to do.
      if (written == batch_size_ || draining_.load(std::memory_order_seq_cst)) {
        waiter_.Notify();
      }
      ++ran;
    }
    return ran;
  }

  // Waits for the next batch to fill up; the caller has made sure that
  // enough envs are in flight.
  Batch Next(const InterruptCheck& interrupt) {
    RingEntry& entry = ring_[next_recv_ % ring_size_];
    const auto full = [&] {
      return entry.written.load(std::memory_order_acquire) == batch_size_;
    };
    if (!full()) {
      const auto start = Waiter::Clock::now();
      WaitInterruptibly(waiter_, full, interrupt, RecvSpin());
      // a moving average of the waits, an eighth of the newest each time
      const auto waited = std::chrono::duration_cast<std::chrono::nanoseconds>(
          Waiter::Clock::now() - start);
      typical_wait_ += (waited - typical_wait_) / 8;
    }
    Batch batch{std::move(entry.buffer), batch_size_, buffers_};
    entry.buffer = buffers_->Acquire();
    entry.written.store(0, std::memory_order_relaxed);
    ++next_recv_;
    return batch;
  }

  // Waits for every env sent to finish and forgets their results.
  void Drain(const InterruptCheck& interrupt) {
    // seq_cst on both sides: a worker that misses this store has counted its
    // env before the first ready() below reads the count.
    draining_.store(true, std::memory_order_seq_cst);
    struct StopDraining {
      std::atomic<bool>* draining;
      ~StopDraining() { draining->store(false, std::memory_order_relaxed); }
    } stop_draining{&draining_};
    WaitInterruptibly(
        waiter_,
        [&] { return completed_.load(std::memory_order_seq_cst) == sent_; },
        interrupt, caller_spins_ ? kMinSpin : std::chrono::nanoseconds(0));
    for (std::size_t i = 0; i < ring_size_; ++i) {
      ring_[i].written.store(0, std::memory_order_relaxed);
    }
    claim_.store(0, std::memory_order_relaxed);
    completed_.store(0, std::memory_order_relaxed);
    sent_ = 0;
    next_recv_ = 0;
  }

  // Workers take no more envs from the queue.
  void Stop() { stop_.store(true, std::memory_order_seq_cst); }

 private:
  static constexpr std::chrono::nanoseconds kMinSpin{20'000};
  static constexpr std::chrono::nanoseconds kMaxSpin{1'000'000};

  std::chrono::nanoseconds RecvSpin() const {
    if (!caller_spins_) {
      return std::chrono::nanoseconds(0);
    }
    return std::clamp(2 * typical_wait_, kMinSpin, kMaxSpin);
  }

  struct RingEntry {
    std::unique_ptr<BatchBuffer> buffer;
    alignas(64) std::atomic<std::size_t> written{0};
  };

  // Claims rows of the batch being filled, remembering which batch.
  class Rows final : public RowSource {
   public:
    explicit Rows(AsyncBatches* batches) : batches_(batches) {}
    std::size_t ClaimRow(BatchBuffer*& buffer) override {
      // acq_rel chains every claim to the previous ones. Counting shows that
      // an earlier claim in that chain came from an env sent after the Next()
      // that put this ring slot's fresh buffer in place, so the chain orders
      // that write before this read.
      const std::uint64_t index =
          batches_->claim_.fetch_add(1, std::memory_order_acq_rel);
      const auto batch_size = static_cast<std::uint64_t>(batches_->batch_size_);
      batch_ = index / batch_size;
      buffer = batches_->ring_[batch_ % batches_->ring_size_].buffer.get();
      return static_cast<std::size_t>(index % batch_size);
    }
    std::uint64_t batch() const { return batch_; }

   private:
    AsyncBatches* batches_;
    std::uint64_t batch_ = 0;
  };

  std::size_t batch_size_;
  bool caller_spins_;
  std::chrono::nanoseconds typical_wait_{0};
  std::shared_ptr<BufferPool> buffers_;
  TaskQueue queue_;
  std::size_t ring_size_;
  std::unique_ptr<RingEntry[]> ring_;
  alignas(64) std::atomic<std::uint64_t> claim_{0};
  alignas(64) std::atomic<std::uint64_t> completed_{0};
  std::uint64_t sent_ = 0;
  std::uint64_t next_recv_ = 0;
  Waiter waiter_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> draining_{false};
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_ASYNC_BATCHES_H_
