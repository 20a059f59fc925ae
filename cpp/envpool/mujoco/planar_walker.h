// Hopper-v5 and Walker2d-v5: planar one- and two-legged robots rewarded for
// moving forward while they stay healthy (upright, at a sane height).
// Ports of gymnasium 1.4's envs/mujoco/hopper_v5.py and walker2d_v5.py, which
// differ only in their defaults and in Hopper's extra bound on the state.
#ifndef ENVPOOL_MUJOCO_PLANAR_WALKER_H_
#define ENVPOOL_MUJOCO_PLANAR_WALKER_H_

#include <vector>

#include "envpool/mujoco/locomotion.h"

namespace envpool::mujoco {

template <bool kIsHopper>
class PlanarWalker : public ForwardTask {
 public:
  static Config DefaultConfig() {
    Config own{{"forward_reward_weight", 1.0},
               {"ctrl_cost_weight", 1e-3},
               {"healthy_reward", 1.0},
               {"terminate_when_unhealthy", true}};
    if constexpr (kIsHopper) {
      own.Set("healthy_state_range", std::vector<double>{-100.0, 100.0});
      own.Set("healthy_z_range", std::vector<double>{0.7, kInf});
      own.Set("healthy_angle_range", std::vector<double>{-0.2, 0.2});
    } else {
      own.Set("healthy_z_range", std::vector<double>{0.8, 2.0});
      own.Set("healthy_angle_range", std::vector<double>{-1.0, 1.0});
    }
    own.Set("reset_noise_scale", 5e-3);
    own.Set("exclude_current_positions_from_observation", true);
    return MujocoConfig(kIsHopper ? "hopper.xml" : "walker2d_v5.xml", 4, own,
                        CameraConfig{.distance = kIsHopper ? 3.0 : 4.0,
                                     .elevation = -20.0,
                                     .lookat = {0.0, 0.0, 1.15}});
  }

  static EnvSpec Spec(const Config& config) {
    const auto model = LoadModel(config);
    return {
        ObsSpec(StateSize(config, *model, 1)), ActionSpec(*model),
        InfoSpecs(*model, {"x_position", "z_distance_from_origin", "x_velocity",
                           "reward_forward", "reward_ctrl", "reward_survive"})};
  }

  explicit PlanarWalker(const Config& config)
      : ForwardTask(config, 1),
        health_(config),
        healthy_state_(kIsHopper ? RangeOption(config, "healthy_state_range")
                                 : std::pair{0.0, 0.0}),
        healthy_angle_(RangeOption(config, "healthy_angle_range")) {}

  void Reset(Rng& rng, Output& out) {
    ResetWithNoise(rng, /*normal_qvel=*/false);
    WritePosition(out);
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    const double x_velocity =
        sim_.DoSimulation(action, [this] { return sim_.QposHead<1>(); })[0];
    const double forward_reward = ForwardReward(x_velocity);
    const bool healthy = IsHealthy();
    const double healthy_reward = health_.Reward(healthy);
    const float ctrl_cost = CtrlCost(action);
    out.reward =
        (forward_reward + healthy_reward) - static_cast<double>(ctrl_cost);
    out.terminated = health_.Terminated(healthy);
    WritePosition(out);
    SetInfo(out, kXVelocity, x_velocity);
    SetInfo(out, kRewardForward, forward_reward);
    SetInfo(out, kRewardCtrl, -ctrl_cost);
    SetInfo(out, kRewardSurvive, healthy_reward);
    Write(out);
  }

 private:
  enum Info : std::size_t {
    kXPosition,
    kZDistanceFromOrigin,
    kXVelocity,
    kRewardForward,
    kRewardCtrl,
    kRewardSurvive,
    kQpos0
  };

  static bool Inside(double x, std::pair<double, double> range) {
    return range.first < x && x < range.second;
  }

  bool IsHealthy() const {
    const auto qpos = sim_.qpos();
    if constexpr (kIsHopper) {
      // Every element of state_vector()[2:] strictly inside the range.
      for (std::size_t i = 2; i < qpos.size(); ++i) {
        if (!Inside(qpos[i], healthy_state_)) {
          return false;
        }
      }
      for (double v : sim_.qvel()) {
        if (!Inside(v, healthy_state_)) {
          return false;
        }
      }
    }
    return Inside(qpos[1], health_.z_range) && Inside(qpos[2], healthy_angle_);
  }

  void WritePosition(Output& out) const {
    SetInfo(out, kXPosition, sim_.qpos()[0]);
    SetInfo(out, kZDistanceFromOrigin, sim_.qpos()[1] - sim_.init_qpos()[1]);
  }

  void Write(Output& out) {
    WritePositions(out).PutClipped(sim_.qvel(), -10.0, 10.0);
    sim_.WriteInitialState(out, kQpos0);
  }

  HealthOptions health_;
  std::pair<double, double> healthy_state_;
  std::pair<double, double> healthy_angle_;
};

using Hopper = PlanarWalker<true>;
using Walker2d = PlanarWalker<false>;

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_PLANAR_WALKER_H_
