// GridWorld: walk an agent through a walled grid to its goal cell.
//
// An out-of-tree envpool env: it includes only the installed envpool headers
// and follows the contract of envpool/core/env.h.
//
// Options:
//   layout       rows separated by '/': '#' wall, '.' floor, 'G' the one goal
//   slip_prob    chance that a step's action is replaced by a random one
//   step_reward  reward of every step that does not reach the goal
//   goal_reward  reward of the step that reaches the goal (ends the episode)
//
// Observation: uint8 planes (walls, agent, goal) of shape (3, H, W).
// Action: 0 up, 1 right, 2 down, 3 left; a move into a wall (or off the
// grid) leaves the agent in place. info["position"] is (row, col).
#ifndef GRIDWORLD_GRIDWORLD_H_
#define GRIDWORLD_GRIDWORLD_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"

namespace gridworld {

// Four rooms joined by doors, goal in the bottom-right room.
inline constexpr std::string_view kDefaultLayout =
    "#########/"
    "#...#...#/"
    "#.......#/"
    "#...#...#/"
    "##.###.##/"
    "#...#...#/"
    "#.......#/"
    "#...#..G#/"
    "#########";

// A parsed, validated layout.
struct Grid {
  std::int64_t height = 0;
  std::int64_t width = 0;
  std::vector<char> cells;          // row-major
  std::vector<std::int64_t> floor;  // indices of the '.' cells
  std::int64_t goal = 0;            // index of the 'G' cell

  // Throws std::invalid_argument naming what is wrong with `layout`.
  static Grid Parse(std::string_view layout) {
    if (layout.empty()) {
      throw std::invalid_argument("layout is empty");
    }
    Grid grid;
    std::int64_t goals = 0;
    std::size_t start = 0;
    while (true) {
      const std::size_t end = std::min(layout.find('/', start), layout.size());
      const std::string_view row = layout.substr(start, end - start);
      const std::int64_t r = grid.height;
      if (row.empty()) {
        throw std::invalid_argument("layout row " + std::to_string(r) +
                                    " is empty");
      }
      if (r == 0) {
        grid.width = static_cast<std::int64_t>(row.size());
      } else if (static_cast<std::int64_t>(row.size()) != grid.width) {
        throw std::invalid_argument(
            "layout is not rectangular: row " + std::to_string(r) + " has " +
            std::to_string(row.size()) + " cells, row 0 has " +
            std::to_string(grid.width));
      }
      for (std::size_t c = 0; c < row.size(); ++c) {
        const char cell = row[c];
        const auto index = static_cast<std::int64_t>(grid.cells.size());
        if (cell == '.') {
          grid.floor.push_back(index);
        } else if (cell == 'G') {
          grid.goal = index;
          ++goals;
        } else if (cell != '#') {
          throw std::invalid_argument("layout has the character '" +
                                      std::string(1, cell) + "' at row " +
                                      std::to_string(r) + ", column " +
                                      std::to_string(c) +
                                      "; use only '#' (wall), '.' (floor), "
                                      "'G' (goal) and '/' between rows");
        }
        grid.cells.push_back(cell);
      }
      ++grid.height;
      if (end == layout.size()) {
        break;
      }
      start = end + 1;
    }
    if (goals != 1) {
      throw std::invalid_argument("layout needs exactly one goal 'G', found " +
                                  std::to_string(goals));
    }
    if (grid.floor.empty()) {
      throw std::invalid_argument(
          "layout needs at least one floor cell '.' to start on");
    }
    return grid;
  }
};

inline double CheckedSlipProb(const envpool::Config& config) {
  const auto slip_prob = config.Get<double>("slip_prob");
  if (!(slip_prob >= 0.0 && slip_prob <= 1.0)) {  // NaN fails too
    throw std::invalid_argument("slip_prob must be in [0, 1], got " +
                                std::to_string(slip_prob));
  }
  return slip_prob;
}

class GridWorld {
 public:
  using Action = std::int64_t;

  static envpool::Config DefaultConfig() {
    return {{"layout", std::string(kDefaultLayout)},
            {"slip_prob", 0.0},
            {"step_reward", -0.01},
            {"goal_reward", 1.0}};
  }

  static envpool::EnvSpec Spec(const envpool::Config& config) {
    const Grid grid = Grid::Parse(config.Get<std::string>("layout"));
    CheckedSlipProb(config);
    const auto h = static_cast<double>(grid.height - 1);
    const auto w = static_cast<double>(grid.width - 1);
    return {envpool::MakeArray<std::uint8_t>(
                "obs", {kNumPlanes, grid.height, grid.width}, {0.0}, {1.0}),
            envpool::MakeDiscrete<std::int64_t>("action", 4),
            {envpool::MakeArray<std::int32_t>("position", {2}, {0.0, 0.0},
                                              {h, w})}};
  }

  explicit GridWorld(const envpool::Config& config)
      : grid_(Grid::Parse(config.Get<std::string>("layout"))),
        slip_prob_(CheckedSlipProb(config)),
        step_reward_(config.Get<double>("step_reward")),
        goal_reward_(config.Get<double>("goal_reward")),
        planes_(static_cast<std::size_t>(kNumPlanes) * grid_.cells.size(), 0) {
    // The wall and goal planes never change: build them once.
    const std::size_t area = grid_.cells.size();
    for (std::size_t i = 0; i < area; ++i) {
      planes_[kWallPlane * area + i] = grid_.cells[i] == '#' ? 1 : 0;
    }
    planes_[kGoalPlane * area + static_cast<std::size_t>(grid_.goal)] = 1;
  }

  void Reset(envpool::Rng& rng, envpool::Output& out) {
    position_ = grid_.floor[rng.Below(grid_.floor.size())];
    Write(out);
  }

  void Step(Action action, envpool::Rng& rng, envpool::Output& out) {
    if (slip_prob_ > 0.0 && rng.Uniform() < slip_prob_) {
      action = static_cast<Action>(rng.Below(4));
    }
    static constexpr std::int64_t kRowDelta[4] = {-1, 0, 1, 0};
    static constexpr std::int64_t kColDelta[4] = {0, 1, 0, -1};
    const std::int64_t row = position_ / grid_.width + kRowDelta[action];
    const std::int64_t col = position_ % grid_.width + kColDelta[action];
    if (row >= 0 && row < grid_.height && col >= 0 && col < grid_.width &&
        grid_.cells[row * grid_.width + col] != '#') {
      position_ = row * grid_.width + col;
    }
    out.terminated = position_ == grid_.goal;
    out.reward = out.terminated ? goal_reward_ : step_reward_;
    Write(out);
  }

 private:
  static constexpr std::int64_t kNumPlanes = 3;
  static constexpr std::size_t kWallPlane = 0;
  static constexpr std::size_t kAgentPlane = 1;
  static constexpr std::size_t kGoalPlane = 2;

  void Write(envpool::Output& out) const {
    std::span<std::uint8_t> obs = out.Obs<std::uint8_t>();
    std::copy(planes_.begin(), planes_.end(), obs.begin());
    obs[kAgentPlane * grid_.cells.size() +
        static_cast<std::size_t>(position_)] = 1;
    std::span<std::int32_t> position = out.Info<std::int32_t>(0);
    position[0] = static_cast<std::int32_t>(position_ / grid_.width);
    position[1] = static_cast<std::int32_t>(position_ % grid_.width);
  }

  Grid grid_;
  double slip_prob_;
  double step_reward_;
  double goal_reward_;
  std::vector<std::uint8_t> planes_;  // walls, (empty) agent, goal
  std::int64_t position_ = 0;         // row * width + col
};

}  // namespace gridworld

#endif  // GRIDWORLD_GRIDWORLD_H_
