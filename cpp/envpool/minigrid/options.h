// Reading and checking the minigrid tasks' options.
#ifndef ENVPOOL_MINIGRID_OPTIONS_H_
#define ENVPOOL_MINIGRID_OPTIONS_H_

#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/config.h"
#include "envpool/minigrid/grid.h"
#include "envpool/minigrid/world_object.h"

namespace envpool::minigrid {

// A position option: (x, y), or empty for minigrid's None.
inline std::optional<Pos> OptionalPos(const Config& config,
                                      const std::string& name) {
  const auto xy = config.Get<std::vector<double>>(name);
  if (xy.empty()) {
    return std::nullopt;
  }
  if (xy.size() != 2 || xy[0] != std::floor(xy[0]) ||
      xy[1] != std::floor(xy[1])) {
    throw std::invalid_argument(name +
                                " must be a cell (x, y) of integers or None");
  }
  return Pos{static_cast<std::int64_t>(xy[0]),
             static_cast<std::int64_t>(xy[1])};
}

inline bool InsideWalls(Pos p, std::int64_t width, std::int64_t height) {
  return p.x >= 1 && p.x < width - 1 && p.y >= 1 && p.y < height - 1;
}

inline void CheckDirection(const Config& config, const std::string& name) {
  const auto dir = config.Get<std::int64_t>(name);
  if (dir < 0 || dir > 3) {
    throw std::invalid_argument(
        name + " must be 0 (right), 1 (down), 2 (left) or 3 (up), got " +
        std::to_string(dir));
  }
}

// The agent_start_pos (a cell inside the walls of a width x height room, or
// None) and agent_start_dir options.
inline void CheckAgentStart(const Config& config, std::int64_t width,
                            std::int64_t height) {
  const auto start = OptionalPos(config, "agent_start_pos");
  if (start && !InsideWalls(*start, width, height)) {
    throw std::invalid_argument(
        "agent_start_pos must be a cell inside the walls of the " +
        std::to_string(width) + "x" + std::to_string(height) + " room");
  }
  CheckDirection(config, "agent_start_dir");
}

// Where and facing where the agent starts: the agent_start_pos and
// agent_start_dir options (an empty pos: anywhere, facing anywhere).
struct AgentStart {
  std::optional<Pos> pos;
  std::int64_t dir = 0;
};
inline AgentStart AgentStartOptions(const Config& config) {
  return {OptionalPos(config, "agent_start_pos"),
          config.Get<std::int64_t>("agent_start_dir")};
}

// Appends the agent_start_pos and agent_start_dir options to `own`, with
// minigrid's default start: cell (1, 1), facing right.
inline Config WithAgentStartOptions(Config own) {
  own.Set("agent_start_pos", std::vector<double>{1, 1});
  own.Set("agent_start_dir", std::int64_t{0});
  return own;
}

// The obstacle_type option: "lava" or "wall" (minigrid's Lava and Wall).
inline WorldObj ObstacleType(const Config& config) {
  const auto name = config.Get<std::string>("obstacle_type");
  if (name == "lava") {
    return Lava();
  }
  if (name == "wall") {
    return Wall();
  }
  throw std::invalid_argument("obstacle_type must be 'lava' or 'wall', got '" +
                              name + "'");
}

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_OPTIONS_H_
