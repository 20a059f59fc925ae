// A set of worker threads that runs the work of one or more pools.
//
// A pool attaches itself as a WorkSource and calls Wake() whenever it has
// handed out work; every worker visits the attached sources in turn and runs
// a bounded share of each, so one busy pool cannot starve another. A pool made
// without a shared group owns a private one, so both cases run the same code.
//
// Detach() returns only once no worker is inside the source, so a pool may
// be destroyed right after; the group itself lives as long as its last
// shared_ptr (pools and the Python handle hold one each).
#ifndef ENVPOOL_CORE_WORKER_GROUP_H_
#define ENVPOOL_CORE_WORKER_GROUP_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "envpool/core/placement.h"
#include "envpool/core/waiter.h"

namespace envpool {

class WorkSource {
 public:
  virtual ~WorkSource() = default;
  // Runs at most `limit` units of work (envs or round chunks) if any are
  // waiting; returns how many it ran.
  virtual std::size_t RunSome(std::size_t limit) = 0;
};

class WorkerGroup {
 public:
  // A source's link to the group. Workers check `detached` after announcing
  // themselves in `busy`, and Detach() sets `detached` before reading `busy`
  // (both seq_cst): whichever comes second sees the other.
  struct Attachment {
    WorkSource* source = nullptr;
    alignas(64) std::atomic<int> busy{0};
    std::atomic<bool> detached{false};
  };

  WorkerGroup(int num_threads, Placement placement)
      : placement_(std::move(placement)),
        spin_(IdleSpin(num_threads, UsableCpuCount())) {
    if (num_threads < 1) {
      throw std::invalid_argument("a worker group needs >= 1 thread, got " +
                                  std::to_string(num_threads));
    }
    threads_.reserve(static_cast<std::size_t>(num_threads));
    try {
      for (int i = 0; i < num_threads; ++i) {
        threads_.emplace_back([this, i] { Loop(i); });
        PinThread(threads_.back(), placement_, i);
      }
    } catch (...) {
      Stop();
      throw;
    }
  }

  ~WorkerGroup() { Stop(); }

  WorkerGroup(const WorkerGroup&) = delete;
  WorkerGroup& operator=(const WorkerGroup&) = delete;

  int num_threads() const { return static_cast<int>(threads_.size()); }

  // How long an idle worker spins before it sleeps: kSpin while a CPU is left
  // for the thread that calls the pool, none once the workers take every
  // usable CPU, where a spinning worker could only take the caller's time
  // (benchmarks/idle_workers.py measures it; docs/performance.md).
  static std::chrono::microseconds IdleSpin(int num_threads, int usable_cpus) {
    return num_threads < usable_cpus ? kSpin : std::chrono::microseconds(0);
  }
  std::chrono::microseconds idle_spin() const { return spin_; }

  std::shared_ptr<Attachment> Attach(WorkSource* source) {
    auto attachment = std::make_shared<Attachment>();
    attachment->source = source;
    std::lock_guard lock(mutex_);
    sources_.push_back(attachment);
    sources_version_.fetch_add(1, std::memory_order_release);
    return attachment;
  }

  // Stops workers from entering the source and waits for those inside.
  void Detach(const std::shared_ptr<Attachment>& attachment) {
    attachment->detached.store(true, std::memory_order_seq_cst);
    // A worker inside runs at most the env it is stepping, which may be slow:
    // yield a while, then nap rather than burn a core.
    for (int i = 0; attachment->busy.load(std::memory_order_seq_cst) != 0;
         ++i) {
      if (i < 1000) {
        std::this_thread::yield();
      } else {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
    }
    std::lock_guard lock(mutex_);
    std::erase(sources_, attachment);
    sources_version_.fetch_add(1, std::memory_order_release);
  }

  // Call after making work visible to RunSome() with a seq_cst write.
  void Wake() {
    epoch_.fetch_add(1, std::memory_order_seq_cst);
    waiter_.Notify();
  }

 private:
  static constexpr auto kSpin = std::chrono::microseconds(50);
  static constexpr auto kPollEvery = std::chrono::milliseconds(50);
  // Units a worker runs of one source before it looks at the next; enough to
  // keep the per-visit cost small next to the envs' own.
  static constexpr std::size_t kShare = 8;

  void Stop() {
    stop_.store(true, std::memory_order_seq_cst);
    Wake();
    for (auto& thread : threads_) {
      thread.join();
    }
    threads_.clear();
  }

  void Loop(int index) {
    std::vector<std::shared_ptr<Attachment>> sources;
    std::uint64_t version = ~std::uint64_t{0};
    auto next = static_cast<std::size_t>(index);
    while (true) {
      const std::uint32_t epoch = epoch_.load(std::memory_order_seq_cst);
      if (stop_.load(std::memory_order_acquire)) {
        return;
      }
      if (sources_version_.load(std::memory_order_acquire) != version) {
        std::lock_guard lock(mutex_);
        version = sources_version_.load(std::memory_order_relaxed);
        sources = sources_;
      }
      // One source alone gets all the worker's time; several take turns.
      const std::size_t share = sources.size() == 1 ? ~std::size_t{0} : kShare;
      bool worked = false;
      bool pass_worked = true;
      while (pass_worked && !stop_.load(std::memory_order_relaxed)) {
        pass_worked = false;
        for (std::size_t k = 0; k < sources.size(); ++k) {
          Attachment& a = *sources[(next + k) % sources.size()];
          a.busy.fetch_add(1, std::memory_order_seq_cst);
          if (!a.detached.load(std::memory_order_seq_cst) &&
              a.source->RunSome(share) != 0) {
            pass_worked = true;
          }
          a.busy.fetch_sub(1, std::memory_order_seq_cst);
        }
        ++next;
        worked = worked || pass_worked;
      }
      if (!worked) {
        waiter_.Wait(
            [&] { return epoch_.load(std::memory_order_seq_cst) != epoch; },
            [] {}, spin_, kPollEvery);
      }
    }
  }

  Placement placement_;
  std::chrono::microseconds spin_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<Attachment>> sources_;
  alignas(64) std::atomic<std::uint64_t> sources_version_{0};
  alignas(64) std::atomic<std::uint32_t> epoch_{0};
  std::atomic<bool> stop_{false};
  Waiter waiter_;
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_WORKER_GROUP_H_
