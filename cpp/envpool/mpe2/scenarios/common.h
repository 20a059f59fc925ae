// What the scenarios share: building agents and landmarks, placing them, and
// composing observations (np.concatenate of float64 pieces).
#ifndef ENVPOOL_MPE2_SCENARIOS_COMMON_H_
#define ENVPOOL_MPE2_SCENARIOS_COMMON_H_

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "envpool/mpe2/world.h"
#include "envpool/numpy/random.h"
#include "envpool/numpy/ufuncs.h"

namespace envpool::mpe2 {

// Appends a 2-vector to an observation.
inline void Append(std::vector<double>& obs, const Vec2& v) {
  obs.push_back(v[0]);
  obs.push_back(v[1]);
}

// b.pos - a.pos: b's position in a's frame.
inline Vec2 Relative(const Entity& b, const Entity& a) {
  return Vec2{b.pos[0] - a.pos[0], b.pos[1] - a.pos[1]};
}

// Agent() and Landmark() of core.py, named.
inline Entity MakeAgent(std::string name) {
  Entity agent;
  agent.name = std::move(name);
  agent.movable = true;
  return agent;
}
inline Entity MakeLandmark(std::string name) {
  Entity landmark;
  landmark.name = std::move(name);
  return landmark;
}

// The attributes a scenario sets on the agents and landmarks it builds (the
// rest keep Entity's defaults, those of core.py).
struct Body {
  double size = 0.05;
  bool movable = true;  // agents only
  bool collide = true;
  bool silent = false;
  std::optional<double> accel = std::nullopt;
  std::optional<double> max_speed = std::nullopt;
};

// Appends an agent `name` with `body` to the world's entities (the caller
// counts it in num_agents); returns it for further settings.
inline Entity& AddAgent(World& world, std::string name, const Body& body) {
  Entity agent = MakeAgent(std::move(name));
  agent.size = body.size;
  agent.movable = body.movable;
  agent.collide = body.collide;
  agent.silent = body.silent;
  agent.accel = body.accel;
  agent.max_speed = body.max_speed;
  return world.entities.emplace_back(std::move(agent));
}

// Appends an agent with `body` for each of `names` and counts them in
// num_agents.
inline void AddAgents(World& world, std::initializer_list<const char*> names,
                      const Body& body) {
  for (const char* name : names) {
    AddAgent(world, name, body);
  }
  world.num_agents += names.size();
}

// Appends `count` landmarks named prefix + index with `body`.
inline void AddLandmarks(World& world, const std::string& prefix,
                         std::size_t count, const Body& body) {
  for (std::size_t i = 0; i < count; ++i) {
    Entity landmark = MakeLandmark(prefix + std::to_string(i));
    landmark.size = body.size;
    landmark.collide = body.collide;
    world.entities.push_back(std::move(landmark));
  }
}

// An agent's own velocity then position, the start of most observations.
inline void AppendOwnMotion(std::vector<double>& obs, const Entity& self) {
  Append(obs, self.vel);
  Append(obs, self.pos);
}

// np_random.uniform(low, high, 2).
inline Vec2 UniformVec2(NumpyRandom& rng, double low, double high) {
  const double x = rng.Uniform(low, high);
  return Vec2{x, rng.Uniform(low, high)};
}

// Every landmark's position relative to `self`, in order.
inline void AppendLandmarksSeenBy(std::vector<double>& obs, const World& world,
                                  const Entity& self) {
  for (std::size_t l = 0; l < world.num_landmarks(); ++l) {
    Append(obs, Relative(world.landmark(l), self));
  }
}

// Every other agent's position relative to agent `agent`, in order.
inline void AppendOthersSeenBy(std::vector<double>& obs, const World& world,
                               std::size_t agent) {
  for (std::size_t i = 0; i < world.num_agents; ++i) {
    if (i != agent) {
      Append(obs, Relative(world.agent(i), world.agent(agent)));
    }
  }
}

// Appends a vector (a colour, an utterance) to an observation.
inline void Append(std::vector<double>& obs, const std::vector<double>& v) {
  obs.insert(obs.end(), v.begin(), v.end());
}

// The start of simple_spread's and simple_tag's observations: agent `agent`'s
// own velocity and position, then every landmark and every other agent
// relative to it.
inline void AppendSurroundings(std::vector<double>& obs, const World& world,
                               std::size_t agent) {
  const Entity& self = world.agent(agent);
  AppendOwnMotion(obs, self);
  AppendLandmarksSeenBy(obs, world, self);
  AppendOthersSeenBy(obs, world, agent);
}

// The `field` (an utterance, a velocity) of every agent from `first` on but
// agent `agent`, in order.
template <typename Field>
void AppendFieldOfOthers(std::vector<double>& obs, const World& world,
                         std::size_t agent, std::size_t first,
                         Field Entity::* field) {
  for (std::size_t i = first; i < world.num_agents; ++i) {
    if (i != agent) {
      Append(obs, world.agent(i).*field);
    }
  }
}

// The usual end of reset_world: every agent at np_random.uniform(-1, +1, 2),
// at rest and silent, then every landmark at uniform(-bound, +bound, 2).
inline void PlaceEntities(World& world, NumpyRandom& rng,
                          double landmark_bound = 1.0) {
  for (std::size_t i = 0; i < world.num_agents; ++i) {
    Entity& agent = world.agent(i);
    agent.pos = UniformVec2(rng, -1, +1);
    agent.vel = {0.0, 0.0};
    agent.c.assign(static_cast<std::size_t>(world.dim_c), 0.0);
  }
  for (std::size_t i = 0; i < world.num_landmarks(); ++i) {
    world.landmark(i).pos = UniformVec2(rng, -landmark_bound, +landmark_bound);
    world.landmark(i).vel = {0.0, 0.0};
  }
}

// Python's min() over the distances (np.sqrt of np.sum of squares) to
// `target` of the agents i with include(i); at least one must be included.
template <typename Include>
double NearestDistance(const World& world, const Entity& target,
                       Include include) {
  bool first = true;
  double nearest = 0.0;
  for (std::size_t i = 0; i < world.num_agents; ++i) {
    if (!include(i)) {
      continue;
    }
    const double d = World::Distance(world.agent(i), target);
    if (first || d < nearest) {
      nearest = d;
      first = false;
    }
  }
  return nearest;
}

// NearestDistance over every agent.
inline double NearestAgentDistance(const World& world, const Entity& target) {
  return NearestDistance(world, target, [](std::size_t) { return true; });
}

// The penalty for straying to |x| in one coordinate (simple_tag's and
// simple_world_comm's bound()).
inline double OutOfBoundsPenalty(double x) {
  if (x < 0.9) {
    return 0.0;
  }
  if (x < 1.0) {
    return (x - 0.9) * 10;
  }
  const double e = NpExp(2 * x - 2);
  return 10 < e ? 10.0 : e;  // Python's min(e, 10)
}

// Whether two entities overlap (the scenarios' is_collision).
inline bool IsCollision(const Entity& a, const Entity& b) {
  return World::Distance(a, b) < a.size + b.size;
}

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENARIOS_COMMON_H_
