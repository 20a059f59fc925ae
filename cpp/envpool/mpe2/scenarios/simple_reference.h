// mpe2's simple_reference (simple_reference_v3): two agents, each told by the
// other (through a 10-symbol channel) which landmark to reach.
#ifndef ENVPOOL_MPE2_SCENARIOS_SIMPLE_REFERENCE_H_
#define ENVPOOL_MPE2_SCENARIOS_SIMPLE_REFERENCE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "envpool/core/config.h"
#include "envpool/mpe2/scenarios/common.h"
#include "envpool/mpe2/world.h"
#include "envpool/numpy/random.h"

namespace envpool::mpe2 {

class SimpleReferenceScenario {
 public:
  static Config DefaultConfig() { return {{"local_ratio", 0.5}}; }

  explicit SimpleReferenceScenario(const Config& config) {
    const double local_ratio = config.Get<double>("local_ratio");
    if (!(local_ratio >= 0.0 && local_ratio <= 1.0)) {
      throw std::invalid_argument(
          "local_ratio is a proportion. Must be between 0 and 1.");
    }
  }

  [[nodiscard]] World MakeWorld() const {
    World world;
    world.dim_c = 10;
    AddAgents(world, {"agent_0", "agent_1"}, {.collide = false});
    AddLandmarks(world, "landmark ", 3, {.collide = false});
    return world;
  }

  void ResetWorld(World& world, NumpyRandom& rng) {
    // agent i's goal: the other agent (goal_a) on landmark goal_[i] (goal_b)
    for (std::size_t& goal : goal_) {
      goal = static_cast<std::size_t>(
          rng.Integers(0, static_cast<std::int64_t>(world.num_landmarks())));
    }
    world.landmark(0).color = {0.75, 0.25, 0.25};
    world.landmark(1).color = {0.25, 0.75, 0.25};
    world.landmark(2).color = {0.25, 0.25, 0.75};
    world.agent(1).color = world.landmark(goal_[0]).color;
    world.agent(0).color = world.landmark(goal_[1]).color;
    PlaceEntities(world, rng);
  }

  [[nodiscard]] double Reward(std::size_t agent, const World& world) const {
    return -World::Distance(world.agent(1 - agent),
                            world.landmark(goal_[agent]));
  }

  // The mean of the agents' rewards.
  [[nodiscard]] double GlobalReward(const World& world) const {
    double sum = 0.0;
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      sum += Reward(i, world);
    }
    return sum / static_cast<double>(world.num_agents);
  }

  void Observe(std::size_t agent, const World& world,
               std::vector<double>& obs) const {
    const Entity& self = world.agent(agent);
    Append(obs, self.vel);
    AppendLandmarksSeenBy(obs, world, self);
    Append(obs, world.landmark(goal_[agent]).color);
    Append(obs, world.agent(1 - agent).c);
  }

 private:
  std::array<std::size_t, 2> goal_{};
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_SIMPLE_REFERENCE_H_
