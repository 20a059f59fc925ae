// mpe2's simple_speaker_listener (simple_speaker_listener_v4): an immobile
// speaker sees the goal landmark's colour and tells a listener, who cannot
// speak, where to go; both are rewarded by the listener's distance to it.
#ifndef ENVPOOL_MPE2_SCENARIOS_SIMPLE_SPEAKER_LISTENER_H_
#define ENVPOOL_MPE2_SCENARIOS_SIMPLE_SPEAKER_LISTENER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "envpool/mpe2/scenarios/common.h"
#include "envpool/mpe2/world.h"
#include "envpool/numpy/random.h"

namespace envpool::mpe2 {

class SimpleSpeakerListenerScenario {
 public:
  static constexpr std::size_t kSpeaker = 0;
  static constexpr std::size_t kListener = 1;

  [[nodiscard]] World MakeWorld() const {
    World world;
    world.dim_c = 3;
    AddAgents(world, {"speaker_0", "listener_0"},
              {.size = 0.075, .collide = false});
    world.agent(kSpeaker).movable = false;
    world.agent(kListener).silent = true;
    AddLandmarks(world, "landmark ", 3, {.size = 0.04, .collide = false});
    return world;
  }

  void ResetWorld(World& world, NumpyRandom& rng) {
    goal_ = static_cast<std::size_t>(
        rng.Integers(0, static_cast<std::int64_t>(world.num_landmarks())));
    for (std::size_t i = 0; i < world.num_agents; ++i) {
      world.agent(i).color = {0.25, 0.25, 0.25};
    }
    world.landmark(0).color = {0.65, 0.15, 0.15};
    world.landmark(1).color = {0.15, 0.65, 0.15};
    world.landmark(2).color = {0.15, 0.15, 0.65};
    std::vector<double>& listener = world.agent(kListener).color;
    listener = world.landmark(goal_).color;
    for (double& v : listener) {
      v = v + 0.45;
    }
    PlaceEntities(world, rng);
  }

  [[nodiscard]] double Reward(std::size_t /*agent*/, const World& world) const {
    return -World::SquaredDistance(world.agent(kListener),
                                   world.landmark(goal_));
  }

  void Observe(std::size_t agent, const World& world,
               std::vector<double>& obs) const {
    if (agent == kSpeaker) {
      Append(obs, world.landmark(goal_).color);
      return;
    }
    const Entity& self = world.agent(agent);
    Append(obs, self.vel);
    AppendLandmarksSeenBy(obs, world, self);
    Append(obs, world.agent(kSpeaker).c);
  }

 private:
  std::size_t goal_ = 0;
};

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_SIMPLE_SPEAKER_LISTENER_H_
