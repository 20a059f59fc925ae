// mpe2's simple_adversary (simple_adversary_v3): N good agents and one
// adversary; the good agents know which landmark is the goal and must reach
// it while keeping the adversary, which does not know it, away.
#ifndef ENVPOOL_MPE2_SCENARIOS_SIMPLE_ADVERSARY_H_
#define ENVPOOL_MPE2_SCENARIOS_SIMPLE_ADVERSARY_H_

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

class SimpleAdversaryScenario {
 public:
  static constexpr std::size_t kAdversaries = 1;

  static Config DefaultConfig() {
    return Neighbors::WithOptions({{"N", std::int64_t{2}}});
  }

  explicit SimpleAdversaryScenario(const Config& config)
      : n_(config.Get<std::int64_t>("N")),
        neighbors_(Neighbors::FromConfig(config)) {
    if (n_ < 1) {
      throw std::invalid_argument("N must be at least 1");
    }
  }

  [[nodiscard]] World MakeWorld() const {
    World world;
    world.dim_c = 2;
    world.num_agents = static_cast<std::size_t>(n_) + kAdversaries;
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      AddAgent(world,
               i < kAdversaries ? "adversary_" + std::to_string(i)
                                : "agent_" + std::to_string(i - kAdversaries),
               {.size = 0.15, .collide = false, .silent = true});
    }
    AddLandmarks(world, "landmark ", static_cast<std::size_t>(n_),
                 {.size = 0.08, .collide = false});
    return world;
  }

  void ResetWorld(World& world, NumpyRandom& rng) {
    world.agent(0).color = {0.85, 0.35, 0.35};
    for (std::size_t i = 1; i < world.num_agents; ++i) {
      world.agent(i).color = {0.35, 0.35, 0.85};
    }
    for (std::size_t i = 0; i < world.num_landmarks(); ++i) {
      world.landmark(i).color = {0.15, 0.15, 0.15};
    }
    goal_ = static_cast<std::size_t>(
        rng.Integers(0, static_cast<std::int64_t>(world.num_landmarks())));
    world.landmark(goal_).color = {0.15, 0.65, 0.15};
    PlaceEntities(world, rng);
  }

  [[nodiscard]] double Reward(std::size_t agent, const World& world) const {
    const Entity& goal = world.landmark(goal_);
    if (IsAdversary(agent)) {
      return -World::Distance(world.agent(agent), goal);
    }
    double adversary_reward = 0.0;  // sum() over the adversaries
    for (std::size_t i = 0; i < kAdversaries; ++i) {
      adversary_reward += World::Distance(world.agent(i), goal);
    }
    const double position_reward = -NearestDistance(
        world, goal, [](std::size_t i) { return !IsAdversary(i); });
    return position_reward + adversary_reward;
  }

  void Observe(std::size_t agent, const World& world,
               std::vector<double>& obs) const {
    const Entity& self = world.agent(agent);
    // the goal is private to the good agents, seen whatever the neighbours
    if (!IsAdversary(agent)) {
      Append(obs, Relative(world.landmark(goal_), self));
    }
    AppendLandmarksNear(obs, world, self, neighbors_.landmarks);
    if (neighbors_.agents == 0) {
      AppendOthersSeenBy(obs, world, agent);
    } else {
      AppendAgentsNear(obs, world, agent,
                       NearestOtherAgents(world, agent, neighbors_.agents),
                       neighbors_.agents);
    }
  }

 private:
  static bool IsAdversary(std::size_t agent) { return agent < kAdversaries; }

  std::int64_t n_;
  Neighbors neighbors_;
  std::size_t goal_ = 0;
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_SIMPLE_ADVERSARY_H_
