// Sync rounds: one list of envs stepped by the caller and the workers
// together, cut into chunks that every thread takes from one atomic ticket;
// the results come back in the order of the list.
//
// A round of cheap envs runs on the calling thread alone; a round of slow
// envs is left to the workers and a standby worker while the caller only
// waits, so that Ctrl-C can still reach it.
#ifndef ENVPOOL_CORE_SYNC_ROUND_H_
#define ENVPOOL_CORE_SYNC_ROUND_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "envpool/core/batch.h"
#include "envpool/core/output.h"
#include "envpool/core/placement.h"
#include "envpool/core/pool_options.h"
#include "envpool/core/waiter.h"

namespace envpool {

// `Process` below is any callable (std::int32_t env_id, Output& out) that
// resets or steps one env into the row `out` leads to.
class SyncRound {
 public:
  // `num_threads` threads share a round (the caller's included); rounds
  // expected to take under `solo_round_ns` run on the caller alone.
  SyncRound(std::shared_ptr<BufferPool> buffers, std::size_t num_envs,
            int num_threads, double solo_round_ns)
      : buffers_(std::move(buffers)),
        num_threads_(num_threads),
        solo_round_ns_(solo_round_ns) {
    ids_.resize(num_envs);
  }

  ~SyncRound() { StopStandby(); }
  SyncRound(const SyncRound&) = delete;
  SyncRound& operator=(const SyncRound&) = delete;

  // Started and not finished yet.
  bool pending() const { return pending_; }
  // The last Finish() was abandoned (Ctrl-C) with the round still running.
  bool interrupted() const { return interrupted_; }

  // Starts a round over `ids`. Returns true when other threads take part:
  // the caller then wakes its workers, then calls WakeStandby(). Without
  // workers every round runs solo.
  bool Start(std::span<const std::int32_t> ids, bool has_workers) {
    pending_ = true;
    std::copy(ids.begin(), ids.end(), ids_.begin());
    size_ = ids.size();
    buffer_ = buffers_->Acquire();
    done_.store(0, std::memory_order_relaxed);
    // A round of cheap envs is done by the caller alone (see solo_round_ns).
    solo_ = !has_workers ||
            (ns_per_env_ > 0.0 &&
             ns_per_env_ * static_cast<double>(ids.size()) < solo_round_ns_);
    if (solo_) {
      return false;
    }
    const auto pieces = static_cast<std::size_t>(num_threads_) * 4;
    chunk_ = std::max<std::size_t>(1, (ids.size() + pieces - 1) / pieces);
    const std::size_t chunks = (ids.size() + chunk_ - 1) / chunk_;
    stand_by_.store(ns_per_env_ > kCallerStandsByNs, std::memory_order_relaxed);
    ++generation_;
    ticket_.store(
        ((generation_ & 0xFFFFFF) << (2 * kChunkBits)) | (chunks << kChunkBits),
        std::memory_order_release);
    return true;
  }

  // Lets the standby worker in if the caller stands by in this round.
  void WakeStandby() {
    if (stand_by_.load(std::memory_order_relaxed)) {
      standby_epoch_.fetch_add(1, std::memory_order_seq_cst);
      standby_waiter_.Notify();
    }
  }

  // Runs one chunk of the current round if any is left; returns its size.
  template <typename Process>
  std::size_t WorkOneChunk(Process&& process) {
    std::uint64_t ticket = ticket_.load(std::memory_order_acquire);
    while (true) {
      const std::uint64_t chunks = (ticket >> kChunkBits) & kChunkMask;
      const std::uint64_t next = ticket & kChunkMask;
      if (next >= chunks) {
        return 0;
      }
      if (ticket_.compare_exchange_weak(ticket, ticket + 1,
                                        std::memory_order_acq_rel,
                                        std::memory_order_acquire)) {
        // The round cannot finish, nor its fields change, before this chunk
        // is counted done; nothing of it may be read after that.
        const std::size_t size = size_;
        const std::size_t begin = next * chunk_;
        const std::size_t end = std::min(size, begin + chunk_);
        BatchBuffer* buffer = buffer_.get();
        for (std::size_t row = begin; row < end; ++row) {
          Output out(buffer, row);
          process(ids_[row], out);
        }
        const std::size_t count = end - begin;
        if (done_.fetch_add(count, std::memory_order_seq_cst) + count == size) {
          waiter_.Notify();
        }
        return count;
      }
    }
  }

  // Does the caller's share of the round and waits for the rest; the batch
  // holds the results in the order of the ids. `num_workers`: the threads
  // besides the caller that run the round.
  template <typename Process>
  Batch Finish(Process&& process, const InterruptCheck& interrupt,
               int num_workers) {
    interrupted_ = false;
    const auto start = Waiter::Clock::now();
    // Env code the caller runs cannot be interrupted, so the caller leaves
    // slow envs to the workers and only waits, ready for Ctrl-C.
    const bool stand_by = !solo_ && stand_by_.load(std::memory_order_relaxed);
    try {
      if (solo_) {
        RunSolo(process);
        Measure(start, size_, 1);
      } else if (!stand_by) {
        std::size_t mine = 0;
        auto last_check = start;
        while (const std::size_t count = WorkOneChunk(process)) {
          mine += count;
          const auto now = Waiter::Clock::now();
          if (interrupt && now - last_check > kInterruptPollEvery) {
            last_check = now;
            interrupt();
          }
        }
        Measure(start, mine, 1);
      }
      WaitInterruptibly(
          waiter_,
          [&] { return done_.load(std::memory_order_acquire) == size_; },
          interrupt, kRoundSpin);
    } catch (...) {
      interrupted_ = true;
      throw;
    }
    if (stand_by) {
      Measure(start, size_, static_cast<std::size_t>(num_workers));
    }
    pending_ = false;
    return Batch{std::move(buffer_), size_, buffers_};
  }

  // Starts the extra sync worker: it works only the rounds whose caller
  // stands by (slow envs), so every round has num_threads threads at work
  // and none more competing for the cores.
  template <typename Process>
  void StartStandby(Process process, const Placement& placement, int index) {
    standby_ = std::thread([this, process]() mutable {
      while (true) {
        const std::uint32_t epoch =
            standby_epoch_.load(std::memory_order_seq_cst);
        if (standby_stop_.load(std::memory_order_acquire)) {
          return;
        }
        while (stand_by_.load(std::memory_order_acquire) &&
               WorkOneChunk(process) != 0) {
        }
        standby_waiter_.Wait(
            [&] {
              return standby_epoch_.load(std::memory_order_seq_cst) != epoch;
            },
            [] {}, kWorkerSpin, kInterruptPollEvery);
      }
    });
    PinThread(standby_, placement, index);
  }

  // Stops and joins the standby worker (if any) after its current env.
  void StopStandby() {
    standby_stop_.store(true, std::memory_order_seq_cst);
    standby_epoch_.fetch_add(1, std::memory_order_seq_cst);
    standby_waiter_.Notify();
    if (standby_.joinable()) {
      standby_.join();
    }
  }

 private:
  // The ticket packs [generation:24 | chunks:20 | next chunk:20].
  static constexpr int kChunkBits = 20;
  static constexpr std::uint64_t kChunkMask = (1ULL << kChunkBits) - 1;
  static_assert(kMaxPoolEnvs == (1 << kChunkBits) - 1);
  static constexpr auto kWorkerSpin = std::chrono::microseconds(50);
  static constexpr auto kRoundSpin = std::chrono::microseconds(200);
  // Envs slower than this per step are not run by the calling thread (see
  // Finish); a hand-off costs about a microsecond.
  static constexpr double kCallerStandsByNs = 1e6;

  // Runs every row of a solo round on the calling thread.
  template <typename Process>
  void RunSolo(Process&& process) {
    BatchBuffer* buffer = buffer_.get();
    for (std::size_t row = 0; row < size_; ++row) {
      Output out(buffer, row);
      process(ids_[row], out);
    }
    done_.store(size_, std::memory_order_relaxed);
  }

  // Updates the running estimate of one env's step cost from `envs` envs
  // stepped since `start` by `threads` threads.
  void Measure(Waiter::Clock::time_point start, std::size_t envs,
               std::size_t threads) {
    if (envs == 0) {
      return;
    }
    const double ns =
        std::chrono::duration<double, std::nano>(Waiter::Clock::now() - start)
            .count() *
        static_cast<double>(std::min(threads, envs)) /
        static_cast<double>(envs);
    ns_per_env_ =
        ns_per_env_ == 0.0 ? ns : ns_per_env_ + (ns - ns_per_env_) / 8;
  }

  std::shared_ptr<BufferPool> buffers_;
  int num_threads_;
  double solo_round_ns_;

  // The round; written by the caller before the ticket hands it out.
  std::vector<std::int32_t> ids_;
  std::size_t size_ = 0;
  std::size_t chunk_ = 1;
  std::unique_ptr<BatchBuffer> buffer_;
  alignas(64) std::atomic<std::size_t> done_{0};

  // The caller's.
  bool pending_ = false;
  bool interrupted_ = false;
  bool solo_ = false;
  double ns_per_env_ = 0.0;  // running estimate, from the caller's own rows
  std::uint64_t generation_ = 0;

  alignas(64) std::atomic<std::uint64_t> ticket_{0};
  Waiter waiter_;

  // The standby worker.
  std::thread standby_;
  std::atomic<bool> standby_stop_{false};
  alignas(64) std::atomic<std::uint32_t> standby_epoch_{0};
  Waiter standby_waiter_;
  std::atomic<bool> stand_by_{false};
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_SYNC_ROUND_H_
