// HalfCheetah-v5: a planar cheetah rewarded for running forward.
// A port of gymnasium 1.4's envs/mujoco/half_cheetah_v5.py.
#ifndef ENVPOOL_MUJOCO_HALF_CHEETAH_H_
#define ENVPOOL_MUJOCO_HALF_CHEETAH_H_

#include "envpool/mujoco/locomotion.h"

namespace envpool::mujoco {

class HalfCheetah : public ForwardTask {
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
    return {ObsSpec(StateSize(config, *model, 1)), ActionSpec(*model),
            InfoSpecs(*model, {"x_position", "x_velocity", "reward_forward",
                               "reward_ctrl"})};
  }

  explicit HalfCheetah(const Config& config) : ForwardTask(config, 1) {}

  void Reset(Rng& rng, Output& out) {
    ResetWithNoise(rng, /*normal_qvel=*/true);
    SetInfo(out, kXPosition, sim_.qpos()[0]);
    WriteStateObs(out, kQpos0);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    const double x_velocity =
        sim_.DoSimulation(action, [this] { return sim_.QposHead<1>(); })[0];
    const double forward_reward = ForwardReward(x_velocity);
    const float ctrl_cost = CtrlCost(action);
    out.reward = forward_reward - static_cast<double>(ctrl_cost);
    SetInfo(out, kXPosition, sim_.qpos()[0]);
    SetInfo(out, kXVelocity, x_velocity);
    SetInfo(out, kRewardForward, forward_reward);
    SetInfo(out, kRewardCtrl, -ctrl_cost);
    WriteStateObs(out, kQpos0);
  }

 private:
  enum Info : std::size_t {
    kXPosition,
    kXVelocity,
    kRewardForward,
    kRewardCtrl,
    kQpos0
  };
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_HALF_CHEETAH_H_
