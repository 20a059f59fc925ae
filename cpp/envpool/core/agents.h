// Multi-agent envs: several agents in one env, each with its own observation
// and action space, all acting at every step (PettingZoo's parallel API).
//
// To the engine a multi-agent env is an ordinary env: one batch row per env,
// autoreset and the time limit per env, async rows are envs. What makes it
// multi-agent is its spec, built by MakeMultiAgentSpec from its agents, which
// lays the agents out in the arrays the engine already batches:
//   obs     a dict (MakeDict) with one key per agent, named as the agent, so
//           that each agent's observations are a zero-copy view;
//   action  one float32 vector with every agent's action side by side, in
//           agent order (a discrete action takes one slot holding its index);
//   info    "rewards" (float64), "terminations" (bool) and "active" (bool,
//           false for an agent that has left), one value per agent, followed
//           by the env's own info arrays and, for an env with a global state
//           (PettingZoo's state(): what a centralised critic sees), the array
//           "state", written with AgentState(out, number of env info arrays).
// Truncation stays per env (max_episode_steps, or the env's out.truncated):
// it ends every agent's episode. The env sets out.terminated when the whole
// episode ended, which starts the env's autoreset.
//
// The env's Action is std::span<const float>; AgentActions finds each
// agent's part of it.
#ifndef ENVPOOL_CORE_AGENTS_H_
#define ENVPOOL_CORE_AGENTS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/dtype.h"
#include "envpool/core/output.h"

namespace envpool {

// The info arrays every multi-agent env has, by index, and the index of the
// env's own first info array.
inline constexpr std::size_t kAgentRewardsInfo = 0;
inline constexpr std::size_t kAgentTerminationsInfo = 1;
inline constexpr std::size_t kAgentActiveInfo = 2;
inline constexpr std::size_t kFirstEnvInfo = 3;

// How many float slots an agent's action takes in the packed action vector.
inline std::size_t ActionSlots(const ArraySpec& action) {
  return IsInteger(action.dtype) ? 1 : action.NumElements();
}

// The name of a multi-agent env's global state among its info arrays.
inline constexpr std::string_view kAgentStateInfoName = "state";

// The spec of a multi-agent env with `agents` (in the order the front ends
// list them), the env's own `info` arrays (written with
// out.Info<T>(kFirstEnvInfo + i)) and, if given, its global `state` (an array
// of any name, batched as the info array "state" after the env's own).
inline EnvSpec MakeMultiAgentSpec(
    std::vector<AgentSpec> agents, std::vector<ArraySpec> info = {},
    std::optional<ArraySpec> state = std::nullopt) {
  if (agents.empty()) {
    throw std::invalid_argument("MakeMultiAgentSpec: an env needs an agent");
  }
  std::vector<ArraySpec> obs_keys;
  std::int64_t action_slots = 0;
  for (const AgentSpec& agent : agents) {
    const bool discrete = IsInteger(agent.action.dtype);
    if ((discrete && !agent.action.shape.empty()) ||
        (!discrete && agent.action.dtype != DType::kFloat32)) {
      throw std::invalid_argument(
          "MakeMultiAgentSpec: agent '" + agent.name +
          "' needs a discrete action (MakeDiscrete) or a float32 vector");
    }
    ArraySpec obs = agent.obs;
    obs.name = agent.name;
    obs_keys.push_back(std::move(obs));
    action_slots += static_cast<std::int64_t>(ActionSlots(agent.action));
  }
  const auto num_agents = static_cast<std::int64_t>(agents.size());
  std::vector<ArraySpec> all_info{
      MakeArray<double>("rewards", {num_agents}),
      MakeArray<bool>("terminations", {num_agents}),
      MakeArray<bool>("active", {num_agents}),
  };
  for (ArraySpec& array : info) {
    if (array.name == kAgentStateInfoName) {
      throw std::invalid_argument(
          "MakeMultiAgentSpec: the info name 'state' is the global state's; "
          "pass the state as MakeMultiAgentSpec's `state`");
    }
    all_info.push_back(std::move(array));
  }
  if (state.has_value()) {
    state->name = std::string(kAgentStateInfoName);
    all_info.push_back(std::move(*state));
  }
  return EnvSpec{MakeDict("obs", std::move(obs_keys)),
                 MakeArray<float>("action", {action_slots}),
                 std::move(all_info), std::move(agents)};
}

// Each agent's part of a multi-agent env's packed action.
class AgentActions {
 public:
  explicit AgentActions(const std::vector<AgentSpec>& agents) {
    std::size_t offset = 0;
    for (const AgentSpec& agent : agents) {
      offsets_.push_back(offset);
      sizes_.push_back(ActionSlots(agent.action));
      offset += sizes_.back();
    }
  }

  // Agent `agent`'s continuous action.
  [[nodiscard]] std::span<const float> Continuous(std::span<const float> packed,
                                                  std::size_t agent) const {
    return packed.subspan(offsets_.at(agent), sizes_.at(agent));
  }

  // Agent `agent`'s discrete action, checked to lie in [0, n).
  [[nodiscard]] std::int64_t Discrete(std::span<const float> packed,
                                      std::size_t agent, std::int64_t n) const {
    const float value = packed[offsets_.at(agent)];
    const auto index = static_cast<std::int64_t>(value);
    if (static_cast<float>(index) != value || index < 0 || index >= n) {
      throw std::out_of_range("agent " + std::to_string(agent) +
                              "'s discrete action " + std::to_string(value) +
                              " is not an index in [0, " + std::to_string(n) +
                              ")");
    }
    return index;
  }

 private:
  std::vector<std::size_t> offsets_;
  std::vector<std::size_t> sizes_;
};

// The per-agent results of one reset or step, in agent order.
inline std::span<double> AgentRewards(Output& out) {
  return out.Info<double>(kAgentRewardsInfo);
}
inline std::span<bool> AgentTerminations(Output& out) {
  return out.Info<bool>(kAgentTerminationsInfo);
}
inline std::span<bool> AgentActive(Output& out) {
  return out.Info<bool>(kAgentActiveInfo);
}

// The global state of a multi-agent env whose spec has `num_env_info` info
// arrays of its own and a state (MakeMultiAgentSpec's `state`).
template <ArrayElement T>
std::span<T> AgentState(Output& out, std::size_t num_env_info) {
  return out.Info<T>(kFirstEnvInfo + num_env_info);
}

}  // namespace envpool

#endif  // ENVPOOL_CORE_AGENTS_H_
