// mpe2's simple_tag (simple_tag_v3): slower adversaries chase faster good
// agents among obstacles; adversaries earn 10 per catch, a good agent loses
// 10 per catch and is fenced in by a penalty for leaving the unit square.
#ifndef ENVPOOL_MPE2_SCENARIOS_SIMPLE_TAG_H_
#define ENVPOOL_MPE2_SCENARIOS_SIMPLE_TAG_H_

#include <cmath>
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

class SimpleTagScenario {
 public:
  // Curriculum stage 0 slows the good agents to this fraction.
  static constexpr double kPreySpeedFactor = 0.5;

  static Config DefaultConfig() {
    return Neighbors::WithOptions({{"num_good", std::int64_t{1}},
                                   {"num_adversaries", std::int64_t{3}},
                                   {"num_obstacles", std::int64_t{2}},
                                   {"curriculum", false},
                                   {"terminate_on_success", false}});
  }

  explicit SimpleTagScenario(const Config& config)
      : num_good_(config.Get<std::int64_t>("num_good")),
        num_adversaries_(config.Get<std::int64_t>("num_adversaries")),
        num_obstacles_(config.Get<std::int64_t>("num_obstacles")),
        curriculum_(config.Get<bool>("curriculum")),
        terminate_on_success_(config.Get<bool>("terminate_on_success")),
        neighbors_(Neighbors::FromConfig(config)) {
    if (num_good_ < 0 || num_adversaries_ < 0 || num_obstacles_ < 0 ||
        num_good_ + num_adversaries_ < 1) {
      throw std::invalid_argument(
          "num_good, num_adversaries and num_obstacles must be >= 0, with at "
          "least one agent");
    }
  }

  [[nodiscard]] World MakeWorld() const {
    World world;
    world.dim_c = 2;
    world.num_agents = static_cast<std::size_t>(num_adversaries_ + num_good_);
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      const bool adversary = IsAdversary(i);
      AddAgent(world,
               adversary ? "adversary_" + std::to_string(i)
                         : "agent_" + std::to_string(i - Adversaries()),
               {.size = adversary ? 0.075 : 0.05,
                .silent = true,
                .accel = adversary ? 3.0 : 4.0,
                .max_speed = adversary ? 1.0 : 1.3});
    }
    AddLandmarks(world, "landmark ", static_cast<std::size_t>(num_obstacles_),
                 {.size = 0.2});
    return world;
  }

  void ResetWorld(World& world, NumpyRandom& rng) const {
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      world.agent(i).color = IsAdversary(i)
                                 ? std::vector<double>{0.85, 0.35, 0.35}
                                 : std::vector<double>{0.35, 0.85, 0.35};
    }
    for (std::size_t i = 0; i < world.num_landmarks(); ++i) {
      world.landmark(i).color = {0.25, 0.25, 0.25};
    }
    PlaceEntities(world, rng, 0.9);
    if (curriculum_) {
      for (std::size_t i = 0; i < world.num_agents; ++i) {
        if (!IsAdversary(i)) {
          world.agent(i).max_speed = 1.3 * kPreySpeedFactor;
          world.agent(i).accel = 4.0 * kPreySpeedFactor;
        }
      }
    }
  }

  [[nodiscard]] double Reward(std::size_t agent, const World& world) const {
    const Entity& self = world.agent(agent);
    double reward = 0.0;
    if (IsAdversary(agent)) {
      if (self.collide) {
        for (std::size_t g = Adversaries(); g < world.num_agents; ++g) {
          for (std::size_t a = 0; a < Adversaries(); ++a) {
            if (IsCollision(world.agent(g), world.agent(a))) {
              reward += 10;
            }
          }
        }
      }
      return reward;
    }
    if (self.collide) {
      for (std::size_t a = 0; a < Adversaries(); ++a) {
        if (IsCollision(world.agent(a), self)) {
          reward -= 10;
        }
      }
    }
    for (double p : self.pos) {
      reward -= OutOfBoundsPenalty(std::abs(p));
    }
    return reward;
  }

  void Observe(std::size_t agent, const World& world,
               std::vector<double>& obs) const {
    // the good agents' velocities (an adversary's slot holds zeros)
    AppendSurroundingsNear(obs, world, agent, neighbors_, Adversaries(),
                           &Entity::vel, 2);
  }

  // With terminate_on_success: every good agent touches an adversary.
  [[nodiscard]] bool IsTerminal(const World& world) const {
    if (!terminate_on_success_) {
      return false;
    }
    for (std::size_t g = Adversaries(); g < world.num_agents; ++g) {
      bool caught = false;
      for (std::size_t a = 0; a < Adversaries() && !caught; ++a) {
        caught = IsCollision(world.agent(g), world.agent(a));
      }
      if (!caught) {
        return false;
      }
    }
    return true;
  }

 private:
  [[nodiscard]] std::size_t Adversaries() const {
    return static_cast<std::size_t>(num_adversaries_);
  }
  [[nodiscard]] bool IsAdversary(std::size_t agent) const {
    return agent < Adversaries();
  }

  std::int64_t num_good_;
  std::int64_t num_adversaries_;
  std::int64_t num_obstacles_;
  bool curriculum_;
  bool terminate_on_success_;
  Neighbors neighbors_;
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_SIMPLE_TAG_H_
