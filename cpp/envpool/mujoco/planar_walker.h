// Hopper-v5 and Walker2d-v5: planar one- and two-legged robots rewarded for
// moving forward while they stay healthy (upright, at a sane height).
// Ports of gymnasium 1.4's envs/mujoco/hopper_v5.py and walker2d_v5.py, which
// differ only in their defaults and in Hopper's extra bound on the state.
#ifndef ENVPOOL_MUJOCO_PLANAR_WALKER_H_
#define ENVPOOL_MUJOCO_PLANAR_WALKER_H_

#include <vector>

#include "envpool/mujoco/mujoco_sim.h"
#include "envpool/numpy/sum.h"

namespace envpool::mujoco {

template <bool kIsHopper>
class PlanarWalker : public MujocoTask {
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
    const bool exclude =
        config.Get<bool>("exclude_current_positions_from_observation");
    return {
        ObsSpec(model->nq + model->nv - (exclude ? 1 : 0)), ActionSpec(*model),
        InfoSpecs(*model, {"x_position", "z_distance_from_origin", "x_velocity",
                           "reward_forward", "reward_ctrl", "reward_survive"})};
  }

  explicit PlanarWalker(const Config& config)
      : MujocoTask(config),
        forward_reward_weight_(config.Get<double>("forward_reward_weight")),
        ctrl_cost_weight_(config.Get<double>("ctrl_cost_weight")),
        healthy_reward_(config.Get<double>("healthy_reward")),
        terminate_when_unhealthy_(config.Get<bool>("terminate_when_unhealthy")),
        healthy_state_(kIsHopper ? RangeOption(config, "healthy_state_range")
                                 : std::pair{0.0, 0.0}),
        healthy_z_(RangeOption(config, "healthy_z_range")),
        healthy_angle_(RangeOption(config, "healthy_angle_range")),
        reset_noise_scale_(config.Get<double>("reset_noise_scale")),
        skip_(config.Get<bool>("exclude_current_positions_from_observation")
                  ? 1
                  : 0) {}

  void Reset(Rng& rng, Output& out) {
    sim_.ResetWithNoise(rng, reset_noise_scale_, /*normal_qvel=*/false);
    WritePosition(out);
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    const double x_before = sim_.qpos()[0];
    sim_.DoSimulation(action);
    const double x_after = sim_.qpos()[0];
    const double x_velocity = (x_after - x_before) / sim_.dt();
    const double forward_reward = forward_reward_weight_ * x_velocity;
    const bool healthy = IsHealthy();
    const double healthy_reward = healthy ? healthy_reward_ : 0.0;
    const float ctrl_cost = ControlCost(ctrl_cost_weight_, action);
    out.reward =
        (forward_reward + healthy_reward) - static_cast<double>(ctrl_cost);
    out.terminated = !healthy && terminate_when_unhealthy_;
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
    return Inside(qpos[1], healthy_z_) && Inside(qpos[2], healthy_angle_);
  }

  void WritePosition(Output& out) const {
    SetInfo(out, kXPosition, sim_.qpos()[0]);
    SetInfo(out, kZDistanceFromOrigin, sim_.qpos()[1] - sim_.init_qpos()[1]);
  }

  void Write(Output& out) {
    ObsWriter(out)
        .Put(sim_.qpos().subspan(skip_))
        .PutClipped(sim_.qvel(), -10.0, 10.0);
    sim_.WriteInitialState(out, kQpos0);
  }

  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double healthy_reward_;
  bool terminate_when_unhealthy_;
  std::pair<double, double> healthy_state_;
  std::pair<double, double> healthy_z_;
  std::pair<double, double> healthy_angle_;
  double reset_noise_scale_;
  std::size_t skip_;
};

using Hopper = PlanarWalker<true>;
using Walker2d = PlanarWalker<false>;

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_PLANAR_WALKER_H_
