// The per-env side of the engine: a pool's envs, what it keeps beside each
// (its generator, step count, pending reset, last error) and Process(), which
// resets or steps one env into a batch row with autoreset and the time limit.
// Any thread may run Process() for the envs handed to it.
#ifndef ENVPOOL_CORE_ENV_RUNNER_H_
#define ENVPOOL_CORE_ENV_RUNNER_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/batch.h"
#include "envpool/core/config.h"
#include "envpool/core/dtype.h"
#include "envpool/core/env.h"
#include "envpool/core/output.h"
#include "envpool/core/placement.h"
#include "envpool/core/pool_options.h"
#include "envpool/core/rng.h"

namespace envpool {

// Same-step autoreset: the row's mask, and zeroed final fields for a row
// whose episode did not end.
inline void SetFinalMask(Output& out, bool ended) {
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

// Same-step autoreset: a copy of the ended episode's last observation and
// info before the reset overwrites them.
inline void KeepFinal(Output& out, std::int32_t elapsed) {
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

template <Environment E>
class EnvRunner {
 public:
  using Action = typename E::Action;
  using Scalar = ActionScalar<E>;

  struct alignas(64) Slot {
    std::unique_ptr<E> env;
    Rng rng;
    std::int32_t elapsed = 0;
    bool needs_reset = true;
    bool reset_requested = false;
    std::optional<std::uint64_t> seed;
    std::string error;     // set by the thread that ran the env
    bool pending = false;  // caller's bookkeeping
  };

  EnvRunner(std::size_t num_envs, std::size_t action_size,
            AutoresetMode autoreset_mode, int max_episode_steps)
      : action_size_(action_size),
        slots_(num_envs),
        actions_(num_envs * action_size),
        autoreset_mode_(autoreset_mode),
        max_episode_steps_(max_episode_steps) {}

  // Throws std::logic_error unless `spec` fits what the engine can run of E:
  // an action of E's Action type, at most Output::kMaxInfo info arrays.
  static void CheckSpec(const EnvSpec& spec) {
    if (spec.info.size() > Output::kMaxInfo) {
      throw std::logic_error("an env may have at most " +
                             std::to_string(Output::kMaxInfo) + " info arrays");
    }
    const DType expected = kDTypeOf<Scalar>;
    if (spec.action.dtype != expected ||
        (DiscreteAction<Action> && !spec.action.shape.empty())) {
      throw std::logic_error(
          "the env's action spec does not match its Action type");
    }
  }

  std::size_t action_size() const { return action_size_; }
  Slot& slot(std::int32_t env_id) { return slots_[env_id]; }
  const Slot& slot(std::int32_t env_id) const { return slots_[env_id]; }
  std::vector<Slot>& slots() { return slots_; }

  // Where env `env_id`'s next action goes.
  Scalar* action_row(int env_id) {
    return actions_.data() + static_cast<std::size_t>(env_id) * action_size_;
  }

  // Makes env i from configs[i] (or the one config shared by all) on up to
  // `num_threads` threads. With a placement every env is built (and its
  // memory first touched) by a thread on the pool's CPUs, none by the
  // caller's thread. Rethrows the first constructor's exception.
  void Build(const std::vector<Config>& configs, const Placement& placement,
             int num_threads) {
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
    const bool placed = !placement.cpus.empty();
    std::vector<std::thread> builders;
    const int num_builders =
        std::min(static_cast<int>(slots_.size()), std::max(1, num_threads));
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

  // One env's reset or step, with autoreset and the time limit, written into
  // the row `out` leads to.
  void Process(std::int32_t env_id, Output& out) {
    Slot& slot = slots_[env_id];
    try {
      if (slot.reset_requested ||
          (slot.needs_reset && autoreset_mode_ != AutoresetMode::kDisabled)) {
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

  // Errors in slots that the caller has not taken yet.
  bool has_errors() const {
    return errors_.load(std::memory_order_acquire) != 0;
  }

  // Moves the error of `slot` out (empty: none) and stops counting it.
  std::string TakeError(Slot& slot) {
    std::string error = std::move(slot.error);
    slot.error.clear();
    if (!error.empty()) {
      errors_.fetch_sub(1, std::memory_order_relaxed);
    }
    return error;
  }

  // Forgets every error; only while no env is in flight.
  void ClearErrors() {
    for (auto& slot : slots_) {
      if (!slot.error.empty()) {
        slot.error.clear();
      }
    }
    errors_.store(0, std::memory_order_relaxed);
  }

 private:
  void DoReset(Slot& slot, Output& out) {
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

  void DoStep(std::int32_t env_id, Slot& slot, Output& out) {
    if constexpr (DiscreteAction<Action>) {
      slot.env->Step(actions_[env_id], slot.rng, out);
    } else {
      slot.env->Step(Action(action_row(env_id), action_size_), slot.rng, out);
    }
    out.ZeroUnwritten();
    ++slot.elapsed;
    if (max_episode_steps_ > 0 && slot.elapsed >= max_episode_steps_) {
      out.truncated = true;
    }
    slot.needs_reset = out.terminated || out.truncated;
    if (autoreset_mode_ != AutoresetMode::kSameStep) {
      return;
    }
    SetFinalMask(out, slot.needs_reset);
    if (slot.needs_reset) {
      KeepFinal(out, slot.elapsed);
      Output reset_out(out.Buffer(), out.row());
      DoReset(slot, reset_out);
    }
  }

  void Fail(Slot& slot, Output& out, const char* what) {
    slot.error = what[0] != '\0' ? what : "C++ exception without a message";
    slot.needs_reset = true;
    slot.reset_requested = false;
    out.ClearResult();
    out.ZeroUnwritten();  // claims the row too, so that its batch completes
    errors_.fetch_add(1, std::memory_order_release);
  }

  std::size_t action_size_;
  std::vector<Slot> slots_;
  std::vector<Scalar> actions_;
  AutoresetMode autoreset_mode_;
  int max_episode_steps_;
  std::atomic<int> errors_{0};
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_ENV_RUNNER_H_
