// Blocking on a condition with a short spin first, cheap to signal when
// nobody sleeps, and with a periodic hook so a blocked call can be abandoned.
#ifndef ENVPOOL_CORE_WAITER_H_
#define ENVPOOL_CORE_WAITER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace envpool {

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

class Waiter {
 public:
  using Clock = std::chrono::steady_clock;

  // Returns once ready() holds. Spins for about `spin` first, then sleeps,
  // calling poll() every `poll_every` while asleep; poll() may throw to give
  // up waiting.
  template <typename Ready, typename Poll>
  void Wait(Ready ready, Poll poll, Clock::duration spin,
            Clock::duration poll_every) {
    if (ready()) {
      return;
    }
    if (spin.count() > 0) {
      const auto spin_until = Clock::now() + spin;
      for (unsigned i = 1;; ++i) {
        CpuRelax();
        if (ready()) {
          return;
        }
        if ((i & 63U) == 0) {
          if (Clock::now() > spin_until) {
            break;
          }
          std::this_thread::yield();
        }
      }
    }
    while (true) {
      {
        std::unique_lock lock(mutex_);
        sleepers_.fetch_add(1, std::memory_order_seq_cst);
        bool done = ready();
        if (!done) {
          cv_.wait_for(lock, poll_every);
          done = ready();
        }
        sleepers_.fetch_sub(1, std::memory_order_relaxed);
        if (done) {
          return;
        }
      }
      poll();
    }
  }

  // Call after making ready() true with a seq_cst (or stronger) write.
  void Notify() {
    if (sleepers_.load(std::memory_order_seq_cst) > 0) {
      std::lock_guard lock(mutex_);
      cv_.notify_all();
    }
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::atomic<int> sleepers_{0};
};

// Called now and then while a caller's call blocks; may throw to abandon the
// wait.
using InterruptCheck = std::function<void()>;

// How often a blocked call checks for an interrupt once asleep.
inline constexpr auto kInterruptPollEvery = std::chrono::milliseconds(50);

// Waits on `waiter` for ready() on behalf of a caller, checking `interrupt`
// (when set) every kInterruptPollEvery while asleep.
template <typename Ready>
void WaitInterruptibly(Waiter& waiter, Ready ready,
                       const InterruptCheck& interrupt,
                       Waiter::Clock::duration spin) {
  waiter.Wait(
      ready,
      [&] {
        if (interrupt) {
          interrupt();
        }
      },
      spin, kInterruptPollEvery);
}

}  // namespace envpool

#endif  // ENVPOOL_CORE_WAITER_H_
