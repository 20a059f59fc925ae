// What simple_line and simple_formation share besides the slot matching: N
// silent agents and landmarks that do not collide, built and reset alike,
// observations of the agent's own motion and the landmarks, and only the
// shared reward (the matching's) counting.
#ifndef ENVPOOL_MPE2_SCENARIOS_SLOT_SCENARIO_H_
#define ENVPOOL_MPE2_SCENARIOS_SLOT_SCENARIO_H_

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/config.h"
#include "envpool/mpe2/scenarios/common.h"
#include "envpool/mpe2/scenarios/slot_matching.h"
#include "envpool/mpe2/world.h"
#include "envpool/numpy/random.h"

namespace envpool::mpe2 {

class SlotScenario {
 public:
  static constexpr double kLocalRatio = SlotMatching::kLocalRatio;

  static Config DefaultConfig() {
    return {{"N", std::int64_t{4}}, {"terminate_on_success", false}};
  }

  [[nodiscard]] World MakeWorld() const {
    World world;
    world.num_agents = static_cast<std::size_t>(n_);
    for (std::int64_t i = 0; i < n_; ++i) {
      AddAgent(world, "agent_" + std::to_string(i),
               {.size = agent_size_, .silent = true});
    }
    AddLandmarks(world, "landmark_", num_landmarks_,
                 {.size = landmark_size_, .collide = false});
    return world;
  }

  [[nodiscard]] double Reward(std::size_t /*agent*/,
                              const World& /*world*/) const {
    return 0.0;
  }

  void Observe(std::size_t agent, const World& world,
               std::vector<double>& obs) const {
    const Entity& self = world.agent(agent);
    AppendOwnMotion(obs, self);
    AppendLandmarksSeenBy(obs, world, self);
  }

  [[nodiscard]] bool IsTerminal(const World& /*world*/) const {
    return terminate_on_success_ && matching_.AllWithinThreshold();
  }

 protected:
  SlotScenario(const Config& config, double agent_size,
               std::size_t num_landmarks, double landmark_size)
      : n_(config.Get<std::int64_t>("N")),
        terminate_on_success_(config.Get<bool>("terminate_on_success")),
        agent_size_(agent_size),
        num_landmarks_(num_landmarks),
        landmark_size_(landmark_size) {
    if (n_ < 1) {
      throw std::invalid_argument("N must be at least 1");
    }
  }

  // reset_world's start: the colours, then every agent at
  // np_random.uniform(-1, 1, 2), at rest and silent; forgets the last match.
  void ResetAgents(World& world, NumpyRandom& rng) {
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
    matching_.Forget();
  }

  std::int64_t n_;
  SlotMatching matching_;

 private:
  bool terminate_on_success_;
  double agent_size_;
  std::size_t num_landmarks_;
  double landmark_size_;
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_SLOT_SCENARIO_H_
