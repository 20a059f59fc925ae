// Ant-v5: a four-legged robot rewarded for walking forward while staying up.
// A port of gymnasium 1.4's envs/mujoco/ant_v5.py.
#ifndef ENVPOOL_MUJOCO_ANT_H_
#define ENVPOOL_MUJOCO_ANT_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "envpool/mujoco/locomotion.h"
#include "envpool/numpy/sum.h"

namespace envpool::mujoco {

class Ant : public ForwardTask {
 public:
  static Config DefaultConfig() {
    return MujocoConfig(
        "ant.xml", 5,
        {{"forward_reward_weight", 1.0},
         {"ctrl_cost_weight", 0.5},
         {"contact_cost_weight", 5e-4},
         {"healthy_reward", 1.0},
         {"main_body", std::string("1")},
         {"terminate_when_unhealthy", true},
         {"healthy_z_range", std::vector<double>{0.2, 1.0}},
         {"contact_force_range", std::vector<double>{-1.0, 1.0}},
         {"reset_noise_scale", 0.1},
         {"exclude_current_positions_from_observation", true},
         {"include_cfrc_ext_in_observation", true}},
        CameraConfig{.distance = 4.0});
  }

  static EnvSpec Spec(const Config& config) {
    const auto model = LoadModel(config);
    std::int64_t size = StateSize(config, *model, 2);
    if (config.Get<bool>("include_cfrc_ext_in_observation")) {
      size += 6 * (model->nbody - 1);
    }
    return {ObsSpec(size), ActionSpec(*model),
            InfoSpecs(*model,
                      FloorInfo::Names({"reward_forward", "reward_ctrl",
                                        "reward_contact", "reward_survive"}))};
  }

  explicit Ant(const Config& config)
      : ForwardTask(config, 2),
        contact_cost_weight_(config.Get<double>("contact_cost_weight")),
        health_(config),
        contact_force_(RangeOption(config, "contact_force_range")),
        include_cfrc_ext_(config.Get<bool>("include_cfrc_ext_in_observation")),
        main_body_(BodyOption(sim_, config.Get<std::string>("main_body"))) {}

  void Reset(Rng& rng, Output& out) {
    ResetWithNoise(rng, /*normal_qvel=*/true);
    FloorInfo::WritePosition(out, sim_.qpos());
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    const auto velocity = sim_.DoSimulation(action, [this] {
      const auto position = sim_.BodyPos(main_body_);
      return std::array{position[0], position[1]};
    });

    const double forward_reward = ForwardReward(velocity[0]);
    const double healthy_reward = health_.Reward(IsHealthy());
    const double rewards = forward_reward + healthy_reward;
    const float ctrl_cost = CtrlCost(action);
    const double contact_cost = contact_cost_weight_ * ContactSumOfSquares();
    const double costs = static_cast<double>(ctrl_cost) + contact_cost;
    out.reward = rewards - costs;
    out.terminated = health_.Terminated(IsHealthy());

    FloorInfo::WritePosition(out, sim_.qpos());
    FloorInfo::WriteVelocity(out, velocity);
    SetInfo(out, kRewardForward, forward_reward);
    SetInfo(out, kRewardCtrl, -ctrl_cost);
    SetInfo(out, kRewardContact, -contact_cost);
    SetInfo(out, kRewardSurvive, healthy_reward);
    Write(out);
  }

 private:
  enum Info : std::size_t {
    kRewardForward = FloorInfo::kEnd,
    kRewardCtrl,
    kRewardContact,
    kRewardSurvive,
    kQpos0
  };

  // A body id, or a body name (gymnasium takes either).
  static int BodyOption(const MujocoSim& sim, const std::string& body) {
    const bool is_id = !body.empty() && std::ranges::all_of(body, [](char c) {
      return c >= '0' && c <= '9';
    });
    if (!is_id) {
      return sim.BodyId(body.c_str());
    }
    const int id = body.size() <= 6 ? std::stoi(body) : -1;
    if (id < 0 || id >= sim.model().nbody) {
      throw std::invalid_argument("option 'main_body': the model has no body " +
                                  body + " (it has " +
                                  std::to_string(sim.model().nbody) + ")");
    }
    return id;
  }

  // Every qpos and qvel finite, and the torso height within the range
  // (inclusive).
  bool IsHealthy() const {
    return health_.FiniteWithin(sim_.qpos(), sim_.qvel());
  }

  double ClippedForce(double f) const {
    return Clip(f, contact_force_.first, contact_force_.second);
  }

  double ContactSumOfSquares() const {
    const mjData& d = sim_.data();
    return NumpySum(d.cfrc_ext,
                    6 * static_cast<std::size_t>(sim_.model().nbody),
                    [this](double f) {
                      const double c = ClippedForce(f);
                      return c * c;
                    });
  }

  void Write(Output& out) {
    ObsWriter obs = WritePositions(out);
    obs.Put(sim_.qvel());
    if (include_cfrc_ext_) {
      const mjData& d = sim_.data();
      const std::span<const double> forces(
          d.cfrc_ext + 6, 6 * static_cast<std::size_t>(sim_.model().nbody - 1));
      obs.PutClipped(forces, contact_force_.first, contact_force_.second);
    }
    sim_.WriteInitialState(out, kQpos0);
  }

  double contact_cost_weight_;
  HealthOptions health_;
  std::pair<double, double> contact_force_;
  bool include_cfrc_ext_;
  int main_body_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_ANT_H_
