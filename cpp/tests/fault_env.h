// An env for fault-injection tests from Python. Each option below can be
// given per env (a list), so one env of a pool misbehaves while the others
// show what "unaffected" means:
//   throw_at_step     throw from Step when the episode reaches this step
//   throw_on_reset    throw from the Nth Reset of this env (1 = the first)
//   nan_at_step       write NaN into the obs and reward at this step
//   sleep_us          sleep this long in every Step
//   max_sleep_us      sleep a random time below this in every Reset and Step
//   spin_us           keep the CPU busy this long in every Step: a stand-in
//                     for an emulator step in benchmarks/bench_engine.py
//   misuse_obs_at_step  at this step, write the obs the wrong way: a dict
//                     observation whole (out.Obs<T>()), a plain one by key
//                     (out.Obs<T>(0)), as a mistaken env would
// The obs is [first random draw of the episode, step in episode, sum of
// actions, value], where value is 0.5 * step (NaN at nan_at_step), so a test
// can recompute every row. FaultDictEnv is the same env with a dict
// observation of the same numbers: "draw" (float64), "counts" ([step, sum],
// int32) and "value" (float32, shape (1,)), keys of different types and
// sizes, so that their packing shows.
#ifndef ENVPOOL_TESTS_FAULT_ENV_H_
#define ENVPOOL_TESTS_FAULT_ENV_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>

#include "envpool/core/env.h"

namespace envpool::testing {

template <bool kDictObs>
class FaultEnvT {
 public:
  using Action = std::int64_t;

  static Config DefaultConfig() {
    return {{"episode_length", std::int64_t{10}},
            {"throw_at_step", std::int64_t{-1}},
            {"throw_on_reset", std::int64_t{-1}},
            {"nan_at_step", std::int64_t{-1}},
            {"sleep_us", std::int64_t{0}},
            {"max_sleep_us", std::int64_t{0}},
            {"spin_us", std::int64_t{0}},
            {"misuse_obs_at_step", std::int64_t{-1}}};
  }

  static EnvSpec Spec(const Config&) {
    if constexpr (kDictObs) {
      return {MakeDict("obs", {MakeArray<double>("draw", {}),
                               MakeArray<std::int32_t>("counts", {2}),
                               MakeArray<float>("value", {1})}),
              MakeDiscrete("action", 4),
              {}};
    }
    return {MakeArray<double>("obs", {4}), MakeDiscrete("action", 4), {}};
  }

  explicit FaultEnvT(const Config& config)
      : episode_length_(config.Get<std::int64_t>("episode_length")),
        throw_at_step_(config.Get<std::int64_t>("throw_at_step")),
        throw_on_reset_(config.Get<std::int64_t>("throw_on_reset")),
        nan_at_step_(config.Get<std::int64_t>("nan_at_step")),
        sleep_us_(config.Get<std::int64_t>("sleep_us")),
        max_sleep_us_(config.Get<std::int64_t>("max_sleep_us")),
        spin_us_(config.Get<std::int64_t>("spin_us")),
        misuse_obs_at_step_(config.Get<std::int64_t>("misuse_obs_at_step")) {}

  void Reset(Rng& rng, Output& out) {
    ++resets_;
    Sleep(0);
    if (resets_ == throw_on_reset_) {
      throw std::runtime_error("injected failure in reset " +
                               std::to_string(resets_));
    }
    draw_ = static_cast<double>(rng.Below(1000000));
    steps_ = 0;
    sum_ = 0;
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    ++steps_;
    Sleep(sleep_us_);
    Spin(spin_us_);
    if (steps_ == throw_at_step_) {
      throw std::runtime_error("injected failure at step " +
                               std::to_string(steps_));
    }
    sum_ += action;
    out.reward = steps_ == nan_at_step_
                     ? std::numeric_limits<double>::quiet_NaN()
                     : static_cast<double>(action);
    out.terminated = steps_ >= episode_length_;
    if (steps_ == misuse_obs_at_step_) {
      if constexpr (kDictObs) {
        out.Obs<double>()[0] = draw_;
      } else {
        out.Obs<double>(0)[0] = draw_;
      }
    }
    Write(out);
  }

 private:
  // Random sleeps draw from their own generator, so timing never changes a
  // trajectory.
  void Sleep(std::int64_t us) {
    if (max_sleep_us_ > 0) {
      us += static_cast<std::int64_t>(
          sleep_rng_.Below(static_cast<std::uint64_t>(max_sleep_us_)));
    }
    if (us > 0) {
      std::this_thread::sleep_for(std::chrono::microseconds(us));
    }
  }

  static void Spin(std::int64_t us) {
    if (us <= 0) {
      return;
    }
    const auto until =
        std::chrono::steady_clock::now() + std::chrono::microseconds(us);
    while (std::chrono::steady_clock::now() < until) {
    }
  }

  void Write(Output& out) const {
    const double value = steps_ == nan_at_step_
                             ? std::numeric_limits<double>::quiet_NaN()
                             : 0.5 * static_cast<double>(steps_);
    if constexpr (kDictObs) {
      out.Obs<double>(0)[0] = draw_;
      auto counts = out.Obs<std::int32_t>(1);
      counts[0] = static_cast<std::int32_t>(steps_);
      counts[1] = static_cast<std::int32_t>(sum_);
      out.Obs<float>(2)[0] = static_cast<float>(value);
    } else {
      auto obs = out.Obs<double>();
      obs[0] = draw_;
      obs[1] = static_cast<double>(steps_);
      obs[2] = static_cast<double>(sum_);
      obs[3] = value;
    }
  }

  std::int64_t episode_length_;
  std::int64_t throw_at_step_;
  std::int64_t throw_on_reset_;
  std::int64_t nan_at_step_;
  std::int64_t sleep_us_;
  std::int64_t max_sleep_us_;
  std::int64_t spin_us_;
  std::int64_t misuse_obs_at_step_;
  std::int64_t resets_ = 0;
  double draw_ = 0;
  std::int64_t steps_ = 0;
  std::int64_t sum_ = 0;
  Rng sleep_rng_{std::hash<std::thread::id>{}(std::this_thread::get_id())};
};

using FaultEnv = FaultEnvT<false>;
using FaultDictEnv = FaultEnvT<true>;

}  // namespace envpool::testing

#endif  // ENVPOOL_TESTS_FAULT_ENV_H_
