// mpe2's simple (simple_v3): one agent walks to one landmark.
#ifndef ENVPOOL_MPE2_SCENARIOS_SIMPLE_H_
#define ENVPOOL_MPE2_SCENARIOS_SIMPLE_H_

#include <cstddef>
#include <vector>

#include "envpool/mpe2/scenarios/common.h"
#include "envpool/mpe2/world.h"
#include "envpool/numpy/random.h"

namespace envpool::mpe2 {

class SimpleScenario {
 public:
  [[nodiscard]] World MakeWorld() const {
    World world;
    AddAgents(world, {"agent_0"}, {.collide = false, .silent = true});
    AddLandmarks(world, "landmark ", 1, {.collide = false});
    return world;
  }

  void ResetWorld(World& world, NumpyRandom& rng) const {
    world.agent(0).color = {0.25, 0.25, 0.25};
    world.landmark(0).color = {0.75, 0.25, 0.25};
    PlaceEntities(world, rng);
  }

  [[nodiscard]] double Reward(std::size_t agent, const World& world) const {
    return -World::SquaredDistance(world.agent(agent), world.landmark(0));
  }

  void Observe(std::size_t agent, const World& world,
               std::vector<double>& obs) const {
    const Entity& self = world.agent(agent);
    Append(obs, self.vel);
    for (std::size_t i = 0; i < world.num_landmarks(); ++i) {
      Append(obs, Relative(world.landmark(i), self));
    }
  }
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_SIMPLE_H_
