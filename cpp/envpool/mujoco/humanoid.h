// Humanoid-v5 (walk forward without falling) and HumanoidStandup-v5 (stand
// up from lying down): one 3D humanoid model with two reward schemes.
// Ports of gymnasium 1.4's envs/mujoco/humanoid_v5.py and
// humanoidstandup_v5.py.
#ifndef ENVPOOL_MUJOCO_HUMANOID_H_
#define ENVPOOL_MUJOCO_HUMANOID_H_

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "envpool/mujoco/locomotion.h"
#include "envpool/numpy/sum.h"

namespace envpool::mujoco {

// The observation both tasks share, and its options.
class HumanoidBody : public MujocoTask {
 public:
  // MujocoConfig for a humanoid task: its own options, then the
  // observation's.
  static Config HumanoidConfig(const std::string& xml_file, Config own,
                               CameraConfig camera) {
    own.Set("reset_noise_scale", 1e-2);
    own.Set("exclude_current_positions_from_observation", true);
    own.Set("include_cinert_in_observation", true);
    own.Set("include_cvel_in_observation", true);
    own.Set("include_qfrc_actuator_in_observation", true);
    own.Set("include_cfrc_ext_in_observation", true);
    return MujocoConfig(xml_file, 5, own, std::move(camera));
  }

  // The task's scalar infos are `info_names`; the tendons' lengths and
  // velocities, then the initial state, follow them.
  static EnvSpec HumanoidSpec(const Config& config,
                              const std::vector<const char*>& info_names) {
    const auto model = LoadModel(config);
    return {
        ObsSpec(ObsSize(config, *model)), ActionSpec(*model),
        InfoSpecs(*model, info_names,
                  {MakeArray<double>("tendon_length", {model->ntendon}),
                   MakeArray<double>("tendon_velocity", {model->ntendon})})};
  }

 protected:
  // `scalar_infos`: how many scalar infos the task has before the tendons'.
  HumanoidBody(const Config& config, std::size_t scalar_infos)
      : MujocoTask(config),
        tendon_info_(scalar_infos),
        reset_noise_scale_(config.Get<double>("reset_noise_scale")),
        skip_(ExcludesPositions(config) ? 2 : 0),
        cinert_(config.Get<bool>("include_cinert_in_observation")),
        cvel_(config.Get<bool>("include_cvel_in_observation")),
        qfrc_actuator_(
            config.Get<bool>("include_qfrc_actuator_in_observation")),
        cfrc_ext_(config.Get<bool>("include_cfrc_ext_in_observation")) {
    if (sim_.nv() < 6) {
      throw std::invalid_argument("a humanoid model needs a free root joint");
    }
  }

  void ResetBody(Rng& rng) {
    sim_.ResetWithNoise(rng, reset_noise_scale_, /*normal_qvel=*/false);
  }

  void WriteObs(Output& out) const {
    const mjData& d = sim_.data();
    const auto bodies = static_cast<std::size_t>(sim_.model().nbody - 1);
    ObsWriter obs(out);
    obs.Put(sim_.qpos().subspan(skip_)).Put(sim_.qvel());
    if (cinert_) {
      obs.Put({d.cinert + 10, 10 * bodies});
    }
    if (cvel_) {
      obs.Put({d.cvel + 6, 6 * bodies});
    }
    if (qfrc_actuator_) {
      obs.Put({d.qfrc_actuator + 6, sim_.nv() - 6});
    }
    if (cfrc_ext_) {
      obs.Put({d.cfrc_ext + 6, 6 * bodies});
    }
  }

  // The observation, the tendons' infos and the initial state.
  void Write(Output& out) {
    WriteObs(out);
    const mjData& d = sim_.data();
    const auto n = static_cast<std::size_t>(sim_.model().ntendon);
    std::copy(d.ten_length, d.ten_length + n,
              out.Info<double>(tendon_info_).begin());
    std::copy(d.ten_velocity, d.ten_velocity + n,
              out.Info<double>(tendon_info_ + 1).begin());
    sim_.WriteInitialState(out, tendon_info_ + 2);
  }

  // np.sum(np.square(data.ctrl)): the float64 controls, not the action.
  double CtrlSumOfSquares() const {
    return NumpySumOfSquares(sim_.data().ctrl,
                             static_cast<std::size_t>(sim_.model().nu));
  }

  double CfrcExtSumOfSquares() const {
    return NumpySumOfSquares(sim_.data().cfrc_ext,
                             6 * static_cast<std::size_t>(sim_.model().nbody));
  }

  std::size_t tendon_info_;
  double reset_noise_scale_;
  std::size_t skip_;
  bool cinert_;
  bool cvel_;
  bool qfrc_actuator_;
  bool cfrc_ext_;

 private:
  static std::int64_t ObsSize(const Config& config, const mjModel& model) {
    const std::int64_t bodies = model.nbody - 1;
    std::int64_t size = model.nq + model.nv;
    size -= ExcludesPositions(config) ? 2 : 0;
    size += config.Get<bool>("include_cinert_in_observation") ? 10 * bodies : 0;
    size += config.Get<bool>("include_cvel_in_observation") ? 6 * bodies : 0;
    size += config.Get<bool>("include_qfrc_actuator_in_observation")
                ? model.nv - 6
                : 0;
    size +=
        config.Get<bool>("include_cfrc_ext_in_observation") ? 6 * bodies : 0;
    return size;
  }
};

class Humanoid : public HumanoidBody {
 public:
  static Config DefaultConfig() {
    return HumanoidConfig(
        "humanoid.xml",
        {{"forward_reward_weight", 1.25},
         {"ctrl_cost_weight", 0.1},
         {"contact_cost_weight", 5e-7},
         {"contact_cost_range", std::vector<double>{-kInf, 10.0}},
         {"healthy_reward", 5.0},
         {"terminate_when_unhealthy", true},
         {"healthy_z_range", std::vector<double>{1.0, 2.0}}},
        CameraConfig{
            .distance = 4.0, .elevation = -20.0, .lookat = {0.0, 0.0, 2.0}});
  }

  static EnvSpec Spec(const Config& config) {
    return HumanoidSpec(config,
                        FloorInfo::Names({"reward_survive", "reward_forward",
                                          "reward_ctrl", "reward_contact"}));
  }

  explicit Humanoid(const Config& config)
      : HumanoidBody(config, kTendonLength),
        forward_reward_weight_(config.Get<double>("forward_reward_weight")),
        ctrl_cost_weight_(config.Get<double>("ctrl_cost_weight")),
        contact_cost_weight_(config.Get<double>("contact_cost_weight")),
        contact_cost_range_(RangeOption(config, "contact_cost_range")),
        health_(config) {
    const mjModel& m = sim_.model();
    total_mass_ = NumpySum(m.body_mass, static_cast<std::size_t>(m.nbody),
                           [](double v) { return v; });
  }

  void Reset(Rng& rng, Output& out) {
    ResetBody(rng);
    FloorInfo::WritePosition(out, sim_.qpos());
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    const auto velocity =
        sim_.DoSimulation(action, [this] { return MassCenter(); });

    const double forward_reward = forward_reward_weight_ * velocity[0];
    const double z = sim_.qpos()[2];
    const bool healthy =
        health_.z_range.first < z && z < health_.z_range.second;
    const double healthy_reward = health_.Reward(healthy);
    const double ctrl_cost = ctrl_cost_weight_ * CtrlSumOfSquares();
    const double contact_cost =
        Clip(contact_cost_weight_ * CfrcExtSumOfSquares(),
             contact_cost_range_.first, contact_cost_range_.second);
    out.reward = (forward_reward + healthy_reward) - (ctrl_cost + contact_cost);
    out.terminated = health_.Terminated(healthy);

    FloorInfo::WritePosition(out, sim_.qpos());
    FloorInfo::WriteVelocity(out, velocity);
    SetInfo(out, kRewardSurvive, healthy_reward);
    SetInfo(out, kRewardForward, forward_reward);
    SetInfo(out, kRewardCtrl, -ctrl_cost);
    SetInfo(out, kRewardContact, -contact_cost);
    Write(out);
  }

 private:
  enum Info : std::size_t {
    kRewardSurvive = FloorInfo::kEnd,
    kRewardForward,
    kRewardCtrl,
    kRewardContact,
    kTendonLength
  };

  // The (x, y) of the centre of mass: sum(mass * xipos) / total mass.
  std::array<double, 2> MassCenter() const {
    const mjModel& m = sim_.model();
    const mjData& d = sim_.data();
    std::array<double, 2> num{0.0, 0.0};
    for (int b = 0; b < m.nbody; ++b) {
      const double* xipos = d.xipos + 3 * static_cast<std::ptrdiff_t>(b);
      num[0] += m.body_mass[b] * xipos[0];
      num[1] += m.body_mass[b] * xipos[1];
    }
    return {num[0] / total_mass_, num[1] / total_mass_};
  }

  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double contact_cost_weight_;
  std::pair<double, double> contact_cost_range_;
  HealthOptions health_;
  double total_mass_ = 0.0;
};

class HumanoidStandup : public HumanoidBody {
 public:
  static Config DefaultConfig() {
    return HumanoidConfig(
        "humanoidstandup.xml",
        {{"uph_cost_weight", 1.0},
         {"ctrl_cost_weight", 0.1},
         {"impact_cost_weight", 5e-7},
         {"impact_cost_range", std::vector<double>{-kInf, 10.0}}},
        CameraConfig{
            .distance = 4.0, .elevation = -20.0, .lookat = {0.0, 0.0, 0.8925}});
  }

  static EnvSpec Spec(const Config& config) {
    return HumanoidSpec(config,
                        {"x_position", "y_position", "z_distance_from_origin",
                         "reward_linup", "reward_quadctrl", "reward_impact"});
  }

  explicit HumanoidStandup(const Config& config)
      : HumanoidBody(config, kTendonLength),
        ctrl_cost_weight_(config.Get<double>("ctrl_cost_weight")),
        impact_cost_weight_(config.Get<double>("impact_cost_weight")),
        impact_cost_range_(RangeOption(config, "impact_cost_range")) {}

  void Reset(Rng& rng, Output& out) {
    ResetBody(rng);
    WritePosition(out);
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    sim_.DoSimulation(action);
    // gymnasium 1.4 reads uph_cost_weight but does not apply it.
    const double uph_cost = (sim_.qpos()[2] - 0) / sim_.model().opt.timestep;
    const double ctrl_cost = ctrl_cost_weight_ * CtrlSumOfSquares();
    const double impact_cost =
        Clip(impact_cost_weight_ * CfrcExtSumOfSquares(),
             impact_cost_range_.first, impact_cost_range_.second);
    out.reward = uph_cost - ctrl_cost - impact_cost + 1;
    WritePosition(out);
    SetInfo(out, kRewardLinup, uph_cost);
    SetInfo(out, kRewardQuadctrl, -ctrl_cost);
    SetInfo(out, kRewardImpact, -impact_cost);
    Write(out);
  }

 private:
  enum Info : std::size_t {
    kXPosition,
    kYPosition,
    kZDistanceFromOrigin,
    kRewardLinup,
    kRewardQuadctrl,
    kRewardImpact,
    kTendonLength
  };

  void WritePosition(Output& out) const {
    const auto qpos = sim_.qpos();
    SetInfo(out, kXPosition, qpos[0]);
    SetInfo(out, kYPosition, qpos[1]);
    SetInfo(out, kZDistanceFromOrigin, qpos[2] - sim_.init_qpos()[2]);
  }

  double ctrl_cost_weight_;
  double impact_cost_weight_;
  std::pair<double, double> impact_cost_range_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_HUMANOID_H_
