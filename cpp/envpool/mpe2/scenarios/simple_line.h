// mpe2's simple_line (simple_line_v1): N agents spread evenly on the segment
// between two landmarks; a shared reward, the mean distance of the agents to
// their slots on the line under the best matching.
#ifndef ENVPOOL_MPE2_SCENARIOS_SIMPLE_LINE_H_
#define ENVPOOL_MPE2_SCENARIOS_SIMPLE_LINE_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/config.h"
#include "envpool/mpe2/scenarios/common.h"
#include "envpool/mpe2/scenarios/slot_matching.h"
#include "envpool/mpe2/world.h"
#include "envpool/numpy/random.h"
#include "envpool/numpy/ufuncs.h"

namespace envpool::mpe2 {

class SimpleLineScenario {
 public:
  static constexpr double kLocalRatio = SlotMatching::kLocalRatio;
  static constexpr double kTotalSeparation = 1.25;

  static Config DefaultConfig() {
    return {{"N", std::int64_t{4}}, {"terminate_on_success", false}};
  }

  explicit SimpleLineScenario(const Config& config)
      : n_(config.Get<std::int64_t>("N")),
        terminate_on_success_(config.Get<bool>("terminate_on_success")) {
    if (n_ < 1) {
      throw std::invalid_argument("N must be at least 1");
    }
  }

  [[nodiscard]] World MakeWorld() const {
    World world;
    world.num_agents = static_cast<std::size_t>(n_);
    for (std::int64_t i = 0; i < n_; ++i) {
      Entity agent = MakeAgent("agent_" + std::to_string(i));
      agent.silent = true;
      agent.size = 0.03;
      world.entities.push_back(agent);
    }
    for (int i = 0; i < 2; ++i) {
      Entity landmark = MakeLandmark("landmark_" + std::to_string(i));
      landmark.collide = false;
      landmark.size = 0.02;
      world.entities.push_back(landmark);
    }
    return world;
  }

  void ResetWorld(World& world, NumpyRandom& rng) {
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      world.agent(i).color = {0.35, 0.35, 0.85};
    }
    for (std::size_t i = 0; i < world.num_landmarks(); ++i) {
      world.landmark(i).color = {0.25, 0.25, 0.25};
    }
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      Entity& agent = world.agent(i);
      agent.pos = UniformVec2(rng, -1, 1);
      agent.vel = {0.0, 0.0};
      agent.c.clear();
    }
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
    matching_.Forget();
  }

  [[nodiscard]] double Reward(std::size_t /*agent*/,
                              const World& /*world*/) const {
    return 0.0;
  }

  double GlobalReward(const World& world) {
    return matching_.Match(world, slots_);
  }

  void Observe(std::size_t agent, const World& world,
               std::vector<double>& obs) const {
    const Entity& self = world.agent(agent);
    Append(obs, self.vel);
    Append(obs, self.pos);
    AppendLandmarksSeenBy(obs, world, self);
  }

  [[nodiscard]] bool IsTerminal(const World& /*world*/) const {
    return terminate_on_success_ && matching_.AllWithinThreshold();
  }

 private:
  std::int64_t n_;
  bool terminate_on_success_;
  std::vector<Vec2> slots_;
  SlotMatching matching_;
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_SIMPLE_LINE_H_
