// mpe2's simple_spread (simple_spread_v3): N agents cover N landmarks without
// colliding; a shared reward (the distance of each landmark to its nearest
// agent) blended with each agent's collision penalty by local_ratio.
#ifndef ENVPOOL_MPE2_SCENARIOS_SIMPLE_SPREAD_H_
#define ENVPOOL_MPE2_SCENARIOS_SIMPLE_SPREAD_H_

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/config.h"
#include "envpool/mpe2/scenarios/common.h"
#include "envpool/mpe2/scenarios/neighbors.h"
#include "envpool/mpe2/world.h"
#include "envpool/numpy/random.h"

namespace envpool::mpe2 {

class SimpleSpreadScenario {
 public:
  // Within this distance an agent covers a landmark (CAPTURE_RADIUS).
  static constexpr double kCaptureRadius = 0.1;

  static Config DefaultConfig() {
    return Neighbors::WithOptions({{"N", std::int64_t{3}},
                                   {"local_ratio", 0.5},
                                   {"curriculum", false},
                                   {"terminate_on_success", false}});
  }

  explicit SimpleSpreadScenario(const Config& config)
      : n_(config.Get<std::int64_t>("N")),
        // curriculum stage 0 leaves the collision penalty out
        collision_penalty_(!config.Get<bool>("curriculum")),
        terminate_on_success_(config.Get<bool>("terminate_on_success")),
        neighbors_(Neighbors::FromConfig(config)) {
    const double local_ratio = config.Get<double>("local_ratio");
    if (!(local_ratio >= 0.0 && local_ratio <= 1.0)) {
      throw std::invalid_argument(
          "local_ratio is a proportion. Must be between 0 and 1.");
    }
    if (n_ < 1) {
      throw std::invalid_argument("N must be at least 1");
    }
  }

  [[nodiscard]] World MakeWorld() const {
    World world;
    world.dim_c = 2;
    for (std::int64_t i = 0; i < n_; ++i) {
      AddAgent(world, "agent_" + std::to_string(i),
               {.size = 0.15, .silent = true});
    }
    world.num_agents = static_cast<std::size_t>(n_);
    AddLandmarks(world, "landmark ", world.num_agents, {.collide = false});
    return world;
  }

  void ResetWorld(World& world, NumpyRandom& rng) const {
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      world.agent(i).color = {0.35, 0.35, 0.85};
    }
    for (std::size_t i = 0; i < world.num_landmarks(); ++i) {
      world.landmark(i).color = {0.25, 0.25, 0.25};
    }
    PlaceEntities(world, rng);
  }

  [[nodiscard]] double Reward(std::size_t agent, const World& world) const {
    const Entity& self = world.agent(agent);
    if (!self.collide || !collision_penalty_) {
      return 0.0;
    }
    double reward = 0.0;
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      const bool hit = i != agent && IsCollision(world.agent(i), self);
      reward -= 1.0 * static_cast<double>(hit);
    }
    return reward;
  }

  [[nodiscard]] double GlobalReward(const World& world) const {
    double reward = 0.0;
    for (std::size_t l = 0; l < world.num_landmarks(); ++l) {
      reward -= NearestAgentDistance(world, world.landmark(l));
    }
    return reward;
  }

  void Observe(std::size_t agent, const World& world,
               std::vector<double>& obs) const {
    AppendSurroundingsNear(obs, world, agent, neighbors_, 0, &Entity::c,
                           static_cast<std::size_t>(world.dim_c));
  }

  [[nodiscard]] bool IsTerminal(const World& world) const {
    if (!terminate_on_success_) {
      return false;
    }
    for (std::size_t l = 0; l < world.num_landmarks(); ++l) {
      if (NearestAgentDistance(world, world.landmark(l)) >= kCaptureRadius) {
        return false;
      }
    }
    return true;
  }

 private:
  std::int64_t n_;
  bool collision_penalty_;
  bool terminate_on_success_;
  Neighbors neighbors_;
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_SIMPLE_SPREAD_H_
