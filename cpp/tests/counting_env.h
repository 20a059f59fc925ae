// A small env for engine tests: its observation records the env's first
// random draw and its step count, so tests can check where every result
// came from. It can sleep for random short times and throw at chosen steps.
#ifndef ENVPOOL_TESTS_COUNTING_ENV_H_
#define ENVPOOL_TESTS_COUNTING_ENV_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>

#include "envpool/core/env.h"

namespace envpool::testing {

class CountingEnv {
 public:
  using Action = std::int64_t;

  static Config DefaultConfig() {
    return {{"episode_length", std::int64_t{5}},
            {"throw_at_step", std::int64_t{-1}},
            {"max_sleep_us", std::int64_t{0}}};
  }

  static EnvSpec Spec(const Config&) {
    return {MakeArray<std::int64_t>("obs", {3}),
            MakeDiscrete("action", 4),
            {MakeArray<std::int64_t>("draw", {})}};
  }

  explicit CountingEnv(const Config& config)
      : episode_length_(config.Get<int>("episode_length")),
        throw_at_step_(config.Get<int>("throw_at_step")),
        max_sleep_us_(config.Get<int>("max_sleep_us")) {}

  void Reset(Rng& rng, Output& out) {
    draw_ = static_cast<std::int64_t>(rng.Below(1000000));
    steps_ = 0;
    sum_ = 0;
    MaybeSleep();
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    ++steps_;
    if (steps_ == throw_at_step_) {
      throw std::runtime_error("injected failure at step " +
                               std::to_string(steps_));
    }
    MaybeSleep();
    sum_ += action;
    out.reward = static_cast<double>(action);
    out.terminated = steps_ >= episode_length_;
    Write(out);
  }

 private:
  // Sleeps draw from their own generator so that timing never changes a
  // trajectory.
  void MaybeSleep() {
    if (max_sleep_us_ > 0) {
      std::this_thread::sleep_for(std::chrono::microseconds(
          sleep_rng_.Below(static_cast<std::uint64_t>(max_sleep_us_))));
    }
  }

  void Write(Output& out) {
    auto obs = out.Obs<std::int64_t>();
    obs[0] = draw_;
    obs[1] = steps_;
    obs[2] = sum_;
    out.Info<std::int64_t>(0)[0] = draw_;
  }

  int episode_length_;
  int throw_at_step_;
  int max_sleep_us_;
  std::int64_t draw_ = 0;
  std::int64_t steps_ = 0;
  std::int64_t sum_ = 0;
  Rng sleep_rng_{std::hash<std::thread::id>{}(std::this_thread::get_id())};
};

}  // namespace envpool::testing

#endif  // ENVPOOL_TESTS_COUNTING_ENV_H_
