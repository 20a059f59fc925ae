// mpe2's simple_push (simple_push_v3): a good agent reaches its goal
// landmark while an adversary, which does not know the goal, pushes it away.
#ifndef ENVPOOL_MPE2_SCENARIOS_SIMPLE_PUSH_H_
#define ENVPOOL_MPE2_SCENARIOS_SIMPLE_PUSH_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "envpool/mpe2/scenarios/common.h"
#include "envpool/mpe2/world.h"
#include "envpool/numpy/random.h"

namespace envpool::mpe2 {

class SimplePushScenario {
 public:
  [[nodiscard]] World MakeWorld() const {
    World world;
    world.dim_c = 2;
    AddAgents(world, {"adversary_0", "agent_0"}, {.silent = true});
    AddLandmarks(world, "landmark ", 2, {.collide = false});
    return world;
  }

  void ResetWorld(World& world, NumpyRandom& rng) {
    for (std::size_t i = 0; i < world.num_landmarks(); ++i) {
      std::vector<double>& color = world.landmark(i).color;
      color = {0.1, 0.1, 0.1};
      color[i + 1] += 0.8;
    }
    goal_ = static_cast<std::size_t>(
        rng.Integers(0, static_cast<std::int64_t>(world.num_landmarks())));
    world.agent(0).color = {0.75, 0.25, 0.25};
    world.agent(1).color = {0.25, 0.25, 0.25};
    world.agent(1).color[goal_ + 1] += 0.5;
    PlaceEntities(world, rng);
  }

  [[nodiscard]] double Reward(std::size_t agent, const World& world) const {
    const Entity& goal = world.landmark(goal_);
    if (agent == 1) {
      return -World::Distance(world.agent(agent), goal);
    }
    const double good_distance =
        NearestDistance(world, goal, [](std::size_t i) { return i != 0; });
    return good_distance - World::Distance(goal, world.agent(agent));
  }

  void Observe(std::size_t agent, const World& world,
               std::vector<double>& obs) const {
    const Entity& self = world.agent(agent);
    Append(obs, self.vel);
    if (agent == 1) {
      Append(obs, Relative(world.landmark(goal_), self));
      Append(obs, self.color);
    }
    AppendLandmarksSeenBy(obs, world, self);
    if (agent == 1) {
      for (std::size_t l = 0; l < world.num_landmarks(); ++l) {
        Append(obs, world.landmark(l).color);
      }
    }
    AppendOthersSeenBy(obs, world, agent);
  }

 private:
  std::size_t goal_ = 0;
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_SIMPLE_PUSH_H_
