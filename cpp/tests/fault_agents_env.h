// A two-agent env for fault-injection tests of multi-agent pools
// (tests/test_fault_injection.py): "left" acts with a discrete action in
// [0, 3), "right" with a float32 pair in [-1, 1]. Options, per env as in
// fault_env.h:
//   throw_at_step   throw from Step when the episode reaches this step
//   nan_at_step     at this step, NaN in agent nan_agent's observation value
//                   and reward (the other agent's stay finite)
//   leave_at_step   at this step "right" leaves: terminated and no longer
//                   active, while "left" plays on to episode_length
// Each agent's obs is [first random draw of the episode, step, sum of its
// actions], its reward its action (right: the pair's sum), so a test can
// recompute every row.
#ifndef ENVPOOL_TESTS_FAULT_AGENTS_ENV_H_
#define ENVPOOL_TESTS_FAULT_AGENTS_ENV_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>

#include "envpool/core/agents.h"
#include "envpool/core/env.h"

namespace envpool::testing {

class FaultAgentsEnv {
 public:
  using Action = std::span<const float>;

  static Config DefaultConfig() {
    return {{"episode_length", std::int64_t{10}},
            {"throw_at_step", std::int64_t{-1}},
            {"nan_at_step", std::int64_t{-1}},
            {"nan_agent", std::int64_t{0}},
            {"leave_at_step", std::int64_t{-1}}};
  }

  static EnvSpec Spec(const Config& /*config*/) {
    return MakeMultiAgentSpec(
        {{"left", MakeArray<double>("obs", {3}), MakeDiscrete("action", 3)},
         {"right", MakeArray<double>("obs", {3}),
          MakeArray<float>("action", {2}, {-1.0}, {1.0})}});
  }

  explicit FaultAgentsEnv(const Config& config)
      : episode_length_(config.Get<std::int64_t>("episode_length")),
        throw_at_step_(config.Get<std::int64_t>("throw_at_step")),
        nan_at_step_(config.Get<std::int64_t>("nan_at_step")),
        nan_agent_(config.Get<std::int64_t>("nan_agent")),
        leave_at_step_(config.Get<std::int64_t>("leave_at_step")),
        split_(Spec(config).agents) {
    if (nan_agent_ < 0 || nan_agent_ >= kAgents) {
      throw std::invalid_argument("nan_agent must be 0 or 1, got " +
                                  std::to_string(nan_agent_));
    }
  }

  void Reset(Rng& rng, Output& out) {
    draw_ = static_cast<double>(rng.Below(1000000));
    steps_ = 0;
    sums_ = {0.0, 0.0};
    Write(out, {0.0, 0.0});
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    ++steps_;
    if (steps_ == throw_at_step_) {
      throw std::runtime_error("injected failure at step " +
                               std::to_string(steps_));
    }
    std::array<double, kAgents> rewards{
        static_cast<double>(split_.Discrete(action, 0, 3)), 0.0};
    if (RightPlays(steps_)) {
      std::span<const float> pair = split_.Continuous(action, 1);
      rewards[1] = static_cast<double>(pair[0]) + static_cast<double>(pair[1]);
    }
    sums_[0] += rewards[0];
    sums_[1] += rewards[1];
    out.terminated = steps_ >= episode_length_;
    Write(out, rewards);
  }

 private:
  static constexpr std::int64_t kAgents = 2;

  // Whether "right" acts at `step`: until the step it leaves, which it plays.
  [[nodiscard]] bool RightPlays(std::int64_t step) const {
    return leave_at_step_ < 0 || step <= leave_at_step_;
  }

  void Write(Output& out, std::array<double, kAgents> rewards) const {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::int64_t i = 0; i < kAgents; ++i) {
      const bool poisoned = steps_ == nan_at_step_ && i == nan_agent_;
      const auto agent = static_cast<std::size_t>(i);
      auto obs = out.Obs<double>(agent);
      obs[0] = draw_;
      obs[1] = poisoned ? nan : static_cast<double>(steps_);
      obs[2] = sums_[agent];
      AgentRewards(out)[agent] = poisoned ? nan : rewards[agent];
    }
    const bool right_left = leave_at_step_ >= 0 && steps_ >= leave_at_step_;
    AgentTerminations(out)[0] = out.terminated;
    AgentTerminations(out)[1] = out.terminated || right_left;
    AgentActive(out)[0] = true;
    AgentActive(out)[1] = !right_left || steps_ == leave_at_step_;
  }

  std::int64_t episode_length_;
  std::int64_t throw_at_step_;
  std::int64_t nan_at_step_;
  std::int64_t nan_agent_;
  std::int64_t leave_at_step_;
  AgentActions split_;
  double draw_ = 0;
  std::int64_t steps_ = 0;
  std::array<double, kAgents> sums_{};
};

}  // namespace envpool::testing

#endif  // ENVPOOL_TESTS_FAULT_AGENTS_ENV_H_
