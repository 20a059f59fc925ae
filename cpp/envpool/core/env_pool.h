// The engine: runs many envs of one type on a pool of threads and hands their
// results back in batches.
//
// Sync mode (batch_size == num_envs): Send() starts a round over a list of
// envs (sync_round.h); the results come back in the order of the list.
// Async mode (batch_size < num_envs): Send() queues envs (async_batches.h),
// and Recv() returns the first batch_size envs to finish. Either way each env
// is reset or stepped by EnvRunner::Process (env_runner.h).
//
// The caller (one thread at a time; the Python binding serialises calls)
// owns all bookkeeping of which env is in flight. Workers only touch the envs
// handed to them and the atomics that hand work over.
#ifndef ENVPOOL_CORE_ENV_POOL_H_
#define ENVPOOL_CORE_ENV_POOL_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "envpool/core/async_batches.h"
#include "envpool/core/batch.h"
#include "envpool/core/env.h"
#include "envpool/core/env_runner.h"
#include "envpool/core/errors.h"
#include "envpool/core/placement.h"
#include "envpool/core/pool_options.h"
#include "envpool/core/sync_round.h"
#include "envpool/core/waiter.h"
#include "envpool/core/worker_group.h"

namespace envpool {

template <Environment E>
class EnvPool final : public WorkSource {
 public:
  using Action = typename E::Action;
  using Scalar = ActionScalar<E>;

  // `configs` holds one Config for every env, or one shared by all.
  EnvPool(std::vector<Config> configs, PoolOptions options)
      : options_(Validate(std::move(options), configs.size())),
        spec_(E::Spec(configs.front())),
        envs_(num_envs_size(), spec_.action.NumElements(),
              options_.autoreset_mode, options_.max_episode_steps),
        mark_(num_envs_size(), 0),
        round_(
            std::make_shared<BufferPool>(spec_, num_envs_size(), final_fields(),
                                         options_.memory_node),
            num_envs_size(), options_.num_threads, options_.solo_round_ns) {
    EnvRunner<E>::CheckSpec(spec_);
    if constexpr (Renderable<E>) {
      render_shape_ = E::RenderShape(configs.front());
    }
    const std::size_t num_envs = num_envs_size();
    if (!is_sync()) {
      // the caller spins for a batch only while the workers leave it a CPU
      const bool spare_cpu = options_.num_threads < UsableCpuCount();
      async_ = std::make_unique<AsyncBatches>(
          spec_, num_envs, static_cast<std::size_t>(options_.batch_size),
          final_fields(), options_.memory_node, spare_cpu);
    }
    seeds_.resize(num_envs);
    for (std::size_t i = 0; i < num_envs; ++i) {
      seeds_[i] = EnvSeed(options_.seed, static_cast<std::int64_t>(i));
      envs_.slot(static_cast<std::int32_t>(i)).rng.Seed(seeds_[i]);
    }
    CheckSameSpec(configs);
    envs_.Build(configs, PlacementOf(options_), options_.num_threads);
    if constexpr (Seedable<E>) {
      for (std::size_t i = 0; i < num_envs; ++i) {
        envs_.slot(static_cast<std::int32_t>(i)).env->Seed(seeds_[i]);
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
  std::size_t action_size() const { return envs_.action_size(); }
  // Envs sent and not yet received.
  int num_pending() const { return num_pending_; }
  // True while an env must be reset before it may step again.
  bool needs_reset(int env_id) const { return envs_.slot(env_id).needs_reset; }

  // Where the caller writes env `env_id`'s next action before Send().
  Scalar* action_row(int env_id) { return envs_.action_row(env_id); }

  // Throws, changing nothing, unless every env in `ids` may be sent now.
  void CheckSend(std::span<const std::int32_t> ids, bool reset) {
    CheckOpen();
    if (ids.empty()) {
      throw std::invalid_argument("no env ids given");
    }
    if (is_sync() && round_.pending()) {
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
      if (envs_.slot(id).pending) {
        throw CallOrderError("env " + std::to_string(id) +
                             " is still in flight or its result has not "
                             "been received; recv() it before sending it "
                             "again");
      }
      if (!reset && options_.autoreset_mode == AutoresetMode::kDisabled &&
          envs_.slot(id).needs_reset) {
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
      if (!round_.pending()) {
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
    Batch batch = async_->Next(interrupt);
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
    CheckIdle(ids, "render()");
    std::size_t frame_bytes = 1;
    for (const auto d : render_shape_) {
      frame_bytes *= static_cast<std::size_t>(d);
    }
    for (std::size_t i = 0; i < ids.size(); ++i) {
      envs_.slot(ids[i]).env->Render({out + i * frame_bytes, frame_bytes});
    }
  }

  // The text of each env in `ids` (gymnasium's "ansi" render mode).
  std::vector<std::string> RenderAnsi(std::span<const std::int32_t> ids)
    requires AnsiRenderable<E>
  {
    CheckIdle(ids, "render()");
    std::vector<std::string> texts;
    texts.reserve(ids.size());
    for (const std::int32_t id : ids) {
      texts.push_back(envs_.slot(id).env->RenderAnsi());
    }
    return texts;
  }

  // The saved state of each env in `ids` (StateSavable).
  std::vector<std::string> SaveStates(std::span<const std::int32_t> ids)
    requires StateSavable<E>
  {
    CheckIdle(ids, "get_state()");
    std::vector<std::string> states;
    states.reserve(ids.size());
    for (const std::int32_t id : ids) {
      states.push_back(envs_.slot(id).env->SaveState());
    }
    return states;
  }

  // Restores env ids[i] to states[i] and writes its observation into row i
  // of `obs`. A restored env steps on from its state: it needs no reset, and
  // its episode's step count starts again from 0. Stops at the first state
  // refused, with the envs before it restored.
  void LoadStates(std::span<const std::int32_t> ids,
                  std::span<const std::string_view> states, std::byte* obs)
    requires StateSavable<E>
  {
    CheckIdle(ids, "set_state()");
    if (states.size() != ids.size()) {
      throw std::invalid_argument(
          "set_state() got " + std::to_string(states.size()) + " states for " +
          std::to_string(ids.size()) + " envs");
    }
    const std::size_t obs_bytes = spec_.obs.NumBytes();
    for (std::size_t i = 0; i < ids.size(); ++i) {
      auto& slot = envs_.slot(ids[i]);
      slot.env->LoadState(states[i], {obs + i * obs_bytes, obs_bytes});
      slot.needs_reset = false;
      slot.reset_requested = false;
      slot.elapsed = 0;
    }
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
    if (async_ != nullptr) {
      async_->Stop();
    }
    if (group_ != nullptr) {
      group_->Detach(attachment_);
      attachment_.reset();
      group_.reset();  // joins a private group's threads
    }
    round_.StopStandby();
  }

  // Runs up to `limit` chunks of the current round or envs of the async
  // queue; called by the worker group's threads.
  std::size_t RunSome(std::size_t limit) override {
    std::size_t ran = 0;
    while (ran < limit && round_.WorkOneChunk(EnvStep()) != 0) {
      ++ran;
    }
    if (async_ != nullptr) {
      ran += async_->RunSome(limit - ran, EnvStep());
    }
    return ran;
  }

 private:
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

  std::size_t num_envs_size() const {
    return static_cast<std::size_t>(options_.num_envs);
  }
  bool final_fields() const {
    return options_.autoreset_mode == AutoresetMode::kSameStep;
  }

  // What the threads run for each env handed to them.
  auto EnvStep() {
    return [this](std::int32_t env_id, Output& out) {
      envs_.Process(env_id, out);
    };
  }

  void CheckSameSpec(const std::vector<Config>& configs) const {
    for (std::size_t i = 1; i < configs.size(); ++i) {
      if (!(E::Spec(configs[i]) == spec_)) {
        throw std::invalid_argument(
            "per-env options of env " + std::to_string(i) +
            " change its observation or action spec; all envs in a pool must "
            "share one spec");
      }
    }
  }

  // Envs may be drawn only while none of `ids` is stepping.
  // Refuses `call` unless every env in `ids` exists and is not in flight.
  void CheckIdle(std::span<const std::int32_t> ids, const char* call) {
    CheckOpen();
    ++stamp_;
    for (const std::int32_t id : ids) {
      if (id < 0 || id >= options_.num_envs) {
        throw std::out_of_range("env_id " + std::to_string(id) +
                                " is out of range");
      }
      if (envs_.slot(id).pending) {
        throw CallOrderError("env " + std::to_string(id) +
                             " is in flight; recv() it before " + call);
      }
    }
  }

  void CheckOpen() const {
    if (closed_) {
      throw CallOrderError("the pool is closed");
    }
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
      group_ =
          std::make_shared<WorkerGroup>(num_workers, PlacementOf(options_));
      num_workers_ = num_workers;
      if (is_sync()) {
        round_.StartStandby(EnvStep(), PlacementOf(options_), num_workers);
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
      auto& slot = envs_.slot(ids[i]);
      slot.pending = true;
      slot.reset_requested = reset;
      slot.seed = i < seeds.size() ? seeds[i] : std::nullopt;
      if (slot.seed) {
        seeds_[ids[i]] = *slot.seed;
      }
    }
    num_pending_ += static_cast<int>(ids.size());
    if (as_round) {
      if (round_.Start(ids, group_ != nullptr)) {
        group_->Wake();
        round_.WakeStandby();
      }
    } else {
      async_->Push(ids);
      group_->Wake();
    }
  }

  Batch FinishRound(const InterruptCheck& interrupt) {
    Batch batch = round_.Finish(EnvStep(), interrupt, num_workers_);
    Received(batch);
    return batch;
  }

  // A step whose wait was interrupted (Ctrl-C) left its round running; the
  // next call finishes it and drops its results instead of failing.
  void DropInterruptedRound() {
    CheckOpen();
    if (round_.interrupted()) {
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
      if (round_.pending()) {
        DiscardRound(interrupt);
      }
      return;
    }
    if (num_pending_ == 0) {
      return;
    }
    async_->Drain(interrupt);
    num_pending_ = 0;
    for (auto& slot : envs_.slots()) {
      slot.pending = false;
    }
    envs_.ClearErrors();
  }

  // Bookkeeping once a batch is in the caller's hands; throws if an env in
  // it failed.
  void Received(Batch& batch) {
    const BatchBuffer& buffer = *batch.buffer;
    for (std::size_t row = 0; row < batch.size; ++row) {
      envs_.slot(buffer.At<std::int32_t>(kEnvIdField, row)).pending = false;
    }
    num_pending_ -= static_cast<int>(batch.size);
    if (!envs_.has_errors()) {
      return;
    }
    std::string message;
    int first = -1;
    std::vector<std::int32_t> dropped(batch.size);
    for (std::size_t row = 0; row < batch.size; ++row) {
      const auto id = buffer.At<std::int32_t>(kEnvIdField, row);
      dropped[row] = id;
      std::string error = envs_.TakeError(envs_.slot(id));
      if (!error.empty() && first < 0) {
        first = id;
        message = std::move(error);
      }
    }
    if (first >= 0) {
      batch.pool->Release(std::move(batch.buffer));
      throw EnvError(first, message, std::move(dropped));
    }
  }

  PoolOptions options_;
  EnvSpec spec_;
  std::vector<std::int64_t> render_shape_;
  EnvRunner<E> envs_;
  std::vector<std::uint64_t> seeds_;  // each env's current seed (owner thread)
  std::shared_ptr<WorkerGroup> group_;  // null: every round runs solo
  std::shared_ptr<WorkerGroup::Attachment> attachment_;
  int num_workers_ = 0;  // threads besides the caller that run this pool
  bool closed_ = false;
  int num_pending_ = 0;

  // Call-argument checks.
  std::vector<std::uint32_t> mark_;
  std::uint32_t stamp_ = 0;

  SyncRound round_;
  std::unique_ptr<AsyncBatches> async_;  // async mode only
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_ENV_POOL_H_
