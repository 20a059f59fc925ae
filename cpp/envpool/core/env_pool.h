// The engine: runs many envs of one type on a pool of threads and hands their
// results back in batches.
//
// Sync mode (batch_size == num_envs): Send() starts a round over a list of
// envs, cut into chunks that the workers and the receiving thread take from
// one atomic ticket; the results come back in the order of the list.
// Async mode (batch_size < num_envs): Send() queues envs; workers take them
// one at a time, and each result claims the next row of the batch being
// filled, so Recv() returns the first batch_size envs to finish.
//
// The caller (one thread at a time; the Python binding serialises calls)
// owns all bookkeeping of which env is in flight. Workers only touch the envs
// handed to them and the atomics that hand work over.
#ifndef ENVPOOL_CORE_ENV_POOL_H_
#define ENVPOOL_CORE_ENV_POOL_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "envpool/core/batch.h"
#include "envpool/core/env.h"
#include "envpool/core/errors.h"
#include "envpool/core/placement.h"
#include "envpool/core/pool_options.h"
#include "envpool/core/task_queue.h"
#include "envpool/core/waiter.h"
#include "envpool/core/worker_group.h"

namespace envpool {

// A finished batch. Rows [0, size) of `buffer` hold results; the buffer goes
// back to `pool` once its last user is done with it.
struct Batch {
  std::unique_ptr<BatchBuffer> buffer;
  std::size_t size = 0;
  std::shared_ptr<BufferPool> pool;
};

// Called now and then while a call blocks; may throw to abandon the wait.
using InterruptCheck = std::function<void()>;

template <Environment E>
class EnvPool final : public WorkSource {
 public:
  using Action = typename E::Action;
  using Scalar = ActionScalar<E>;

  // `configs` holds one Config for every env, or one shared by all.
  EnvPool(std::vector<Config> configs, PoolOptions options)
      : options_(Validate(std::move(options), configs.size())),
        spec_(E::Spec(configs.front())),
        action_size_(spec_.action.NumElements()),
        slots_(static_cast<std::size_t>(options_.num_envs)),
        actions_(static_cast<std::size_t>(options_.num_envs) * action_size_),
        mark_(static_cast<std::size_t>(options_.num_envs), 0),
        queue_(static_cast<std::size_t>(options_.num_envs)) {
    CheckActionSpec();
    if constexpr (Renderable<E>) {
      render_shape_ = E::RenderShape(configs.front());
    }
    const bool final_fields =
        options_.autoreset_mode == AutoresetMode::kSameStep;
    const auto num_envs = static_cast<std::size_t>(options_.num_envs);
    round_pool_ = std::make_shared<BufferPool>(spec_, num_envs, final_fields,
                                               options_.memory_node);
    round_.ids.resize(num_envs);
    if (!is_sync()) {
      batch_pool_ = std::make_shared<BufferPool>(
          spec_, static_cast<std::size_t>(options_.batch_size), final_fields,
          options_.memory_node);
      ring_size_ =
          (num_envs + options_.batch_size - 1) / options_.batch_size + 1;
      ring_ = std::make_unique<RingEntry[]>(ring_size_);
      for (std::size_t i = 0; i < ring_size_; ++i) {
        ring_[i].buffer = batch_pool_->Acquire();
      }
    }
    seeds_.resize(num_envs);
    for (std::size_t i = 0; i < num_envs; ++i) {
      seeds_[i] = EnvSeed(options_.seed, static_cast<std::int64_t>(i));
      slots_[i].rng.Seed(seeds_[i]);
    }
    BuildEnvs(configs);
    if constexpr (Seedable<E>) {
      for (std::size_t i = 0; i < num_envs; ++i) {
        slots_[i].env->Seed(seeds_[i]);
      }
    }
    StartWorkers();
  }

  ~EnvPool() override { Close(); }
  EnvPool(const EnvPool&) = delete;
  EnvPool& operator=(const EnvPool&) = delete;

  const EnvSpec& spec() const { return spec_; }
  const PoolOptions& options() const { return options_; }
  // Each env's seed: the pool's seed + i, or what its last seeded reset gave.
  const std::vector<std::uint64_t>& seeds() const { return seeds_; }
  int num_envs() const { return options_.num_envs; }
  int batch_size() const { return options_.batch_size; }
  bool is_sync() const { return options_.batch_size == options_.num_envs; }
  bool closed() const { return closed_; }
  bool shares_workers() const { return options_.worker_group != nullptr; }
  std::size_t action_size() const { return action_size_; }
  // Envs sent and not yet received.
  int num_pending() const { return num_pending_; }
  // True while an env must be reset before it may step again.
  bool needs_reset(int env_id) const { return slots_[env_id].needs_reset; }

  // Where the caller writes env `env_id`'s next action before Send().
  Scalar* action_row(int env_id) {
    return actions_.data() + static_cast<std::size_t>(env_id) * action_size_;
  }

  // Throws, changing nothing, unless every env in `ids` may be sent now.
  void CheckSend(std::span<const std::int32_t> ids, bool reset) {
    CheckOpen();
    if (ids.empty()) {
      throw std::invalid_argument("no env ids given");
    }
    if (is_sync() && round_pending_) {
      throw CallOrderError(
          "the previous send() has not been received; call recv() first");
    }
    ++stamp_;
    for (const std::int32_t id : ids) {
      if (id < 0 || id >= options_.num_envs) {
        throw std::out_of_range("env_id " + std::to_string(id) +
                                " is out of range [0, " +
                                std::to_string(options_.num_envs) + ")");
      }
      if (mark_[id] == stamp_) {
        throw std::invalid_argument("env_id " + std::to_string(id) +
                                    " appears twice");
      }
      mark_[id] = stamp_;
      if (slots_[id].pending) {
        throw CallOrderError("env " + std::to_string(id) +
                             " is still in flight or its result has not "
                             "been received; recv() it before sending it "
                             "again");
      }
      if (!reset && options_.autoreset_mode == AutoresetMode::kDisabled &&
          slots_[id].needs_reset) {
        throw CallOrderError(
            "env " + std::to_string(id) +
            " has ended its episode (or was never reset) and "
            "autoreset_mode is 'disabled'; reset it before stepping");
      }
    }
  }

  // Starts stepping `ids`. After the ids pass CheckSend, write_actions()
  // fills their action rows; if it throws, nothing has changed.
  template <typename WriteActions>
  void Send(std::span<const std::int32_t> ids, WriteActions&& write_actions) {
    DropInterruptedRound();
    CheckSend(ids, false);
    write_actions();
    Dispatch(ids, false, {}, is_sync());
  }

  // Starts stepping `ids` with the actions already in their action rows.
  void Send(std::span<const std::int32_t> ids) {
    Send(ids, [] {});
  }

  // Starts resetting `ids`, reseeding those given a seed.
  void SendReset(std::span<const std::int32_t> ids,
                 std::span<const std::optional<std::uint64_t>> seeds = {}) {
    DropInterruptedRound();
    CheckSend(ids, true);
    Dispatch(ids, true, seeds, is_sync());
  }

  // Waits for the next batch: in sync mode the results of the last Send(),
  // in order; in async mode the first batch_size envs to finish.
  Batch Recv(const InterruptCheck& interrupt = {}) {
    CheckOpen();
    if (is_sync()) {
      if (!round_pending_) {
        throw CallOrderError("recv() with nothing in flight; send() first");
      }
      return FinishRound(interrupt);
    }
    if (num_pending_ < options_.batch_size) {
      throw CallOrderError(
          "recv() needs batch_size=" + std::to_string(options_.batch_size) +
          " results but only " + std::to_string(num_pending_) +
          " envs are in flight; send() more first");
    }
    RingEntry& entry = ring_[next_recv_ % ring_size_];
    const auto full = static_cast<std::size_t>(options_.batch_size);
    Wait(
        recv_waiter_,
        [&] { return entry.written.load(std::memory_order_acquire) == full; },
        interrupt, kRecvSpin);
    Batch batch{std::move(entry.buffer), full, batch_pool_};
    entry.buffer = batch_pool_->Acquire();
    entry.written.store(0, std::memory_order_relaxed);
    ++next_recv_;
    Received(batch);
    return batch;
  }

  // Resets `ids` (reseeding those given a seed) and waits for them, results
  // in order. Results still in flight are waited for and dropped first.
  Batch Reset(std::span<const std::int32_t> ids,
              std::span<const std::optional<std::uint64_t>> seeds,
              const InterruptCheck& interrupt = {}) {
    CheckOpen();
    Drain(interrupt);
    CheckSend(ids, true);
    Dispatch(ids, true, seeds, /*as_round=*/true);
    return FinishRound(interrupt);
  }

  // Writes the current RGB frame of each env in `ids` into `out`, one frame
  // after another, on the calling thread. The envs must not be in flight.
  void Render(std::span<const std::int32_t> ids, std::uint8_t* out)
    requires Renderable<E>
  {
    CheckRenderable(ids);
    std::size_t frame_bytes = 1;
    for (const auto d : render_shape_) {
      frame_bytes *= static_cast<std::size_t>(d);
    }
    for (std::size_t i = 0; i < ids.size(); ++i) {
      slots_[ids[i]].env->Render({out + i * frame_bytes, frame_bytes});
    }
  }

  // The text of each env in `ids` (gymnasium's "ansi" render mode).
  std::vector<std::string> RenderAnsi(std::span<const std::int32_t> ids)
    requires AnsiRenderable<E>
  {
    CheckRenderable(ids);
    std::vector<std::string> texts;
    texts.reserve(ids.size());
    for (const std::int32_t id : ids) {
      texts.push_back(slots_[id].env->RenderAnsi());
    }
    return texts;
  }

  const std::vector<std::int64_t>& render_shape() const {
    return render_shape_;
  }

  // Stops the workers after their current env. Idempotent.
  void Close() {
    if (closed_) {
      return;
    }
    closed_ = true;
    stop_.store(true, std::memory_order_seq_cst);
    if (group_ != nullptr) {
      group_->Detach(attachment_);
      attachment_.reset();
      group_.reset();  // joins a private group's threads
    }
    standby_epoch_.fetch_add(1, std::memory_order_seq_cst);
    standby_waiter_.Notify();
    if (standby_.joinable()) {
      standby_.join();
    }
  }

  // Runs up to `limit` chunks of the current round or envs of the async
  // queue; called by the worker group's threads.
  std::size_t RunSome(std::size_t limit) override {
    std::size_t ran = 0;
    while (ran < limit && WorkOneChunk() != 0) {
      ++ran;
    }
    if (!is_sync()) {
      while (ran < limit && !stop_.load(std::memory_order_relaxed)) {
        const auto id = queue_.TryPop();
        if (!id) {
          break;
        }
        ProcessAsync(*id);
        ++ran;
      }
    }
    return ran;
  }

 private:
  struct alignas(64) EnvSlot {
    std::unique_ptr<E> env;
    Rng rng;
    std::int32_t elapsed = 0;
    bool needs_reset = true;
    bool reset_requested = false;
    std::optional<std::uint64_t> seed;
    std::string error;     // set by the thread that ran the env
    bool pending = false;  // caller's bookkeeping
  };

  struct Round {
    std::vector<std::int32_t> ids;
    std::size_t size = 0;
    std::size_t chunk = 1;
    std::unique_ptr<BatchBuffer> buffer;
    alignas(64) std::atomic<std::size_t> done{0};
  };

  struct RingEntry {
    std::unique_ptr<BatchBuffer> buffer;
    alignas(64) std::atomic<std::size_t> written{0};
  };

  // Claims rows of the async batch being filled, remembering which batch.
  class AsyncRows final : public RowSource {
   public:
    explicit AsyncRows(EnvPool* pool) : pool_(pool) {}
    std::size_t ClaimRow(BatchBuffer*& buffer) override {
      // acq_rel chains every claim to the previous ones. Counting shows that
      // an earlier claim in that chain came from an env sent after the recv()
      // that put this ring slot's fresh buffer in place, so the chain orders
      // that write before this read.
      const std::uint64_t index =
          pool_->claim_.fetch_add(1, std::memory_order_acq_rel);
      const auto batch_size =
          static_cast<std::uint64_t>(pool_->options_.batch_size);
      batch_ = index / batch_size;
      buffer = pool_->ring_[batch_ % pool_->ring_size_].buffer.get();
      return static_cast<std::size_t>(index % batch_size);
    }
    std::uint64_t batch() const { return batch_; }

   private:
    EnvPool* pool_;
    std::uint64_t batch_ = 0;
  };

  // The round ticket packs [generation:24 | chunks:20 | next chunk:20].
  static constexpr int kChunkBits = 20;
  static constexpr std::uint64_t kChunkMask = (1ULL << kChunkBits) - 1;
  static constexpr int kMaxEnvs = (1 << kChunkBits) - 1;
  static_assert(kMaxEnvs == kMaxPoolEnvs);
  static constexpr auto kWorkerSpin = std::chrono::microseconds(50);
  static constexpr auto kRoundSpin = std::chrono::microseconds(200);
  static constexpr auto kRecvSpin = std::chrono::microseconds(20);
  static constexpr auto kPollEvery = std::chrono::milliseconds(50);
  // Envs slower than this per step are not run by the calling thread in a
  // sync round (see FinishRound); a hand-off costs about a microsecond.
  static constexpr double kCallerStandsByNs = 1e6;

  static PoolOptions Validate(PoolOptions options, std::size_t num_configs) {
    ResolvePoolOptions(options);
    if (num_configs != 1 &&
        num_configs != static_cast<std::size_t>(options.num_envs)) {
      throw std::invalid_argument(
          "per-env options need one value per env: got " +
          std::to_string(num_configs) +
          " for num_envs=" + std::to_string(options.num_envs));
    }
    return options;
  }

  void CheckActionSpec() const {
    if (spec_.info.size() > Output::kMaxInfo) {
      throw std::logic_error("an env may have at most " +
                             std::to_string(Output::kMaxInfo) + " info arrays");
    }
    const DType expected = kDTypeOf<Scalar>;
    if (spec_.action.dtype != expected ||
        (DiscreteAction<Action> && !spec_.action.shape.empty())) {
      throw std::logic_error(
          "the env's action spec does not match its Action type");
    }
  }

  // Envs may be drawn only while none of `ids` is stepping.
  void CheckRenderable(std::span<const std::int32_t> ids) {
    CheckOpen();
    ++stamp_;
    for (const std::int32_t id : ids) {
      if (id < 0 || id >= options_.num_envs) {
        throw std::out_of_range("env_id " + std::to_string(id) +
                                " is out of range");
      }
      if (slots_[id].pending) {
        throw CallOrderError("env " + std::to_string(id) +
                             " is in flight; recv() it before render()");
      }
    }
  }

  void BuildEnvs(const std::vector<Config>& configs) {
    for (std::size_t i = 1; i < configs.size(); ++i) {
      if (!(E::Spec(configs[i]) == spec_)) {
        throw std::invalid_argument(
            "per-env options of env " + std::to_string(i) +
            " change its observation or action spec; all envs in a pool must "
            "share one spec");
      }
    }
    std::atomic<std::size_t> next{0};
    std::exception_ptr error;
    std::mutex error_mutex;
    auto build = [&] {
      for (std::size_t i = next++; i < slots_.size(); i = next++) {
        try {
          slots_[i].env = std::make_unique<E>(
              configs.size() == 1 ? configs.front() : configs[i]);
        } catch (...) {
          std::lock_guard lock(error_mutex);
          if (!error) {
            error = std::current_exception();
          }
        }
      }
    };
    // With a placement, every env is built (and its memory first touched)
    // by a thread on the pool's CPUs, none by the caller's thread.
    const Placement placement = OwnPlacement();
    const bool placed = !placement.cpus.empty();
    std::vector<std::thread> builders;
    const int num_builders = std::min(static_cast<int>(slots_.size()),
                                      std::max(1, options_.num_threads));
    for (int i = placed ? 0 : 1; i < num_builders; ++i) {
      builders.emplace_back(build);
      if (placed) {
        PinThread(builders.back(), placement, i);
      }
    }
    if (!placed) {
      build();
    }
    for (auto& builder : builders) {
      builder.join();
    }
    if (error) {
      std::rethrow_exception(error);
    }
  }

  void CheckOpen() const {
    if (closed_) {
      throw CallOrderError("the pool is closed");
    }
  }

  template <typename Ready>
  void Wait(Waiter& waiter, Ready ready, const InterruptCheck& interrupt,
            Waiter::Clock::duration spin) {
    waiter.Wait(
        ready,
        [&] {
          if (interrupt) {
            interrupt();
          }
        },
        spin, kPollEvery);
  }

  void WakeWorkers() { group_->Wake(); }

  // The pool's own CPUs, memory node and pinning (unused with a shared group,
  // whose threads are placed by the group).
  Placement OwnPlacement() const {
    Placement placement;
    placement.cpus = options_.cpus;
    placement.affinity_offset = options_.thread_affinity_offset;
    placement.memory_node = options_.memory_node;
    return placement;
  }

  // Sync mode runs num_threads - 1 workers beside the caller, plus a standby
  // worker that takes the caller's share of rounds it stands by for; async
  // mode runs num_threads workers. A shared group replaces the workers.
  void StartWorkers() {
    if (options_.worker_group != nullptr) {
      group_ = options_.worker_group;
      num_workers_ = group_->num_threads();
    } else {
      const int num_workers =
          is_sync() ? options_.num_threads - 1 : options_.num_threads;
      if (num_workers == 0) {
        return;
      }
      // Pinned before make() returns, not when a thread first runs.
      group_ = std::make_shared<WorkerGroup>(num_workers, OwnPlacement());
      num_workers_ = num_workers;
      if (is_sync()) {
        standby_ = std::thread([this] { StandbyWorkerLoop(); });
        PinThread(standby_, OwnPlacement(), num_workers);
        ++num_workers_;
      }
    }
    attachment_ = group_->Attach(this);
  }

  // Hands `ids` to the threads: as one round (results in order, collected
  // by FinishRound) or through the async queue.
  void Dispatch(std::span<const std::int32_t> ids, bool reset,
                std::span<const std::optional<std::uint64_t>> seeds,
                bool as_round) {
    for (std::size_t i = 0; i < ids.size(); ++i) {
      EnvSlot& slot = slots_[ids[i]];
      slot.pending = true;
      slot.reset_requested = reset;
      slot.seed = i < seeds.size() ? seeds[i] : std::nullopt;
      if (slot.seed) {
        seeds_[ids[i]] = *slot.seed;
      }
    }
    num_pending_ += static_cast<int>(ids.size());
    if (as_round) {
      StartRound(ids);
    } else {
      sent_ += ids.size();
      for (const std::int32_t id : ids) {
        queue_.Push(id);
      }
      WakeWorkers();
    }
  }

  // Sync rounds.

  void StartRound(std::span<const std::int32_t> ids) {
    round_pending_ = true;
    std::copy(ids.begin(), ids.end(), round_.ids.begin());
    round_.size = ids.size();
    round_.buffer = round_pool_->Acquire();
    round_.done.store(0, std::memory_order_relaxed);
    // A round of cheap envs is done by the caller alone (see solo_round_ns).
    round_solo_ =
        group_ == nullptr ||
        (ns_per_env_ > 0.0 && ns_per_env_ * static_cast<double>(ids.size()) <
                                  options_.solo_round_ns);
    if (round_solo_) {
      return;
    }
    const auto pieces = static_cast<std::size_t>(options_.num_threads) * 4;
    round_.chunk = std::max<std::size_t>(1, (ids.size() + pieces - 1) / pieces);
    const std::size_t chunks = (ids.size() + round_.chunk - 1) / round_.chunk;
    round_stand_by_.store(ns_per_env_ > kCallerStandsByNs,
                          std::memory_order_relaxed);
    ++round_generation_;
    round_ticket_.store(((round_generation_ & 0xFFFFFF) << (2 * kChunkBits)) |
                            (chunks << kChunkBits),
                        std::memory_order_release);
    WakeWorkers();
    if (round_stand_by_.load(std::memory_order_relaxed)) {
      standby_epoch_.fetch_add(1, std::memory_order_seq_cst);
      standby_waiter_.Notify();
    }
  }

  // Runs every row of a solo round on the calling thread.
  void RunSoloRound() {
    BatchBuffer* buffer = round_.buffer.get();
    for (std::size_t row = 0; row < round_.size; ++row) {
      Output out(buffer, row);
      Process(round_.ids[row], out);
    }
    round_.done.store(round_.size, std::memory_order_relaxed);
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

  // Runs one chunk of the current round if any is left; returns its size.
  std::size_t WorkOneChunk() {
    std::uint64_t ticket = round_ticket_.load(std::memory_order_acquire);
    while (true) {
      const std::uint64_t chunks = (ticket >> kChunkBits) & kChunkMask;
      const std::uint64_t next = ticket & kChunkMask;
      if (next >= chunks) {
        return 0;
      }
      if (round_ticket_.compare_exchange_weak(ticket, ticket + 1,
                                              std::memory_order_acq_rel,
                                              std::memory_order_acquire)) {
        // The round cannot finish, nor its fields change, before this chunk
        // is counted done; nothing of it may be read after that.
        const std::size_t size = round_.size;
        const std::size_t begin = next * round_.chunk;
        const std::size_t end = std::min(size, begin + round_.chunk);
        BatchBuffer* buffer = round_.buffer.get();
        for (std::size_t row = begin; row < end; ++row) {
          Output out(buffer, row);
          Process(round_.ids[row], out);
        }
        const std::size_t count = end - begin;
        if (round_.done.fetch_add(count, std::memory_order_seq_cst) + count ==
            size) {
          round_waiter_.Notify();
        }
        return count;
      }
    }
  }

  Batch FinishRound(const InterruptCheck& interrupt) {
    round_interrupted_ = false;
    const auto start = Waiter::Clock::now();
    // Env code the caller runs cannot be interrupted, so the caller leaves
    // slow envs to the workers and only waits, ready for Ctrl-C.
    const bool stand_by =
        !round_solo_ && round_stand_by_.load(std::memory_order_relaxed);
    try {
      if (round_solo_) {
        RunSoloRound();
        Measure(start, round_.size, 1);
      } else if (!stand_by) {
        std::size_t mine = 0;
        auto last_check = start;
        while (const std::size_t count = WorkOneChunk()) {
          mine += count;
          const auto now = Waiter::Clock::now();
          if (interrupt && now - last_check > kPollEvery) {
            last_check = now;
            interrupt();
          }
        }
        Measure(start, mine, 1);
      }
      Wait(
          round_waiter_,
          [&] {
            return round_.done.load(std::memory_order_acquire) == round_.size;
          },
          interrupt, kRoundSpin);
    } catch (...) {
      round_interrupted_ = true;
      throw;
    }
    if (stand_by) {
      Measure(start, round_.size, static_cast<std::size_t>(num_workers_));
    }
    round_pending_ = false;
    Batch batch{std::move(round_.buffer), round_.size, round_pool_};
    Received(batch);
    return batch;
  }

  // A step whose wait was interrupted (Ctrl-C) left its round running; the
  // next call finishes it and drops its results instead of failing.
  void DropInterruptedRound() {
    CheckOpen();
    if (round_interrupted_) {
      DiscardRound({});
    }
  }

  void DiscardRound(const InterruptCheck& interrupt) {
    try {
      Batch dropped = FinishRound(interrupt);
      dropped.pool->Release(std::move(dropped.buffer));
    } catch (const EnvError& unwanted) {
      // The failed env is marked for reset; its result was unwanted anyway.
      static_cast<void>(unwanted);
    }
  }

  // Waits for every env in flight and drops the results, so that a reset
  // can start from a clean pool.
  void Drain(const InterruptCheck& interrupt) {
    if (is_sync()) {
      if (round_pending_) {
        DiscardRound(interrupt);
      }
      return;
    }
    if (num_pending_ == 0) {
      return;
    }
    Wait(
        recv_waiter_,
        [&] { return completed_.load(std::memory_order_acquire) == sent_; },
        interrupt, kRecvSpin);
    for (std::size_t i = 0; i < ring_size_; ++i) {
      ring_[i].written.store(0, std::memory_order_relaxed);
    }
    claim_.store(0, std::memory_order_relaxed);
    completed_.store(0, std::memory_order_relaxed);
    sent_ = 0;
    next_recv_ = 0;
    num_pending_ = 0;
    for (auto& slot : slots_) {
      slot.pending = false;
      if (!slot.error.empty()) {
        slot.error.clear();
      }
    }
    errors_.store(0, std::memory_order_relaxed);
  }

  // Bookkeeping once a batch is in the caller's hands; throws if an env in
  // it failed.
  void Received(Batch& batch) {
    const BatchBuffer& buffer = *batch.buffer;
    for (std::size_t row = 0; row < batch.size; ++row) {
      slots_[buffer.At<std::int32_t>(kEnvIdField, row)].pending = false;
    }
    num_pending_ -= static_cast<int>(batch.size);
    if (errors_.load(std::memory_order_acquire) == 0) {
      return;
    }
    std::string message;
    int first = -1;
    std::vector<std::int32_t> dropped(batch.size);
    for (std::size_t row = 0; row < batch.size; ++row) {
      const auto id = buffer.At<std::int32_t>(kEnvIdField, row);
      dropped[row] = id;
      EnvSlot& slot = slots_[id];
      if (!slot.error.empty()) {
        if (first < 0) {
          first = id;
          message = slot.error;
        }
        slot.error.clear();
        errors_.fetch_sub(1, std::memory_order_relaxed);
      }
    }
    if (first >= 0) {
      batch.pool->Release(std::move(batch.buffer));
      throw EnvError(first, message, std::move(dropped));
    }
  }

  // Workers.

  // The extra sync worker: it works only the rounds whose caller stands by
  // (slow envs), so every round has num_threads threads at work and none
  // more competing for the cores.
  void StandbyWorkerLoop() {
    while (true) {
      const std::uint32_t epoch =
          standby_epoch_.load(std::memory_order_seq_cst);
      if (stop_.load(std::memory_order_acquire)) {
        return;
      }
      while (round_stand_by_.load(std::memory_order_acquire) &&
             WorkOneChunk() != 0) {
      }
      standby_waiter_.Wait(
          [&] {
            return standby_epoch_.load(std::memory_order_seq_cst) != epoch;
          },
          [] {}, kWorkerSpin, kPollEvery);
    }
  }

  void ProcessAsync(std::int32_t env_id) {
    AsyncRows rows(this);
    Output out(&rows);
    Process(env_id, out);
    RingEntry& entry = ring_[rows.batch() % ring_size_];
    entry.written.fetch_add(1, std::memory_order_seq_cst);
    completed_.fetch_add(1, std::memory_order_seq_cst);
    recv_waiter_.Notify();
  }

  // One env's reset or step, with autoreset and the time limit, written into
  // the row `out` leads to.
  void Process(std::int32_t env_id, Output& out) {
    EnvSlot& slot = slots_[env_id];
    try {
      if (slot.reset_requested ||
          (slot.needs_reset &&
           options_.autoreset_mode != AutoresetMode::kDisabled)) {
        DoReset(slot, out);
        SetFinalMask(out, false);
      } else {
        DoStep(env_id, slot, out);
      }
    } catch (const std::exception& e) {
      Fail(slot, out, e.what());
    } catch (...) {
      Fail(slot, out, "unknown C++ exception");
    }
    BatchBuffer& buffer = *out.Buffer();
    const std::size_t row = out.row();
    buffer.At<double>(kRewardField, row) = out.reward;
    buffer.At<bool>(kTerminatedField, row) = out.terminated;
    buffer.At<bool>(kTruncatedField, row) = out.truncated;
    buffer.At<std::int32_t>(kEnvIdField, row) = env_id;
    buffer.At<std::int32_t>(kElapsedStepField, row) = slot.elapsed;
  }

  void DoReset(EnvSlot& slot, Output& out) {
    if (slot.seed) {
      slot.rng.Seed(*slot.seed);
      if constexpr (Seedable<E>) {
        slot.env->Seed(*slot.seed);
      }
      slot.seed.reset();
    }
    slot.reset_requested = false;
    slot.env->Reset(slot.rng, out);
    out.ZeroUnwritten();
    out.ClearResult();
    slot.elapsed = 0;
    slot.needs_reset = false;
  }

  void DoStep(std::int32_t env_id, EnvSlot& slot, Output& out) {
    if constexpr (DiscreteAction<Action>) {
      slot.env->Step(actions_[env_id], slot.rng, out);
    } else {
      slot.env->Step(Action(action_row(env_id), action_size_), slot.rng, out);
    }
    out.ZeroUnwritten();
    ++slot.elapsed;
    if (options_.max_episode_steps > 0 &&
        slot.elapsed >= options_.max_episode_steps) {
      out.truncated = true;
    }
    slot.needs_reset = out.terminated || out.truncated;
    if (options_.autoreset_mode != AutoresetMode::kSameStep) {
      return;
    }
    SetFinalMask(out, slot.needs_reset);
    if (slot.needs_reset) {
      KeepFinal(out, slot.elapsed);
      Output reset_out(out.Buffer(), out.row());
      DoReset(slot, reset_out);
    }
  }

  // Same-step autoreset: the row's mask, and a copy of the ended episode's
  // last observation and info before the reset overwrites them.
  void SetFinalMask(Output& out, bool ended) {
    BatchBuffer& buffer = *out.Buffer();
    const BatchLayout& layout = *buffer.layout;
    if (!layout.has_final()) {
      return;
    }
    const std::size_t row = out.row();
    buffer.At<bool>(layout.final_mask(), row) = ended;
    if (!ended) {
      for (std::size_t f = layout.final_obs(); f < layout.final_mask(); ++f) {
        std::memset(buffer.Row(f, row), 0, layout.field(f).row_bytes);
      }
    }
  }

  void KeepFinal(Output& out, std::int32_t elapsed) {
    BatchBuffer& buffer = *out.Buffer();
    const BatchLayout& layout = *buffer.layout;
    const std::size_t row = out.row();
    const std::size_t final_obs = layout.final_obs();
    std::memcpy(buffer.Row(final_obs, row), buffer.Row(kObsField, row),
                layout.field(kObsField).row_bytes);
    buffer.At<std::int32_t>(final_obs + 1, row) = elapsed;
    for (std::size_t i = 0; i < layout.num_info(); ++i) {
      std::memcpy(buffer.Row(final_obs + 2 + i, row),
                  buffer.Row(kFirstInfoField + i, row),
                  layout.field(kFirstInfoField + i).row_bytes);
    }
  }

  void Fail(EnvSlot& slot, Output& out, const char* what) {
    slot.error = what[0] != '\0' ? what : "C++ exception without a message";
    slot.needs_reset = true;
    slot.reset_requested = false;
    out.ClearResult();
    out.ZeroUnwritten();  // claims the row too, so that its batch completes
    errors_.fetch_add(1, std::memory_order_release);
  }

  PoolOptions options_;
  EnvSpec spec_;
  std::vector<std::int64_t> render_shape_;
  std::size_t action_size_;
  std::vector<EnvSlot> slots_;
  std::vector<std::uint64_t> seeds_;  // each env's current seed (owner thread)
  std::vector<Scalar> actions_;
  std::shared_ptr<BufferPool> round_pool_;
  std::shared_ptr<BufferPool> batch_pool_;
  std::shared_ptr<WorkerGroup> group_;  // null: every round runs solo
  std::shared_ptr<WorkerGroup::Attachment> attachment_;
  std::thread standby_;
  int num_workers_ = 0;  // threads besides the caller that run this pool
  bool closed_ = false;
  int num_pending_ = 0;

  // Call-argument checks.
  std::vector<std::uint32_t> mark_;
  std::uint32_t stamp_ = 0;

  // Sync rounds.
  Round round_;
  bool round_pending_ = false;
  bool round_interrupted_ = false;
  bool round_solo_ = false;
  double ns_per_env_ = 0.0;  // running estimate, from the caller's own rows
  std::uint64_t round_generation_ = 0;
  alignas(64) std::atomic<std::uint64_t> round_ticket_{0};
  Waiter round_waiter_;

  // Async queue and batch ring.
  TaskQueue queue_;
  std::size_t ring_size_ = 0;
  std::unique_ptr<RingEntry[]> ring_;
  alignas(64) std::atomic<std::uint64_t> claim_{0};
  alignas(64) std::atomic<std::uint64_t> completed_{0};
  std::uint64_t sent_ = 0;
  std::uint64_t next_recv_ = 0;
  Waiter recv_waiter_;

  // Waking the standby worker.
  std::atomic<bool> stop_{false};
  alignas(64) std::atomic<std::uint32_t> standby_epoch_{0};
  Waiter standby_waiter_;
  std::atomic<bool> round_stand_by_{false};
  std::atomic<int> errors_{0};
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_ENV_POOL_H_
