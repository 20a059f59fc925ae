// One mpe2 1.1.1 scenario as a multi-agent envpool env: SimpleEnv
// (mpe2/_mpe_utils/simple_env.py) with the parallel API of PettingZoo's
// aec_to_parallel over it.
//
// A Scenario is a class with
//   World MakeWorld() const;
//   void ResetWorld(World&, NumpyRandom&);
//   double Reward(std::size_t agent, const World&) const;
//   void Observe(std::size_t agent, const World&, std::vector<double>&) const;
// and optionally
//   static Config DefaultConfig();         its own options, then
//   explicit Scenario(const Config&);      (default: none, default-built)
//   double GlobalReward(const World&);     the shared reward that local_ratio
//                                          (an option, or kLocalRatio) blends
//                                          in
//   static constexpr double kLocalRatio;   a local_ratio that is no option
//   void PostStep(World&);                 run after the physics, before
//                                          the rewards
//   bool IsTerminal(const World&) const;   an early end (default: never)
//   std::optional<std::vector<double>> DrawnColor(std::size_t entity,
//       const World&) const;               the colour a frame shows the
//                                          entity in, nothing for one not
//                                          drawn (default: its colour)
// The env draws from numpy's Generator, seeded as seeding.np_random(seed), so
// env i of a pool seeded s replays the reference's env reset with seed s + i.
#ifndef ENVPOOL_MPE2_MPE_ENV_H_
#define ENVPOOL_MPE2_MPE_ENV_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "envpool/core/agents.h"
#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"
#include "envpool/mpe2/scene.h"
#include "envpool/mpe2/world.h"
#include "envpool/numpy/random.h"

namespace envpool::mpe2 {

// The movement part of an action: no-op, -x, +x, -y, +y.
inline constexpr std::int64_t kMoveChoices = 5;

// The size of an agent's action space (SimpleEnv.__init__): Discrete(n) for
// discrete actions, a Box of n floats for continuous ones.
inline std::int64_t ActionSize(const Entity& agent, int dim_c,
                               bool continuous) {
  std::int64_t n = 0;
  if (agent.movable) {
    n = kMoveChoices;
  } else if (!continuous) {
    n = 1;
  }
  if (!agent.silent) {
    n = continuous ? n + dim_c : n * dim_c;
  }
  return n;
}

// Options every scenario has.
inline Config WithCommonOptions(Config config) {
  config.Set("max_cycles", std::int64_t{25});
  config.Set("continuous_actions", false);
  config.Set("dynamic_rescaling", true);
  return config;
}

template <typename Scenario>
class MpeEnv {
 public:
  using Action = std::span<const float>;

  static Config DefaultConfig() {
    if constexpr (requires { Scenario::DefaultConfig(); }) {
      return WithCommonOptions(Scenario::DefaultConfig());
    } else {
      return WithCommonOptions({});
    }
  }

  // A scenario without options of its own has neither DefaultConfig nor a
  // constructor from the config.
  static Scenario MakeScenario(const Config& config) {
    if constexpr (std::is_constructible_v<Scenario, const Config&>) {
      return Scenario(config);
    } else {
      return Scenario();
    }
  }

  static EnvSpec Spec(const Config& config) {
    Scenario scenario = MakeScenario(config);
    World world = scenario.MakeWorld();
    NumpyRandom rng(0);
    scenario.ResetWorld(world, rng);
    const bool continuous = config.Get<bool>("continuous_actions");
    std::vector<AgentSpec> agents;
    std::vector<double> obs;
    std::int64_t state_size = 0;
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      obs.clear();
      scenario.Observe(i, world, obs);
      state_size += static_cast<std::int64_t>(obs.size());
      const Entity& agent = world.agent(i);
      const std::int64_t n = ActionSize(agent, world.dim_c, continuous);
      agents.push_back(AgentSpec{
          agent.name,
          MakeArray<float>("obs", {static_cast<std::int64_t>(obs.size())}),
          continuous ? MakeArray<float>("action", {n}, {0.0}, {1.0})
                     : MakeDiscrete("action", n)});
    }
    // mpe2's state(): every agent's observation, in agent order, as float32.
    return MakeMultiAgentSpec(std::move(agents), {},
                              MakeArray<float>("state", {state_size}));
  }

  explicit MpeEnv(const Config& config)
      : scenario_(MakeScenario(config)),
        world_(scenario_.MakeWorld()),
        agent_actions_(Spec(config).agents),
        max_cycles_(config.Get<std::int64_t>("max_cycles")),
        continuous_(config.Get<bool>("continuous_actions")),
        scene_{.original_cam_range = 0.0,
               .continuous = continuous_,
               .dynamic_rescaling = config.Get<bool>("dynamic_rescaling")} {
    if constexpr (requires { Scenario::kLocalRatio; }) {
      local_ratio_ = Scenario::kLocalRatio;
    } else if (config.Contains("local_ratio")) {
      local_ratio_ = config.Get<double>("local_ratio");
    }
  }

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }

  void Reset(Rng& /*rng*/, Output& out) {
    scenario_.ResetWorld(world_, np_random_);
    scene_.original_cam_range = CamRange(world_);
    steps_ = 0;
    WriteObservations(out);
    auto rewards = AgentRewards(out);
    auto terminations = AgentTerminations(out);
    auto active = AgentActive(out);
    for (std::size_t i = 0; i < world_.num_agents; ++i) {
      rewards[i] = 0.0;
      terminations[i] = false;
      active[i] = true;
    }
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    for (std::size_t i = 0; i < world_.num_agents; ++i) {
      SetAction(i, action);
    }
    world_.Step();
    if constexpr (requires { scenario_.PostStep(world_); }) {
      scenario_.PostStep(world_);
    }
    double global_reward = 0.0;
    if constexpr (requires { scenario_.GlobalReward(world_); }) {
      if (local_ratio_) {
        global_reward = scenario_.GlobalReward(world_);
      }
    }
    auto rewards = AgentRewards(out);
    double total = 0.0;
    for (std::size_t i = 0; i < world_.num_agents; ++i) {
      const double agent_reward = scenario_.Reward(i, world_);
      const double reward = local_ratio_ ? global_reward * (1 - *local_ratio_) +
                                               agent_reward * *local_ratio_
                                         : agent_reward;
      // aec_to_parallel adds it to an int 0 (so -0.0 reads 0.0)
      rewards[i] = 0.0 + reward;
      total += rewards[i];
    }
    ++steps_;
    bool terminal = false;
    if (steps_ >= max_cycles_) {
      out.truncated = true;
    } else {
      if constexpr (requires { scenario_.IsTerminal(world_); }) {
        terminal = scenario_.IsTerminal(world_);
      }
    }
    auto terminations = AgentTerminations(out);
    auto active = AgentActive(out);
    for (std::size_t i = 0; i < world_.num_agents; ++i) {
      terminations[i] = terminal;
      active[i] = true;
    }
    out.terminated = terminal;
    out.reward = total;
    WriteObservations(out);
  }

  [[nodiscard]] const World& world() const { return world_; }

  // render(): not pixels but the scene (scene.h) as bytes, which envpool's
  // Python renderer draws as mpe2's draw() does.
  static std::vector<std::int64_t> RenderShape(const Config& config) {
    const World world = MakeScenario(config).MakeWorld();
    return {static_cast<std::int64_t>(SceneSize(world) * sizeof(double))};
  }

  void Render(std::span<std::uint8_t> frame) const {
    WriteScene(scenario_, world_, scene_, frame);
  }

 private:
  // SimpleEnv._execute_world_step's split of one agent's action, and
  // _set_action.
  void SetAction(std::size_t i, Action packed) {
    Entity& agent = world_.agent(i);
    const auto dim_c = static_cast<std::size_t>(world_.dim_c);
    agent.action_u = Vec2{0.0, 0.0};
    agent.action_c.assign(dim_c, 0.0);
    std::int64_t move = 0;
    std::int64_t say = 0;
    std::span<const float> values;
    std::vector<float> clipped;
    if (continuous_) {
      values = agent_actions_.Continuous(packed, i);
      values = ClipToUnit(values, clipped);
    } else {
      std::int64_t index = agent_actions_.Discrete(
          packed, i, ActionSize(agent, world_.dim_c, false));
      if (agent.movable) {
        move = index % kMoveChoices;
        index /= kMoveChoices;
      }
      say = index;
    }
    if (agent.movable) {
      if (continuous_) {
        agent.action_u[0] += static_cast<double>(values[2] - values[1]);
        agent.action_u[1] += static_cast<double>(values[4] - values[3]);
      } else if (move == 1) {
        agent.action_u[0] = -1.0;
      } else if (move == 2) {
        agent.action_u[0] = +1.0;
      } else if (move == 3) {
        agent.action_u[1] = -1.0;
      } else if (move == 4) {
        agent.action_u[1] = +1.0;
      }
      const double sensitivity = agent.accel.value_or(5.0);
      agent.action_u[0] *= sensitivity;
      agent.action_u[1] *= sensitivity;
    }
    if (!agent.silent) {
      if (continuous_) {
        const std::size_t first = agent.movable ? kMoveChoices : 0;
        for (std::size_t k = 0; k < dim_c; ++k) {
          agent.action_c[k] = static_cast<double>(values[first + k]);
        }
      } else {
        agent.action_c[static_cast<std::size_t>(say)] = 1.0;
      }
    }
  }

  // PettingZoo's ClipOutOfBoundsWrapper: np.clip to [0, 1] only for an
  // action that leaves the box.
  static std::span<const float> ClipToUnit(std::span<const float> values,
                                           std::vector<float>& clipped) {
    bool inside = true;
    for (float v : values) {
      inside = inside && v >= 0.0F && v <= 1.0F;
    }
    if (inside) {
      return values;
    }
    clipped.assign(values.begin(), values.end());
    for (float& v : clipped) {
      v = v > 0.0F ? v : 0.0F;
      v = v < 1.0F ? v : 1.0F;
    }
    return clipped;
  }

  // Each agent's observation, and the global state: all of them in a row.
  void WriteObservations(Output& out) {
    auto state = AgentState<float>(out, 0);
    std::size_t at = 0;
    for (std::size_t i = 0; i < world_.num_agents; ++i) {
      obs_.clear();
      scenario_.Observe(i, world_, obs_);
      auto row = out.Obs<float>(i);
      for (std::size_t k = 0; k < obs_.size(); ++k) {
        row[k] = static_cast<float>(obs_[k]);
        state[at++] = row[k];
      }
    }
  }

  Scenario scenario_;
  World world_;
  AgentActions agent_actions_;
  NumpyRandom np_random_;
  std::int64_t max_cycles_;
  bool continuous_;
  std::optional<double> local_ratio_;
  std::int64_t steps_ = 0;
  std::vector<double> obs_;
  SceneOptions scene_;
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_MPE_ENV_H_
