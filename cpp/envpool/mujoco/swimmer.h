// Swimmer-v5: a three-link swimmer in a viscous fluid, rewarded for moving
// forward. A port of gymnasium 1.4's envs/mujoco/swimmer_v5.py.
#ifndef ENVPOOL_MUJOCO_SWIMMER_H_
#define ENVPOOL_MUJOCO_SWIMMER_H_

#include "envpool/mujoco/mujoco_sim.h"
#include "envpool/numpy/linalg.h"
#include "envpool/numpy/sum.h"

namespace envpool::mujoco {

class Swimmer : public MujocoTask {
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
    const bool exclude =
        config.Get<bool>("exclude_current_positions_from_observation");
    return {ObsSpec(model->nq + model->nv - (exclude ? 2 : 0)),
            ActionSpec(*model),
            InfoSpecs(*model, {"x_position", "y_position",
                               "distance_from_origin", "x_velocity",
                               "y_velocity", "reward_forward", "reward_ctrl"})};
  }

  explicit Swimmer(const Config& config)
      : MujocoTask(config),
        forward_reward_weight_(config.Get<double>("forward_reward_weight")),
        ctrl_cost_weight_(config.Get<double>("ctrl_cost_weight")),
        reset_noise_scale_(config.Get<double>("reset_noise_scale")),
        skip_(config.Get<bool>("exclude_current_positions_from_observation")
                  ? 2
                  : 0) {}

  void Reset(Rng& rng, Output& out) {
    sim_.ResetWithNoise(rng, reset_noise_scale_, /*normal_qvel=*/false);
    WritePosition(out);
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    const double x_before = sim_.qpos()[0];
    const double y_before = sim_.qpos()[1];
    sim_.DoSimulation(action);
    const double x_velocity = (sim_.qpos()[0] - x_before) / sim_.dt();
    const double y_velocity = (sim_.qpos()[1] - y_before) / sim_.dt();
    const double forward_reward = forward_reward_weight_ * x_velocity;
    const float ctrl_cost = ControlCost(ctrl_cost_weight_, action);
    out.reward = forward_reward - static_cast<double>(ctrl_cost);
    WritePosition(out);
    SetInfo(out, kXVelocity, x_velocity);
    SetInfo(out, kYVelocity, y_velocity);
    SetInfo(out, kRewardForward, forward_reward);
    SetInfo(out, kRewardCtrl, -ctrl_cost);
    Write(out);
  }

 private:
  enum Info : std::size_t {
    kXPosition,
    kYPosition,
    kDistanceFromOrigin,
    kXVelocity,
    kYVelocity,
    kRewardForward,
    kRewardCtrl,
    kQpos0
  };

  void WritePosition(Output& out) const {
    SetInfo(out, kXPosition, sim_.qpos()[0]);
    SetInfo(out, kYPosition, sim_.qpos()[1]);
    SetInfo(out, kDistanceFromOrigin, NormUnfused(sim_.qpos().first(2)));
  }

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

#endif  // ENVPOOL_MUJOCO_SWIMMER_H_
