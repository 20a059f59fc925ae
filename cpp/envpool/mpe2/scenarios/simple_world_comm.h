// mpe2's simple_world_comm (simple_world_comm_v3): simple_tag with food the
// good agents collect, forests that hide whoever is inside, and a leader
// adversary that sees everyone and speaks to the other adversaries.
#ifndef ENVPOOL_MPE2_SCENARIOS_SIMPLE_WORLD_COMM_H_
#define ENVPOOL_MPE2_SCENARIOS_SIMPLE_WORLD_COMM_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/config.h"
#include "envpool/mpe2/scenarios/common.h"
#include "envpool/mpe2/world.h"
#include "envpool/numpy/random.h"

namespace envpool::mpe2 {

class SimpleWorldCommScenario {
 public:
  static Config DefaultConfig() {
    return {{"num_good", std::int64_t{2}},
            {"num_adversaries", std::int64_t{4}},
            {"num_obstacles", std::int64_t{1}},
            {"num_food", std::int64_t{2}},
            {"num_forests", std::int64_t{2}}};
  }

  explicit SimpleWorldCommScenario(const Config& config)
      : num_good_(Count(config, "num_good", 1)),
        num_adversaries_(Count(config, "num_adversaries", 1)),
        num_obstacles_(Count(config, "num_obstacles", 0)),
        num_food_(Count(config, "num_food", 1)),
        num_forests_(Count(config, "num_forests", 0)) {}

  [[nodiscard]] World MakeWorld() const {
    World world;
    world.dim_c = 4;
    world.num_agents = num_adversaries_ + num_good_;
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      const bool adversary = IsAdversary(i);
      std::string name;
      if (i == 0) {
        name = "leadadversary_0";
      } else if (adversary) {
        name = "adversary_" + std::to_string(i - 1);
      } else {
        name = "agent_" + std::to_string(i - num_adversaries_);
      }
      AddAgent(world, name,
               {.size = adversary ? 0.075 : 0.045,
                .silent = i > 0,
                .accel = adversary ? 3.0 : 4.0,
                .max_speed = adversary ? 1.0 : 1.3});
    }
    // world.landmarks: the obstacles, then the food, then the forests
    AddLandmarks(world, "landmark ", num_obstacles_, {.size = 0.2});
    AddLandmarks(world, "food ", num_food_, {.size = 0.03, .collide = false});
    AddLandmarks(world, "forest ", num_forests_,
                 {.size = 0.3, .collide = false});
    return world;
  }

  void ResetWorld(World& world, NumpyRandom& rng) const {
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      std::vector<double>& color = world.agent(i).color;
      color = IsAdversary(i) ? std::vector<double>{0.95, 0.45, 0.45}
                             : std::vector<double>{0.45, 0.95, 0.45};
      for (double& v : color) {
        v -= i == 0 ? 0.3 : 0.0;
      }
    }
    for (std::size_t i = 0; i < world.num_landmarks(); ++i) {
      world.landmark(i).color = {0.25, 0.25, 0.25};
    }
    for (std::size_t i = 0; i < num_food_; ++i) {
      Food(world, i).color = {0.15, 0.15, 0.65};
    }
    for (std::size_t i = 0; i < num_forests_; ++i) {
      Forest(world, i).color = {0.6, 0.9, 0.6};
    }
    // every landmark (food and forests too) is placed, then the food and the
    // forests again
    PlaceEntities(world, rng, 0.9);
    for (std::size_t i = 0; i < num_food_; ++i) {
      Food(world, i).pos = UniformVec2(rng, -0.9, +0.9);
    }
    for (std::size_t i = 0; i < num_forests_; ++i) {
      Forest(world, i).pos = UniformVec2(rng, -0.9, +0.9);
    }
  }

  [[nodiscard]] double Reward(std::size_t agent, const World& world) const {
    const Entity& self = world.agent(agent);
    double reward = 0.0;
    if (IsAdversary(agent)) {
      reward -= 0.1 * NearestDistance(world, self, [this](std::size_t i) {
                  return !IsAdversary(i);
                });
      if (self.collide) {
        for (std::size_t g = num_adversaries_; g < world.num_agents; ++g) {
          for (std::size_t a = 0; a < num_adversaries_; ++a) {
            if (IsCollision(world.agent(g), world.agent(a))) {
              reward += 5;
            }
          }
        }
      }
      return reward;
    }
    if (self.collide) {
      for (std::size_t a = 0; a < num_adversaries_; ++a) {
        if (IsCollision(world.agent(a), self)) {
          reward -= 5;
        }
      }
    }
    for (double p : self.pos) {
      reward -= 2 * OutOfBoundsPenalty(std::abs(p));
    }
    double nearest_food = 0.0;
    for (std::size_t i = 0; i < num_food_; ++i) {
      const Entity& food = Food(world, i);
      if (IsCollision(self, food)) {
        reward += 2;
      }
      const double d = World::Distance(food, self);
      nearest_food = i == 0 || d < nearest_food ? d : nearest_food;
    }
    reward -= 0.05 * nearest_food;
    return reward;
  }

  void Observe(std::size_t agent, const World& world,
               std::vector<double>& obs) const {
    const Entity& self = world.agent(agent);
    std::vector<bool> self_in(num_forests_);
    bool self_hidden = false;
    for (std::size_t f = 0; f < num_forests_; ++f) {
      self_in[f] = IsCollision(self, Forest(world, f));
      self_hidden = self_hidden || self_in[f];
    }
    // other agents, seen unless a forest hides one of the two from the other
    std::vector<double> other_pos;
    std::vector<double> other_vel;
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      if (i == agent) {
        continue;
      }
      const Entity& other = world.agent(i);
      bool same_forest = false;
      bool other_hidden = false;
      for (std::size_t f = 0; f < num_forests_; ++f) {
        const bool other_in = IsCollision(other, Forest(world, f));
        same_forest = same_forest || (self_in[f] && other_in);
        other_hidden = other_hidden || other_in;
      }
      const bool seen =
          same_forest || (!self_hidden && !other_hidden) || agent == 0;
      if (seen) {
        Append(other_pos, Relative(other, self));
      } else {
        Append(other_pos, Vec2{0.0, 0.0});
      }
      if (!IsAdversary(i)) {
        Append(other_vel, seen ? other.vel : Vec2{0.0, 0.0});
      }
    }
    Append(obs, self.vel);
    Append(obs, self.pos);
    AppendLandmarksSeenBy(obs, world, self);
    Append(obs, other_pos);
    if (IsAdversary(agent)) {
      Append(obs, other_vel);
      AppendInForest(obs, self_in);
      Append(obs, world.agent(0).c);
    } else {
      AppendInForest(obs, self_in);
      Append(obs, other_vel);
    }
  }

 private:
  static std::size_t Count(const Config& config, const char* name,
                           std::int64_t least) {
    const auto n = config.Get<std::int64_t>(name);
    if (n < least) {
      throw std::invalid_argument(std::string(name) + " must be at least " +
                                  std::to_string(least));
    }
    return static_cast<std::size_t>(n);
  }

  static void AppendInForest(std::vector<double>& obs,
                             const std::vector<bool>& in) {
    for (bool inside : in) {
      obs.push_back(inside ? 1.0 : -1.0);
    }
  }

  [[nodiscard]] bool IsAdversary(std::size_t agent) const {
    return agent < num_adversaries_;
  }
  [[nodiscard]] Entity& Food(World& world, std::size_t i) const {
    return world.landmark(num_obstacles_ + i);
  }
  [[nodiscard]] const Entity& Food(const World& world, std::size_t i) const {
    return world.landmark(num_obstacles_ + i);
  }
  [[nodiscard]] Entity& Forest(World& world, std::size_t i) const {
    return world.landmark(num_obstacles_ + num_food_ + i);
  }
  [[nodiscard]] const Entity& Forest(const World& world, std::size_t i) const {
    return world.landmark(num_obstacles_ + num_food_ + i);
  }

  std::size_t num_good_;
  std::size_t num_adversaries_;
  std::size_t num_obstacles_;
  std::size_t num_food_;
  std::size_t num_forests_;
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_SIMPLE_WORLD_COMM_H_
