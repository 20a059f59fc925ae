// Reacher-v5 and Pusher-v5: arms that reach a target, or push an object to
// a goal. Ports of gymnasium 1.4's envs/mujoco/reacher_v5.py and
// pusher_v5.py.
#ifndef ENVPOOL_MUJOCO_REACHER_H_
#define ENVPOOL_MUJOCO_REACHER_H_

#include <array>
#include <cmath>
#include <vector>

#include "envpool/mujoco/mujoco_sim.h"
#include "envpool/numpy/linalg.h"
#include "envpool/numpy/sum.h"
#include "envpool/numpy/ufuncs.h"

namespace envpool::mujoco {

// a - b for two body positions.
inline std::array<double, 3> Difference(std::span<const double, 3> a,
                                        std::span<const double, 3> b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}

class Reacher : public MujocoTask {
 public:
  static Config DefaultConfig() {
    return MujocoConfig(
        "reacher.xml", 2,
        {{"reward_dist_weight", 1.0}, {"reward_control_weight", 1.0}});
  }

  static EnvSpec Spec(const Config& config) {
    const auto model = LoadModel(config);
    return {ObsSpec(10), ActionSpec(*model),
            InfoSpecs(*model, {"reward_dist", "reward_ctrl"})};
  }

  explicit Reacher(const Config& config)
      : MujocoTask(config),
        reward_dist_weight_(config.Get<double>("reward_dist_weight")),
        reward_control_weight_(config.Get<double>("reward_control_weight")),
        fingertip_(sim_.BodyId("fingertip")),
        target_(sim_.BodyId("target")) {
    if (sim_.nq() != 4 || sim_.nv() != 4) {
      throw std::invalid_argument(
          "Reacher needs a model with 2 arm and 2 target joints");
    }
  }

  void Reset(Rng& rng, Output& out) {
    sim_.ResetData();
    std::vector<double> qpos(sim_.nq());
    for (std::size_t i = 0; i < qpos.size(); ++i) {
      qpos[i] = rng.Uniform(-0.1, 0.1) + sim_.init_qpos()[i];
    }
    // A goal drawn uniformly from the disc of radius 0.2.
    double gx;
    double gy;
    do {
      gx = rng.Uniform(-0.2, 0.2);
      gy = rng.Uniform(-0.2, 0.2);
    } while (!(NpNorm(std::array{gx, gy}) < 0.2));
    qpos[2] = gx;
    qpos[3] = gy;
    std::vector<double> qvel(sim_.nv());
    for (std::size_t i = 0; i < qvel.size(); ++i) {
      qvel[i] = sim_.init_qvel()[i] + rng.Uniform(-0.005, 0.005);
    }
    qvel[2] = 0.0;
    qvel[3] = 0.0;
    sim_.SetState(qpos, qvel);
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    sim_.DoSimulation(action);
    const auto vec =
        Difference(sim_.BodyPos(fingertip_), sim_.BodyPos(target_));
    const double reward_dist = -NpNorm(vec) * reward_dist_weight_;
    const float reward_ctrl = -ControlCost(reward_control_weight_, action);
    out.reward = reward_dist + static_cast<double>(reward_ctrl);
    SetInfo(out, kRewardDist, reward_dist);
    SetInfo(out, kRewardCtrl, reward_ctrl);
    Write(out);
  }

 private:
  enum Info : std::size_t { kRewardDist, kRewardCtrl, kQpos0 };

  void Write(Output& out) {
    const auto qpos = sim_.qpos();
    const auto vec =
        Difference(sim_.BodyPos(fingertip_), sim_.BodyPos(target_));
    ObsWriter(out)
        .Put(NpCos(qpos[0]))
        .Put(NpCos(qpos[1]))
        .Put(NpSin(qpos[0]))
        .Put(NpSin(qpos[1]))
        .Put(qpos.subspan(2))
        .Put(sim_.qvel().first(2))
        .Put(vec[0])
        .Put(vec[1]);
    sim_.WriteInitialState(out, kQpos0);
  }

  double reward_dist_weight_;
  double reward_control_weight_;
  int fingertip_;
  int target_;
};

class Pusher : public MujocoTask {
 public:
  static Config DefaultConfig() {
    return MujocoConfig("pusher_v5.xml", 5,
                        {{"reward_near_weight", 0.5},
                         {"reward_dist_weight", 1.0},
                         {"reward_control_weight", 0.1}},
                        CameraConfig{.distance = 4.0});
  }

  static EnvSpec Spec(const Config& config) {
    const auto model = LoadModel(config);
    return {ObsSpec(23), ActionSpec(*model),
            InfoSpecs(*model, {"reward_dist", "reward_ctrl", "reward_near"})};
  }

  explicit Pusher(const Config& config)
      : MujocoTask(config),
        reward_near_weight_(config.Get<double>("reward_near_weight")),
        reward_dist_weight_(config.Get<double>("reward_dist_weight")),
        reward_control_weight_(config.Get<double>("reward_control_weight")),
        tips_arm_(sim_.BodyId("tips_arm")),
        object_(sim_.BodyId("object")),
        goal_(sim_.BodyId("goal")) {
    if (sim_.nq() < 11 || sim_.nv() < 7) {
      throw std::invalid_argument(
          "Pusher needs a model with 7 arm, 2 object and 2 goal joints");
    }
  }

  void Reset(Rng& rng, Output& out) {
    sim_.ResetData();
    // The object starts at least 0.17 from the goal at the origin.
    double cx;
    double cy;
    do {
      cx = rng.Uniform(-0.3, 0.0);
      cy = rng.Uniform(-0.2, 0.2);
    } while (!(NpNorm(std::array{cx, cy}) > 0.17));
    // gymnasium writes into init_qpos itself (qpos = self.init_qpos).
    const auto qpos = sim_.init_qpos_mutable();
    const std::size_t nq = qpos.size();
    qpos[nq - 4] = cx;
    qpos[nq - 3] = cy;
    qpos[nq - 2] = 0.0;
    qpos[nq - 1] = 0.0;
    std::vector<double> qvel(sim_.nv());
    for (std::size_t i = 0; i < qvel.size(); ++i) {
      qvel[i] = sim_.init_qvel()[i] + rng.Uniform(-0.005, 0.005);
    }
    for (std::size_t i = qvel.size() - 4; i < qvel.size(); ++i) {
      qvel[i] = 0.0;
    }
    sim_.SetState(std::vector<double>(qpos.begin(), qpos.end()), qvel);
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    sim_.DoSimulation(action);
    const auto object = sim_.BodyPos(object_);
    const double reward_near =
        -NpNorm(Difference(object, sim_.BodyPos(tips_arm_))) *
        reward_near_weight_;
    const double reward_dist =
        -NpNorm(Difference(object, sim_.BodyPos(goal_))) * reward_dist_weight_;
    const float reward_ctrl = -ControlCost(reward_control_weight_, action);
    out.reward = reward_dist + static_cast<double>(reward_ctrl) + reward_near;
    SetInfo(out, kRewardDist, reward_dist);
    SetInfo(out, kRewardCtrl, reward_ctrl);
    SetInfo(out, kRewardNear, reward_near);
    Write(out);
  }

 private:
  enum Info : std::size_t { kRewardDist, kRewardCtrl, kRewardNear, kQpos0 };

  void Write(Output& out) {
    ObsWriter(out)
        .Put(sim_.qpos().first(7))
        .Put(sim_.qvel().first(7))
        .Put(sim_.BodyPos(tips_arm_))
        .Put(sim_.BodyPos(object_))
        .Put(sim_.BodyPos(goal_));
    sim_.WriteInitialState(out, kQpos0);
  }

  double reward_near_weight_;
  double reward_dist_weight_;
  double reward_control_weight_;
  int tips_arm_;
  int object_;
  int goal_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_REACHER_H_
