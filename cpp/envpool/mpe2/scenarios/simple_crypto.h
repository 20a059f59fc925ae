// mpe2's simple_crypto (simple_crypto_v3): alice sends bob a goal code
// encrypted with a key they share; eve listens and tries to decode it.
// Nobody moves: only the utterances matter.
#ifndef ENVPOOL_MPE2_SCENARIOS_SIMPLE_CRYPTO_H_
#define ENVPOOL_MPE2_SCENARIOS_SIMPLE_CRYPTO_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "envpool/mpe2/scenarios/common.h"
#include "envpool/mpe2/world.h"
#include "envpool/numpy/random.h"
#include "envpool/numpy/sum.h"

namespace envpool::mpe2 {

class SimpleCryptoScenario {
 public:
  static constexpr std::size_t kEve = 0;
  static constexpr std::size_t kBob = 1;
  static constexpr std::size_t kAlice = 2;

  [[nodiscard]] World MakeWorld() const {
    World world;
    world.dim_c = 4;
    AddAgents(world, {"eve_0", "bob_0", "alice_0"},
              {.movable = false, .collide = false});
    AddLandmarks(world, "landmark ", 2, {.collide = false});
    return world;
  }

  void ResetWorld(World& world, NumpyRandom& rng) {
    world.agent(kEve).color = {0.75, 0.25, 0.25};
    world.agent(kAlice).color = {0.25, 0.25, 0.25};
    // each landmark's colour is a one-hot code of dim_c
    for (std::size_t i = 0; i < world.num_landmarks(); ++i) {
      std::vector<double>& code = world.landmark(i).color;
      code.assign(static_cast<std::size_t>(world.dim_c), 0.0);
      code[i] += 1;
    }
    const auto num_landmarks = static_cast<std::int64_t>(world.num_landmarks());
    goal_ = static_cast<std::size_t>(rng.Integers(0, num_landmarks));
    world.agent(kBob).color = world.landmark(goal_).color;
    key_ = static_cast<std::size_t>(rng.Integers(0, num_landmarks));
    PlaceEntities(world, rng);
  }

  [[nodiscard]] double Reward(std::size_t agent, const World& world) const {
    if (agent == kEve) {
      double reward = 0.0;
      if (Spoke(world.agent(kEve))) {
        reward -= Miss(world, kEve);
      }
      return reward;
    }
    double good = 0.0;
    double adversary = 0.0;
    if (Spoke(world.agent(kBob))) {
      good -= Miss(world, kBob);
    }
    if (Spoke(world.agent(kEve))) {
      adversary += Miss(world, kEve);
    }
    return adversary + good;
  }

  void Observe(std::size_t agent, const World& world,
               std::vector<double>& obs) const {
    const std::vector<double>& key = world.landmark(key_).color;
    if (agent == kAlice) {
      Append(obs, world.landmark(goal_).color);
      Append(obs, key);
      return;
    }
    if (agent == kBob) {
      Append(obs, key);
    }
    Append(obs, world.agent(kAlice).c);
  }

 private:
  // Whether the agent's utterance is not all zeros.
  static bool Spoke(const Entity& agent) {
    for (double v : agent.c) {
      if (v != 0.0) {
        return true;
      }
    }
    return false;
  }

  // np.sum(np.square(c - goal colour)) for agent i's utterance c.
  [[nodiscard]] double Miss(const World& world, std::size_t i) const {
    const std::vector<double>& c = world.agent(i).c;
    const std::vector<double>& goal = world.landmark(goal_).color;
    std::vector<double> diff(c.size());
    for (std::size_t k = 0; k < c.size(); ++k) {
      diff[k] = c[k] - goal[k];
    }
    return NumpySumOfSquares(diff.data(), diff.size());
  }

  std::size_t goal_ = 0;
  std::size_t key_ = 0;
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_SIMPLE_CRYPTO_H_
