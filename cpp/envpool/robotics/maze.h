// What gymnasium-robotics' mazes (PointMaze, AntMaze) share whatever their
// agent: the goal and start cells, drawn with numpy's generator in
// gymnasium-robotics' order with uniform noise added, the goal-conditioned
// reward and termination, and the goal that moves on once reached in a
// continuing task. Two versions of that logic ship in gymnasium-robotics
// 1.4.2: maze.py (AntMaze v3) and maze_v4.py (PointMaze v3, AntMaze v4/v5).
#ifndef ENVPOOL_ROBOTICS_MAZE_H_
#define ENVPOOL_ROBOTICS_MAZE_H_

#include <mujoco/mujoco.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/config.h"
#include "envpool/mujoco_runtime/model.h"
#include "envpool/numpy/linalg.h"
#include "envpool/numpy/random.h"
#include "envpool/numpy/ufuncs.h"

namespace envpool::robotics {

using XY = std::array<double, 2>;

// The cells' centres, from an option holding x0, y0, x1, y1, ...
inline std::vector<XY> Locations(const Config& config, const char* name) {
  const auto flat = config.Get<std::vector<double>>(name);
  if (flat.empty() || flat.size() % 2 != 0) {
    throw std::invalid_argument(
        std::string("option '") + name +
        "' must hold x, y pairs of at least one maze cell");
  }
  std::vector<XY> out;
  for (std::size_t i = 0; i < flat.size(); i += 2) {
    out.push_back({flat[i], flat[i + 1]});
  }
  return out;
}

// The maze options every maze task has: its model (written from the map by
// envpool/families/robotics/maze_model.py), cells, size and reward.
inline Config MazeConfig(double maze_size_scaling, double maze_height) {
  return {{"model_xml", std::string()},
          {"goal_locations", std::vector<double>{}},
          {"reset_locations", std::vector<double>{}},
          {"maze_size_scaling", maze_size_scaling},
          {"maze_height", maze_height},
          {"position_noise_range", 0.25},
          {"reward_type", std::string("sparse")},
          {"continuing_task", true},
          {"reset_target", false}};
}

inline std::shared_ptr<const mjModel> MazeModel(const Config& config) {
  const auto xml = config.Get<std::string>("model_xml");
  if (xml.empty()) {
    throw std::invalid_argument(
        "option 'model_xml' is empty: the maze's model, which the task "
        "writes from maze_map");
  }
  return mujoco_runtime::LoadModelFromXml(xml);
}

// What one step's move gives the task: its reward and termination, whether
// the agent is within reach of the goal (info "success"), and the goal the
// observation shows (the one before any move of the goal).
struct MazeStep {
  double reward;
  bool terminated;
  bool success;
  XY desired_goal;
};

class Maze {
 public:
  // maze.py (v3) or maze_v4.py (v4).
  enum class Version : std::uint8_t { kV3, kV4 };

  Maze(const Config& config, Version version)
      : version_(version),
        goals_(Locations(config, "goal_locations")),
        resets_(Locations(config, "reset_locations")),
        scaling_(config.Get<double>("maze_size_scaling")),
        height_(config.Get<double>("maze_height")),
        noise_(config.Get<double>("position_noise_range")),
        dense_(RewardIsDense(config.Get<std::string>("reward_type"))),
        continuing_task_(config.Get<bool>("continuing_task")),
        reset_target_(config.Get<bool>("reset_target")) {}

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }

  const XY& goal() const { return goal_; }

  // Whether an agent at `achieved` is within reach of the goal (info
  // "success"): np.linalg.norm(achieved - goal) <= 0.45.
  bool Reached(const XY& achieved) const {
    return NpNorm(Difference(achieved, goal_)) <= kGoalRadius;
  }

  // A new episode: draws the goal, then the agent's start, which it returns.
  XY DrawEpisode() {
    goal_ = WithNoise(DrawGoal());
    // maze_v4 keeps the start half a cell from the goal; maze.py half a unit
    const double apart = version_ == Version::kV4 ? 0.5 * scaling_ : 0.5;
    RequireStartAway(apart);
    XY start = goal_;
    while (NpNorm(Difference(start, goal_)) <= apart) {
      start = resets_[static_cast<std::size_t>(
          np_random_.Integers(0, static_cast<std::int64_t>(resets_.size())))];
    }
    return WithNoise(start);
  }

  // The step's outcome once the agent is at `achieved`; the goal may move on
  // (then `goal_moved`), as each version orders it.
  MazeStep AfterMove(const XY& achieved, bool& goal_moved) {
    goal_moved = false;
    MazeStep step{.desired_goal = goal_};
    const bool reached = Reached(achieved);
    step.success = reached;
    step.terminated = !continuing_task_ && reached;
    const bool more_goals = continuing_task_ && reached && goals_.size() > 1;
    if (version_ == Version::kV3) {
      // maze.py draws the next goal inside compute_terminated, before the
      // reward, which is then measured against the new goal, once drawn
      if (more_goals) {
        goal_ = WithNoise(DrawGoal());
        goal_moved = true;
      }
      step.reward = Reward(achieved);
      return step;
    }
    step.reward = Reward(achieved);
    if (more_goals && reset_target_) {
      while (Reached(achieved)) {
        goal_ = WithNoise(DrawGoal());
      }
      goal_moved = true;
    }
    return step;
  }

  // Puts the model's target site at the goal (update_target_site_pos).
  void PlaceTarget(mjModel& model, int site) const {
    double* pos = model.site_pos + 3 * static_cast<std::ptrdiff_t>(site);
    pos[0] = goal_[0];
    pos[1] = goal_[1];
    pos[2] = height_ / 2 * scaling_;
  }

 private:
  static bool RewardIsDense(const std::string& type) {
    if (type != "sparse" && type != "dense") {
      throw std::invalid_argument(
          "reward_type must be 'sparse' or 'dense', got '" + type + "'");
    }
    return type == "dense";
  }

  static XY Difference(const XY& a, const XY& b) {
    return {a[0] - b[0], a[1] - b[1]};
  }

  // compute_reward: np.linalg.norm(..., axis=-1), a sum of the squares
  double Reward(const XY& achieved) const {
    const XY delta = Difference(achieved, goal_);
    const double distance =
        std::sqrt(delta[0] * delta[0] + delta[1] * delta[1]);
    return dense_ ? NpExp(-distance) : (distance <= kGoalRadius ? 1.0 : 0.0);
  }

  // gymnasium-robotics draws starts until one is far enough from the goal,
  // forever if there is none: a map like that is refused instead.
  void RequireStartAway(double apart) const {
    for (const XY& start : resets_) {
      if (NpNorm(Difference(start, goal_)) > apart) {
        return;
      }
    }
    throw std::invalid_argument(
        "the maze has no start cell far enough from the goal drawn; give "
        "maze_map a reset ('r' or 'c') cell apart from its goal cells");
  }

  XY DrawGoal() {
    return goals_[static_cast<std::size_t>(
        np_random_.Integers(0, static_cast<std::int64_t>(goals_.size())))];
  }

  XY WithNoise(XY xy) {
    const double nx = np_random_.Uniform(-noise_, noise_) * scaling_;
    const double ny = np_random_.Uniform(-noise_, noise_) * scaling_;
    xy[0] += nx;
    xy[1] += ny;
    return xy;
  }

  static constexpr double kGoalRadius = 0.45;

  Version version_;
  std::vector<XY> goals_;
  std::vector<XY> resets_;
  double scaling_;
  double height_;
  double noise_;
  bool dense_;
  bool continuing_task_;
  bool reset_target_;
  NumpyRandom np_random_;
  XY goal_{};
};

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_MAZE_H_
