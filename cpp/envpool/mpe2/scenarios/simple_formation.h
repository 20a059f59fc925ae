// mpe2's simple_formation (simple_formation_v1): N agents form a circle of
// radius 0.5 around a landmark, its slots anchored at the angle of the agent
// with the smallest angle; a shared reward from the best matching to them.
#ifndef ENVPOOL_MPE2_SCENARIOS_SIMPLE_FORMATION_H_
#define ENVPOOL_MPE2_SCENARIOS_SIMPLE_FORMATION_H_

#include <cstddef>
#include <numbers>
#include <vector>

#include "envpool/core/config.h"
#include "envpool/mpe2/scenarios/common.h"
#include "envpool/mpe2/scenarios/slot_scenario.h"
#include "envpool/mpe2/world.h"
#include "envpool/numpy/random.h"
#include "envpool/numpy/ufuncs.h"

namespace envpool::mpe2 {

class SimpleFormationScenario : public SlotScenario {
 public:
  static constexpr double kTargetRadius = 0.5;

  explicit SimpleFormationScenario(const Config& config)
      : SlotScenario(config, /*agent_size=*/0.05, /*num_landmarks=*/1,
                     /*landmark_size=*/0.03) {}

  void ResetWorld(World& world, NumpyRandom& rng) {
    ResetAgents(world, rng);
    world.landmark(0).pos = UniformVec2(rng, -0.5, 0.5);
    world.landmark(0).vel = {0.0, 0.0};
  }

  double GlobalReward(const World& world) {
    const double separation =
        (2 * std::numbers::pi) / static_cast<double>(world.num_agents);
    const Vec2 center = world.landmark(0).pos;
    double theta_min = 0.0;
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      const Vec2 p = Relative(world.agent(i), world.landmark(0));
      double angle = NpArctan2(p[1], p[0]);
      if (angle < 0) {
        angle += 2 * std::numbers::pi;
      }
      if (i == 0 || angle < theta_min) {
        theta_min = angle;
      }
    }
    std::vector<Vec2> slots(world.num_agents);
    for (std::size_t i = 0; i < slots.size(); ++i) {
      const double theta = theta_min + static_cast<double>(i) * separation;
      slots[i] = {center[0] + kTargetRadius * NpCos(theta),
                  center[1] + kTargetRadius * NpSin(theta)};
    }
    return matching_.Match(world, slots);
  }
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_SIMPLE_FORMATION_H_
