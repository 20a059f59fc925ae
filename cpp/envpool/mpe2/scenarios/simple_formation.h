// mpe2's simple_formation (simple_formation_v1): N agents form a circle of
// radius 0.5 around a landmark, its slots anchored at the angle of the agent
// with the smallest angle; a shared reward from the best matching to them.
#ifndef ENVPOOL_MPE2_SCENARIOS_SIMPLE_FORMATION_H_
#define ENVPOOL_MPE2_SCENARIOS_SIMPLE_FORMATION_H_

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
#include "envpool/numpy/binary_ufuncs.h"
#include "envpool/numpy/random.h"
#include "envpool/numpy/ufuncs.h"

namespace envpool::mpe2 {

class SimpleFormationScenario {
 public:
  static constexpr double kLocalRatio = SlotMatching::kLocalRatio;
  static constexpr double kTargetRadius = 0.5;

  static Config DefaultConfig() {
    return {{"N", std::int64_t{4}}, {"terminate_on_success", false}};
  }

  explicit SimpleFormationScenario(const Config& config)
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
      agent.size = 0.05;
      world.entities.push_back(agent);
    }
    Entity landmark = MakeLandmark("landmark_0");
    landmark.collide = false;
    landmark.size = 0.03;
    world.entities.push_back(landmark);
    return world;
  }

  void ResetWorld(World& world, NumpyRandom& rng) {
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      world.agent(i).color = {0.35, 0.35, 0.85};
    }
    world.landmark(0).color = {0.25, 0.25, 0.25};
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      Entity& agent = world.agent(i);
      agent.pos = UniformVec2(rng, -1, 1);
      agent.vel = {0.0, 0.0};
      agent.c.clear();
    }
    world.landmark(0).pos = UniformVec2(rng, -0.5, 0.5);
    world.landmark(0).vel = {0.0, 0.0};
    matching_.Forget();
  }

  [[nodiscard]] double Reward(std::size_t /*agent*/,
                              const World& /*world*/) const {
    return 0.0;
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

  void Observe(std::size_t agent, const World& world,
               std::vector<double>& obs) const {
    const Entity& self = world.agent(agent);
    Append(obs, self.vel);
    Append(obs, self.pos);
    Append(obs, Relative(world.landmark(0), self));
  }

  [[nodiscard]] bool IsTerminal(const World& /*world*/) const {
    return terminate_on_success_ && matching_.AllWithinThreshold();
  }

 private:
  std::int64_t n_;
  bool terminate_on_success_;
  SlotMatching matching_;
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_SIMPLE_FORMATION_H_
