// Swimmer-v5: a three-link swimmer in a viscous fluid, rewarded for moving
// forward. A port of gymnasium 1.4's envs/mujoco/swimmer_v5.py.
#ifndef ENVPOOL_MUJOCO_SWIMMER_H_
#define ENVPOOL_MUJOCO_SWIMMER_H_

#include "envpool/mujoco/locomotion.h"

namespace envpool::mujoco {

class Swimmer : public ForwardTask {
 public:
  static Config DefaultConfig() {
    return MujocoConfig("swimmer.xml", 4,
                        {{"forward_reward_weight", 1.0},
                         {"ctrl_cost_weight", 1e-4},
                         {"reset_noise_scale", 0.1},
                         {"exclude_current_positions_from_observation", true}});
  }

  static EnvSpec Spec(const Config& config) {
    const auto model = LoadModel(config);
    return {
        ObsSpec(StateSize(config, *model, 2)), ActionSpec(*model),
        InfoSpecs(*model, FloorInfo::Names({"reward_forward", "reward_ctrl"}))};
  }

  explicit Swimmer(const Config& config) : ForwardTask(config, 2) {}

  void Reset(Rng& rng, Output& out) {
    ResetWithNoise(rng, /*normal_qvel=*/false);
    FloorInfo::WritePosition(out, sim_.qpos());
    WriteStateObs(out, kQpos0);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    const auto velocity =
        sim_.DoSimulation(action, [this] { return sim_.QposHead<2>(); });
    const double forward_reward = ForwardReward(velocity[0]);
    const float ctrl_cost = CtrlCost(action);
    out.reward = forward_reward - static_cast<double>(ctrl_cost);
    FloorInfo::WritePosition(out, sim_.qpos());
    FloorInfo::WriteVelocity(out, velocity);
    SetInfo(out, kRewardForward, forward_reward);
    SetInfo(out, kRewardCtrl, -ctrl_cost);
    WriteStateObs(out, kQpos0);
  }

 private:
  enum Info : std::size_t {
    kRewardForward = FloorInfo::kEnd,
    kRewardCtrl,
    kQpos0
  };
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_SWIMMER_H_
