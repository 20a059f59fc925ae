// mpe2's simple_line (simple_line_v1): N agents spread evenly on the segment
// between two landmarks; a shared reward, the mean distance of the agents to
// their slots on the line under the best matching.
#ifndef ENVPOOL_MPE2_SCENARIOS_SIMPLE_LINE_H_
#define ENVPOOL_MPE2_SCENARIOS_SIMPLE_LINE_H_

#include <cmath>
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

class SimpleLineScenario : public SlotScenario {
 public:
  static constexpr double kTotalSeparation = 1.25;

  explicit SimpleLineScenario(const Config& config)
      : SlotScenario(config, /*agent_size=*/0.03, /*num_landmarks=*/2,
                     /*landmark_size=*/0.02) {}

  void ResetWorld(World& world, NumpyRandom& rng) {
    ResetAgents(world, rng);
    Entity& first = world.landmark(0);
    first.pos = UniformVec2(rng, -0.25, 0.25);
    first.vel = {0.0, 0.0};
    // the second landmark kTotalSeparation away in a random direction, turned
    // by 5 degrees at a time until it lies inside the unit square
    double theta = rng.Uniform(0, 2 * std::numbers::pi);
    Vec2 direction{};
    Vec2 loc{};
    auto aim = [&] {
      direction = {NpCos(theta), NpSin(theta)};
      loc = {first.pos[0] + kTotalSeparation * direction[0],
             first.pos[1] + kTotalSeparation * direction[1]};
    };
    aim();
    while (!(std::abs(loc[0]) < 1.0 && std::abs(loc[1]) < 1.0)) {
      theta += 5 * (std::numbers::pi / 180.0);  // np.radians(5)
      aim();
    }
    world.landmark(1).pos = loc;
    world.landmark(1).vel = {0.0, 0.0};
    const double separation =
        n_ > 1 ? kTotalSeparation / static_cast<double>(n_ - 1) : 0.0;
    slots_.resize(world.num_agents);
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      const double along = static_cast<double>(i) * separation;
      slots_[i] = {first.pos[0] + along * direction[0],
                   first.pos[1] + along * direction[1]};
    }
  }

  double GlobalReward(const World& world) {
    return matching_.Match(world, slots_);
  }

 private:
  std::vector<Vec2> slots_;
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_SIMPLE_LINE_H_
