// The partial-observability options of simple_adversary, simple_spread and
// simple_tag (num_agent_neighbors, num_landmark_neighbors): each agent sees
// only the k other agents / landmarks nearest to it, in the slots of a
// zero-padded observation of fixed size (mpe2/_mpe_utils/
// partial_observability.py).
#ifndef ENVPOOL_MPE2_SCENARIOS_NEIGHBORS_H_
#define ENVPOOL_MPE2_SCENARIOS_NEIGHBORS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/config.h"
#include "envpool/mpe2/scenarios/common.h"
#include "envpool/mpe2/world.h"
#include "envpool/numpy/linalg.h"
#include "envpool/numpy/sort.h"

namespace envpool::mpe2 {

// How many other agents and landmarks an agent observes; 0 stands for mpe2's
// None, every one of them in the order of the world.
struct Neighbors {
  std::size_t agents = 0;
  std::size_t landmarks = 0;

  // The options with their default, None (envpool.families.mpe2.tasks turns
  // None into 0 and refuses 0 and other values mpe2 refuses).
  static Config WithOptions(Config config) {
    config.Set("num_agent_neighbors", std::int64_t{0});
    config.Set("num_landmark_neighbors", std::int64_t{0});
    return config;
  }

  static Neighbors FromConfig(const Config& config) {
    return {Read(config, "num_agent_neighbors"),
            Read(config, "num_landmark_neighbors")};
  }

 private:
  static std::size_t Read(const Config& config, const std::string& name) {
    const auto k = config.Get<std::int64_t>(name);
    if (k < 0) {
      throw std::invalid_argument(name +
                                  " must be a positive integer or None.");
    }
    return static_cast<std::size_t>(k);
  }
};

// mpe2's nearest_entities: the indices of the first k of `count` entities
// (entity_at(i) the i-th), ordered by np.argsort of their np.linalg.norm
// distances to `self`.
template <typename EntityAt>
std::vector<std::size_t> NearestOf(const Entity& self, std::size_t count,
                                   EntityAt entity_at, std::size_t k) {
  std::vector<double> distances(count);
  for (std::size_t i = 0; i < count; ++i) {
    distances[i] = NpNorm(Relative(entity_at(i), self));
  }
  std::vector<std::ptrdiff_t> order(count);
  NpArgsort(distances, order);
  order.resize(std::min(k, count));
  return std::vector<std::size_t>(order.begin(), order.end());
}

// The k landmarks nearest to `self`, nearest first.
inline std::vector<std::size_t> NearestLandmarks(const World& world,
                                                 const Entity& self,
                                                 std::size_t k) {
  return NearestOf(
      self, world.num_landmarks(),
      [&world](std::size_t l) -> const Entity& { return world.landmark(l); },
      k);
}

// The k agents other than `agent` nearest to it, nearest first.
inline std::vector<std::size_t> NearestOtherAgents(const World& world,
                                                   std::size_t agent,
                                                   std::size_t k) {
  auto other = [agent](std::size_t j) { return j < agent ? j : j + 1; };
  std::vector<std::size_t> nearest = NearestOf(
      world.agent(agent), world.num_agents - 1,
      [&](std::size_t j) -> const Entity& { return world.agent(other(j)); }, k);
  for (std::size_t& i : nearest) {
    i = other(i);
  }
  return nearest;
}

// Zeros for the slots of k after the `filled` ones, `width` values each.
inline void AppendPadding(std::vector<double>& obs, std::size_t filled,
                          std::size_t k, std::size_t width) {
  if (filled < k) {
    obs.insert(obs.end(), (k - filled) * width, 0.0);
  }
}

// padded_relative_positions of the landmarks: every landmark relative to
// `self` (k = 0), else the k nearest, zero-padded to k slots.
inline void AppendLandmarksNear(std::vector<double>& obs, const World& world,
                                const Entity& self, std::size_t k) {
  if (k == 0) {
    AppendLandmarksSeenBy(obs, world, self);
    return;
  }
  const std::vector<std::size_t> nearest = NearestLandmarks(world, self, k);
  for (std::size_t l : nearest) {
    Append(obs, Relative(world.landmark(l), self));
  }
  AppendPadding(obs, nearest.size(), k, 2);
}

// The relative positions of `agents` (other agents, nearest first) seen by
// agent `agent`, zero-padded to k slots.
inline void AppendAgentsNear(std::vector<double>& obs, const World& world,
                             std::size_t agent,
                             const std::vector<std::size_t>& agents,
                             std::size_t k) {
  for (std::size_t i : agents) {
    Append(obs, Relative(world.agent(i), world.agent(agent)));
  }
  AppendPadding(obs, agents.size(), k, 2);
}

// simple_spread's and simple_tag's observation: AppendSurroundings, then the
// `field` (`width` values) of every other agent from `first` on. Under the
// options, the nearest landmarks and other agents in their slots, and the
// field in the other agents' slots (padded_comms, padded_velocities), zeros
// for an agent before `first`.
template <typename Field>
void AppendSurroundingsNear(std::vector<double>& obs, const World& world,
                            std::size_t agent, const Neighbors& neighbors,
                            std::size_t first, Field Entity::* field,
                            std::size_t width) {
  if (neighbors.agents == 0 && neighbors.landmarks == 0) {
    AppendSurroundings(obs, world, agent);
    AppendFieldOfOthers(obs, world, agent, first, field);
    return;
  }
  const Entity& self = world.agent(agent);
  AppendOwnMotion(obs, self);
  AppendLandmarksNear(obs, world, self, neighbors.landmarks);
  if (neighbors.agents == 0) {
    AppendOthersSeenBy(obs, world, agent);
    AppendFieldOfOthers(obs, world, agent, first, field);
    return;
  }
  const std::vector<std::size_t> nearest =
      NearestOtherAgents(world, agent, neighbors.agents);
  AppendAgentsNear(obs, world, agent, nearest, neighbors.agents);
  for (std::size_t i : nearest) {
    if (i < first) {
      AppendPadding(obs, 0, 1, width);
    } else {
      Append(obs, world.agent(i).*field);
    }
  }
  AppendPadding(obs, nearest.size(), neighbors.agents, width);
}

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_NEIGHBORS_H_
