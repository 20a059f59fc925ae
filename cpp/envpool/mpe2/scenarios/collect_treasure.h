// mpe2's collect_treasure (collect_treasure_v1): collectors pick up treasures
// of several types and bring each to the deposit of its type; picked-up
// treasures respawn elsewhere on a later step.
#ifndef ENVPOOL_MPE2_SCENARIOS_COLLECT_TREASURE_H_
#define ENVPOOL_MPE2_SCENARIOS_COLLECT_TREASURE_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/config.h"
#include "envpool/mpe2/scenarios/common.h"
#include "envpool/mpe2/world.h"
#include "envpool/numpy/linalg.h"
#include "envpool/numpy/random.h"

namespace envpool::mpe2 {

class CollectTreasureScenario {
 public:
  static constexpr double kTreasureBound = 0.95;
  static constexpr double kDeadSortKey = 1e6;

  static Config DefaultConfig() {
    return {{"num_collectors", std::int64_t{6}},
            {"num_deposits", std::int64_t{2}},
            {"num_treasures", std::int64_t{6}}};
  }

  explicit CollectTreasureScenario(const Config& config)
      : num_collectors_(AtLeastOne(config, "num_collectors")),
        num_deposits_(DepositCount(config)),
        num_treasures_(AtLeastOne(config, "num_treasures")) {}

  [[nodiscard]] World MakeWorld() const {
    World world;
    world.dim_c = 2;
    world.num_agents = num_collectors_ + num_deposits_;
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      const bool collector = i < num_collectors_;
      AddAgent(world,
               collector ? "collector_" + std::to_string(i)
                         : "deposit_" + std::to_string(i - num_collectors_),
               {.size = collector ? 0.05 : 0.075,
                .collide = false,
                .silent = true,
                .accel = 1.5,
                .max_speed = 1.0})
          .mass = collector ? 1.0 : 2.25;
    }
    AddLandmarks(world, "treasure_", num_treasures_,
                 {.size = 0.025, .collide = false});
    return world;
  }

  void ResetWorld(World& world, NumpyRandom& rng) {
    // post_step draws from a copy of the generator taken here (the world's
    // deep copy of np_random), not from the env's own
    respawn_rng_ = rng;
    holding_.assign(num_collectors_, std::nullopt);
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      Entity& agent = world.agent(i);
      agent.pos = UniformVec2(rng, -1.0, 1.0);
      agent.vel = {0.0, 0.0};
      agent.c.assign(static_cast<std::size_t>(world.dim_c), 0.0);
    }
    type_.assign(num_treasures_, 0);
    alive_.assign(num_treasures_, true);
    for (std::size_t t = 0; t < num_treasures_; ++t) {
      type_[t] = rng.Integers(0, static_cast<std::int64_t>(num_deposits_));
      world.landmark(t).pos = UniformVec2(rng, -kTreasureBound, kTreasureBound);
      world.landmark(t).vel = {0.0, 0.0};
    }
    collecting_reward_ = 0.0;
    deposit_reward_ = 0.0;
  }

  // Scenario.post_step: pick-ups, respawns and deliveries of this step.
  void PostStep(World& world) {
    collecting_reward_ = 0.0;
    deposit_reward_ = 0.0;
    for (std::size_t t = 0; t < num_treasures_; ++t) {
      Entity& treasure = world.landmark(t);
      if (alive_[t]) {
        for (std::size_t c = 0; c < num_collectors_; ++c) {
          if (!holding_[c] && IsCollision(treasure, world.agent(c))) {
            collecting_reward_ += 5.0;
            alive_[t] = false;
            holding_[c] = type_[t];
            treasure.pos = {-999.0, -999.0};
            break;
          }
        }
      } else if (respawn_rng_.Uniform(0.0, 1.0) <= 1.0) {
        treasure.pos =
            UniformVec2(respawn_rng_, -kTreasureBound, kTreasureBound);
        type_[t] =
            respawn_rng_.Integers(0, static_cast<std::int64_t>(num_deposits_));
        alive_[t] = true;
      }
    }
    for (std::size_t c = 0; c < num_collectors_; ++c) {
      std::optional<std::int64_t>& held = holding_[c];
      if (!held.has_value()) {
        continue;
      }
      const std::int64_t kind = held.value();
      for (std::size_t d = 0; d < num_deposits_; ++d) {
        if (kind == static_cast<std::int64_t>(d) &&
            IsCollision(world.agent(c), world.agent(num_collectors_ + d))) {
          deposit_reward_ += 5.0;
          held.reset();
          break;
        }
      }
    }
  }

  [[nodiscard]] double Reward(std::size_t agent, const World& world) const {
    const Entity& self = world.agent(agent);
    double reward = 0.0;
    if (agent < num_collectors_) {
      for (std::size_t c = 0; c < num_collectors_; ++c) {
        if (c != agent && IsCollision(self, world.agent(c))) {
          reward -= 5.0;
        }
      }
      std::optional<double> nearest;
      const std::optional<std::int64_t>& held = holding_[agent];
      if (!held.has_value()) {
        for (std::size_t t = 0; t < num_treasures_; ++t) {
          if (alive_[t]) {
            Closer(nearest, World::Distance(world.landmark(t), self));
          }
        }
      } else {
        const auto d = static_cast<std::size_t>(held.value());
        Closer(nearest,
               World::Distance(world.agent(num_collectors_ + d), self));
      }
      if (nearest) {
        reward -= 0.1 * *nearest;
      }
    } else {
      const auto type = static_cast<std::int64_t>(agent - num_collectors_);
      std::optional<double> nearest;
      for (std::size_t c = 0; c < num_collectors_; ++c) {
        if (holding_[c] == type) {
          Closer(nearest, World::Distance(world.agent(c), self));
        }
      }
      if (nearest) {
        reward -= 0.1 * *nearest;
      } else {
        // np.mean(positions, axis=0): rows added in order, then divided
        Vec2 centroid = world.agent(0).pos;
        for (std::size_t c = 1; c < num_collectors_; ++c) {
          centroid[0] += world.agent(c).pos[0];
          centroid[1] += world.agent(c).pos[1];
        }
        const auto count = static_cast<double>(num_collectors_);
        const std::array<double, 2> offset{centroid[0] / count - self.pos[0],
                                           centroid[1] / count - self.pos[1]};
        reward -= 0.1 * NpNorm(offset);
      }
    }
    return reward + (collecting_reward_ + deposit_reward_);
  }

  void Observe(std::size_t agent, const World& world,
               std::vector<double>& obs) const {
    const Entity& self = world.agent(agent);
    Append(obs, self.pos);
    Append(obs, self.vel);
    const bool collector = agent < num_collectors_;
    if (collector) {
      AppendOneHot(obs, holding_[agent]);
    }
    // the other agents, nearest first (a stable sort, as Python's sorted)
    std::vector<std::size_t> others;
    std::vector<double> key(world.num_agents, 0.0);
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      if (i != agent) {
        others.push_back(i);
        key[i] = World::Distance(world.agent(i), self);
      }
    }
    std::stable_sort(
        others.begin(), others.end(),
        [&](std::size_t a, std::size_t b) { return key[a] < key[b]; });
    for (std::size_t i : others) {
      const Entity& other = world.agent(i);
      Append(obs, Relative(other, self));
      Append(obs, other.vel);
      if (i < num_collectors_) {
        AppendOneHot(obs, std::nullopt);
        AppendOneHot(obs, holding_[i]);
      } else {
        AppendOneHot(obs, static_cast<std::int64_t>(i - num_collectors_));
        AppendOneHot(obs, std::nullopt);
      }
    }
    // the treasures, nearest first, the picked-up ones last as zeros
    std::vector<std::size_t> treasures(num_treasures_);
    std::iota(treasures.begin(), treasures.end(), 0);
    std::vector<double> treasure_key(num_treasures_);
    for (std::size_t t = 0; t < num_treasures_; ++t) {
      treasure_key[t] =
          alive_[t] ? World::Distance(world.landmark(t), self) : kDeadSortKey;
    }
    std::stable_sort(treasures.begin(), treasures.end(),
                     [&](std::size_t a, std::size_t b) {
                       return treasure_key[a] < treasure_key[b];
                     });
    for (std::size_t t : treasures) {
      if (alive_[t]) {
        Append(obs, Relative(world.landmark(t), self));
        AppendOneHot(obs, type_[t]);
      } else {
        Append(obs, Vec2{0.0, 0.0});
        AppendOneHot(obs, std::nullopt);
      }
    }
  }

  // The colour draw() paints entity `entity` in (the colours reset_world and
  // post_step give), or nothing for a picked-up treasure, which draw() skips.
  [[nodiscard]] std::optional<std::vector<double>> DrawnColor(
      std::size_t entity, const World& world) const {
    if (entity < num_collectors_) {
      const std::optional<std::int64_t>& held = holding_[entity];
      return held ? TypeColor(*held, 0.85)
                  : std::vector<double>{0.85, 0.85, 0.85};
    }
    if (entity < world.num_agents) {
      return TypeColor(static_cast<std::int64_t>(entity - num_collectors_),
                       0.35);
    }
    const std::size_t t = entity - world.num_agents;
    if (!alive_[t]) {
      return std::nullopt;
    }
    return TypeColor(type_[t], 1.0);
  }

 private:
  // _TYPE_COLORS: one colour per treasure type (num_deposits of them).
  static constexpr std::array<std::array<double, 3>, 6> kTypeColors{{
      {0.212, 0.408, 0.776},
      {0.945, 0.553, 0.000},
      {0.169, 0.627, 0.173},
      {0.839, 0.149, 0.157},
      {0.580, 0.404, 0.741},
      {0.549, 0.337, 0.294},
  }};

  // The colour of treasure type `type` times `tint` (as post_step's
  // 0.85 * lm.color; 1 * v is v exactly).
  static std::vector<double> TypeColor(std::int64_t type, double tint) {
    const std::array<double, 3>& rgb =
        kTypeColors.at(static_cast<std::size_t>(type));
    std::vector<double> color(rgb.begin(), rgb.end());
    for (double& v : color) {
      v = tint * v;
    }
    return color;
  }

  // num_deposits: one treasure type, and colour, per deposit; mpe2 has six
  // colours and refuses more deposits.
  static std::size_t DepositCount(const Config& config) {
    const std::size_t n = AtLeastOne(config, "num_deposits");
    if (n > kTypeColors.size()) {
      throw std::invalid_argument(
          "num_deposits must be at most " + std::to_string(kTypeColors.size()) +
          " (mpe2 has that many treasure colours), got " + std::to_string(n));
    }
    return n;
  }

  static std::size_t AtLeastOne(const Config& config, const char* name) {
    const auto n = config.Get<std::int64_t>(name);
    if (n < 1) {
      throw std::invalid_argument(std::string(name) + " must be >= 1");
    }
    return static_cast<std::size_t>(n);
  }

  // Python's min(): keeps the first smallest.
  static void Closer(std::optional<double>& nearest, double d) {
    if (!nearest || d < *nearest) {
      nearest = d;
    }
  }

  // (np.arange(num_deposits) == value).astype(float)
  void AppendOneHot(std::vector<double>& obs,
                    std::optional<std::int64_t> value) const {
    for (std::size_t k = 0; k < num_deposits_; ++k) {
      obs.push_back(value == static_cast<std::int64_t>(k) ? 1.0 : 0.0);
    }
  }

  std::size_t num_collectors_;
  std::size_t num_deposits_;
  std::size_t num_treasures_;
  NumpyRandom respawn_rng_;
  std::vector<std::optional<std::int64_t>> holding_;
  std::vector<std::int64_t> type_;
  std::vector<bool> alive_;
  double collecting_reward_ = 0.0;
  double deposit_reward_ = 0.0;
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_COLLECT_TREASURE_H_
