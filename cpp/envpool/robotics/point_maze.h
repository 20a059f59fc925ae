// PointMaze (gymnasium-robotics 1.4.2's PointMaze_*-v3): a force-actuated
// ball in a maze of walls, to reach a goal, with goal-conditioned dict
// observations. The maze's model is written in memory from the maze map
// (envpool/families/robotics/maze_model.py); goals and starts are drawn from
// numpy's generator in gymnasium-robotics' order, and the distances with
// numpy's own arithmetic, so that episodes are bit-identical.
#ifndef ENVPOOL_ROBOTICS_POINT_MAZE_H_
#define ENVPOOL_ROBOTICS_POINT_MAZE_H_

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"
#include "envpool/mujoco_runtime/action_spec.h"
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

class PointMaze {
 public:
  using Action = std::span<const float>;

  static Config DefaultConfig() {
    return {{"model_xml", std::string()},
            {"goal_locations", std::vector<double>{}},
            {"reset_locations", std::vector<double>{}},
            {"maze_size_scaling", 1.0},
            {"maze_height", 0.4},
            {"position_noise_range", 0.25},
            {"reward_type", std::string("sparse")},
            {"continuing_task", true},
            {"reset_target", false}};
  }

  static EnvSpec Spec(const Config& config) {
    const auto model = Model(config);
    return {MakeDict("obs",
                     {MakeArray<double>("achieved_goal", {2}, {-kInf}, {kInf}),
                      MakeArray<double>("desired_goal", {2}, {-kInf}, {kInf}),
                      MakeArray<double>("observation", {model->nq + model->nv},
                                        {-kInf}, {kInf})}),
            mujoco_runtime::ActuatorActionSpec<float>(
                *model, mujoco_runtime::CtrlBounds::kCtrlRange),
            {MakeArray<bool>("success", {})}};
  }

  explicit PointMaze(const Config& config)
      : model_data_(Model(config), mujoco_runtime::ModelUse::kOwnCopy),
        goals_(Locations(config, "goal_locations")),
        resets_(Locations(config, "reset_locations")),
        scaling_(config.Get<double>("maze_size_scaling")),
        height_(config.Get<double>("maze_height")),
        noise_(config.Get<double>("position_noise_range")),
        dense_(RewardIsDense(config.Get<std::string>("reward_type"))),
        continuing_task_(config.Get<bool>("continuing_task")),
        reset_target_(config.Get<bool>("reset_target")),
        target_site_(model_data_.Id(mjOBJ_SITE, "target")),
        init_qpos_(data().qpos, data().qpos + model().nq),
        init_qvel_(data().qvel, data().qvel + model().nv) {
    if (model().nq < 2 || model().nu != 2) {
      throw std::invalid_argument(
          "the PointMaze model must have the ball's x and y joints and motors");
    }
  }

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }

  void Reset(Rng& /*rng*/, Output& out) {
    goal_ = WithNoise(DrawGoal());
    RequireStartAwayFrom(goal_);
    XY start = goal_;
    while (NpNorm(Difference(start, goal_)) <= 0.5 * scaling_) {
      start = resets_[static_cast<std::size_t>(
          np_random_.Integers(0, static_cast<std::int64_t>(resets_.size())))];
    }
    MoveTarget();
    start = WithNoise(start);
    mjData& d = data();
    mj_resetData(&model(), &d);
    init_qpos_[0] = start[0];
    init_qpos_[1] = start[1];
    SetState(init_qpos_, init_qvel_);
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    mjData& d = data();
    // the ball's speed is clipped to [-5, 5] before the step
    std::vector<double> qvel(d.qvel, d.qvel + model().nv);
    for (double& v : qvel) {
      v = std::clamp(v, -5.0, 5.0);
    }
    std::vector<double> qpos(d.qpos, d.qpos + model().nq);
    SetState(qpos, qvel);
    for (std::size_t i = 0; i < action.size(); ++i) {
      // np.clip in float32, then stored as a double
      d.ctrl[i] = static_cast<double>(std::clamp(action[i], -1.0F, 1.0F));
    }
    mj_step(&model(), &d);
    mj_rnePostConstraint(&model(), &d);
    const XY achieved{d.qpos[0], d.qpos[1]};
    const XY delta = Difference(achieved, goal_);
    // compute_reward: np.linalg.norm(..., axis=-1), a sum of the squares
    const double distance = NpSqrt(delta[0] * delta[0] + delta[1] * delta[1]);
    out.reward = dense_ ? NpExp(-distance) : (distance <= 0.45 ? 1.0 : 0.0);
    const bool reached = NpNorm(delta) <= 0.45;
    out.terminated = !continuing_task_ && reached;
    Write(out);
    if (continuing_task_ && reset_target_ && reached && goals_.size() > 1) {
      while (NpNorm(Difference(achieved, goal_)) <= 0.45) {
        goal_ = WithNoise(DrawGoal());
      }
      MoveTarget();
    }
  }

 private:
  static std::shared_ptr<const mjModel> Model(const Config& config) {
    const auto xml = config.Get<std::string>("model_xml");
    if (xml.empty()) {
      throw std::invalid_argument(
          "option 'model_xml' is empty: the maze's model, which the task "
          "writes from maze_map");
    }
    return mujoco_runtime::LoadModelFromXml(xml);
  }

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

  static double NpSqrt(double x) { return std::sqrt(x); }

  const mjModel& model() const { return model_data_.model(); }
  mjData& data() { return model_data_.data(); }

  // gymnasium-robotics draws starts until one is more than half a cell from
  // the goal, forever if there is none: a map like that is refused instead.
  void RequireStartAwayFrom(const XY& goal) const {
    for (const XY& start : resets_) {
      if (NpNorm(Difference(start, goal)) > 0.5 * scaling_) {
        return;
      }
    }
    throw std::invalid_argument(
        "the maze has no start cell more than half a cell from the goal drawn; "
        "give maze_map a reset ('r' or 'c') cell apart from its goal cells");
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

  void MoveTarget() {
    double* pos = model_data_.own_model().site_pos +
                  3 * static_cast<std::ptrdiff_t>(target_site_);
    pos[0] = goal_[0];
    pos[1] = goal_[1];
    pos[2] = height_ / 2 * scaling_;
  }

  void SetState(std::span<const double> qpos, std::span<const double> qvel) {
    mjData& d = data();
    std::copy(qpos.begin(), qpos.end(), d.qpos);
    std::copy(qvel.begin(), qvel.end(), d.qvel);
    mj_forward(&model(), &d);
  }

  void Write(Output& out) {
    const mjData& d = data();
    auto achieved = out.Obs<double>(0);
    auto desired = out.Obs<double>(1);
    auto observation = out.Obs<double>(2);
    achieved[0] = d.qpos[0];
    achieved[1] = d.qpos[1];
    desired[0] = goal_[0];
    desired[1] = goal_[1];
    const auto nq = static_cast<std::size_t>(model().nq);
    std::copy(d.qpos, d.qpos + nq, observation.begin());
    std::copy(d.qvel, d.qvel + model().nv,
              observation.begin() + static_cast<std::ptrdiff_t>(nq));
    out.Info<bool>(0)[0] =
        NpNorm(Difference({d.qpos[0], d.qpos[1]}, goal_)) <= 0.45;
  }

  mujoco_runtime::ModelData model_data_;
  std::vector<XY> goals_;
  std::vector<XY> resets_;
  double scaling_;
  double height_;
  double noise_;
  bool dense_;
  bool continuing_task_;
  bool reset_target_;
  int target_site_;
  std::vector<double> init_qpos_;
  std::vector<double> init_qvel_;
  NumpyRandom np_random_;
  XY goal_{};
};

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_POINT_MAZE_H_
