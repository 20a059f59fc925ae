// InvertedPendulum-v5 and InvertedDoublePendulum-v5: keep a pole (or two
// stacked poles) upright on a cart. Ports of gymnasium 1.4's
// envs/mujoco/inverted_pendulum_v5.py and inverted_double_pendulum_v5.py.
#ifndef ENVPOOL_MUJOCO_INVERTED_PENDULUM_H_
#define ENVPOOL_MUJOCO_INVERTED_PENDULUM_H_

#include <cmath>

#include "envpool/mujoco/mujoco_sim.h"
#include "envpool/numpy/scalar.h"
#include "envpool/numpy/ufuncs.h"

namespace envpool::mujoco {

class InvertedPendulum : public MujocoTask {
 public:
  static Config DefaultConfig() {
    return MujocoConfig("inverted_pendulum.xml", 2,
                        {{"reset_noise_scale", 0.01}},
                        CameraConfig{.distance = 2.04});
  }

  static EnvSpec Spec(const Config& config) {
    const auto model = LoadModel(config);
    return {ObsSpec(model->nq + model->nv), ActionSpec(*model),
            InfoSpecs(*model, {"reward_survive"})};
  }

  explicit InvertedPendulum(const Config& config)
      : MujocoTask(config),
        reset_noise_scale_(config.Get<double>("reset_noise_scale")) {}

  void Reset(Rng& rng, Output& out) {
    sim_.ResetWithNoise(rng, reset_noise_scale_, /*normal_qvel=*/false);
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    sim_.DoSimulation(action);
    Write(out);
    // Not finite anywhere, or the pole more than 0.2 rad from upright.
    bool terminated = std::abs(sim_.qpos()[1]) > 0.2;
    for (double v : out.Obs<double>()) {
      terminated = terminated || !std::isfinite(v);
    }
    out.terminated = terminated;
    out.reward = terminated ? 0.0 : 1.0;
    SetInfo(out, kRewardSurvive, out.reward);
  }

 private:
  enum Info : std::size_t { kRewardSurvive, kQpos0 };

  void Write(Output& out) {
    ObsWriter(out).Put(sim_.qpos()).Put(sim_.qvel());
    sim_.WriteInitialState(out, kQpos0);
  }

  double reset_noise_scale_;
};

class InvertedDoublePendulum : public MujocoTask {
 public:
  static Config DefaultConfig() {
    return MujocoConfig(
        "inverted_double_pendulum.xml", 5,
        {{"healthy_reward", 10.0}, {"reset_noise_scale", 0.1}},
        CameraConfig{.distance = 4.1225, .lookat = {0.0, 0.0, 0.1225}});
  }

  static EnvSpec Spec(const Config& config) {
    const auto model = LoadModel(config);
    return {ObsSpec(9), ActionSpec(*model),
            InfoSpecs(*model, {"reward_survive", "distance_penalty",
                               "velocity_penalty"})};
  }

  explicit InvertedDoublePendulum(const Config& config)
      : MujocoTask(config),
        healthy_reward_(config.Get<double>("healthy_reward")),
        reset_noise_scale_(config.Get<double>("reset_noise_scale")) {
    if (sim_.nq() != 3 || sim_.nv() != 3 || sim_.model().nsite < 1) {
      throw std::invalid_argument(
          "InvertedDoublePendulum needs a model with 3 joints and a tip site");
    }
  }

  void Reset(Rng& rng, Output& out) {
    sim_.ResetWithNoise(rng, reset_noise_scale_, /*normal_qvel=*/true);
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    sim_.DoSimulation(action);
    const double* tip = sim_.data().site_xpos;
    const double x = tip[0];
    const double y = tip[2];
    Write(out);
    const bool terminated = y <= 1.0;
    const double v1 = sim_.qvel()[1];
    const double v2 = sim_.qvel()[2];
    // `x ** 2` on numpy float64 scalars is libm's pow, which differs from
    // x * x in the last bit for about one input in 2000.
    const double dist_penalty = 0.01 * LibmPow(x, 2.0) + LibmPow(y - 2, 2.0);
    const double vel_penalty =
        0.001 * LibmPow(v1, 2.0) + 0.005 * LibmPow(v2, 2.0);
    const double alive_bonus = terminated ? 0.0 : healthy_reward_;
    out.terminated = terminated;
    out.reward = alive_bonus - dist_penalty - vel_penalty;
    SetInfo(out, kRewardSurvive, alive_bonus);
    SetInfo(out, kDistancePenalty, -dist_penalty);
    SetInfo(out, kVelocityPenalty, -vel_penalty);
  }

 private:
  enum Info : std::size_t {
    kRewardSurvive,
    kDistancePenalty,
    kVelocityPenalty,
    kQpos0
  };

  void Write(Output& out) {
    const auto qpos = sim_.qpos();
    ObsWriter(out)
        .Put(qpos[0])
        .Put(NpSin(qpos[1]))
        .Put(NpSin(qpos[2]))
        .Put(NpCos(qpos[1]))
        .Put(NpCos(qpos[2]))
        .PutClipped(sim_.qvel(), -10.0, 10.0)
        .Put(Clip(sim_.data().qfrc_constraint[0], -10.0, 10.0));
    sim_.WriteInitialState(out, kQpos0);
  }

  double healthy_reward_;
  double reset_noise_scale_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_INVERTED_PENDULUM_H_
