// HalfCheetah-v5: a planar cheetah rewarded for running forward.
// A port of gymnasium 1.4's envs/mujoco/half_cheetah_v5.py.
#ifndef ENVPOOL_MUJOCO_HALF_CHEETAH_H_
#define ENVPOOL_MUJOCO_HALF_CHEETAH_H_

#include "envpool/mujoco/mujoco_sim.h"
#include "envpool/numpy/sum.h"

namespace envpool::mujoco {

class HalfCheetah : public MujocoTask {
 public:
  static Config DefaultConfig() {
    return MujocoConfig("half_cheetah.xml", 5,
                        {{"forward_reward_weight", 1.0},
                         {"ctrl_cost_weight", 0.1},
                         {"reset_noise_scale", 0.1},
                         {"exclude_current_positions_from_observation", true}},
                        CameraConfig{.distance = 4.0});
  }

  static EnvSpec Spec(const Config& config) {
    const auto model = LoadModel(config);
    const bool exclude =
        config.Get<bool>("exclude_current_positions_from_observation");
    return {ObsSpec(model->nq + model->nv - (exclude ? 1 : 0)),
            ActionSpec(*model),
            InfoSpecs(*model, {"x_position", "x_velocity", "reward_forward",
                               "reward_ctrl"})};
  }

  explicit HalfCheetah(const Config& config)
      : MujocoTask(config),
        forward_reward_weight_(config.Get<double>("forward_reward_weight")),
        ctrl_cost_weight_(config.Get<double>("ctrl_cost_weight")),
        reset_noise_scale_(config.Get<double>("reset_noise_scale")),
        skip_(config.Get<bool>("exclude_current_positions_from_observation")
                  ? 1
                  : 0) {}

  void Reset(Rng& rng, Output& out) {
    sim_.ResetWithNoise(rng, reset_noise_scale_, /*normal_qvel=*/true);
    SetInfo(out, kXPosition, sim_.qpos()[0]);
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    const double x_before = sim_.qpos()[0];
    sim_.DoSimulation(action);
    const double x_after = sim_.qpos()[0];
    const double x_velocity = (x_after - x_before) / sim_.dt();
    const double forward_reward = forward_reward_weight_ * x_velocity;
    const float ctrl_cost = ControlCost(ctrl_cost_weight_, action);
    out.reward = forward_reward - static_cast<double>(ctrl_cost);
    SetInfo(out, kXPosition, x_after);
    SetInfo(out, kXVelocity, x_velocity);
    SetInfo(out, kRewardForward, forward_reward);
    SetInfo(out, kRewardCtrl, -ctrl_cost);
    Write(out);
  }

 private:
  enum Info : std::size_t {
    kXPosition,
    kXVelocity,
    kRewardForward,
    kRewardCtrl,
    kQpos0
  };

  void Write(Output& out) {
    ObsWriter(out).Put(sim_.qpos().subspan(skip_)).Put(sim_.qvel());
    sim_.WriteInitialState(out, kQpos0);
  }

  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double reset_noise_scale_;
  std::size_t skip_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_HALF_CHEETAH_H_
