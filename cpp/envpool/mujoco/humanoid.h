// Humanoid-v5 (walk forward without falling) and HumanoidStandup-v5 (stand
// up from lying down): one 3D humanoid model with two reward schemes.
// Ports of gymnasium 1.4's envs/mujoco/humanoid_v5.py and
// humanoidstandup_v5.py.
#ifndef ENVPOOL_MUJOCO_HUMANOID_H_
#define ENVPOOL_MUJOCO_HUMANOID_H_

#include <array>
#include <cstddef>
#include <vector>

#include "envpool/mujoco/mujoco_sim.h"
#include "envpool/numpy/linalg.h"
#include "envpool/numpy/sum.h"

namespace envpool::mujoco {

// The observation both tasks share, and its options.
class HumanoidBody : public MujocoTask {
 public:
  static Config ObservationOptions() {
    return {{"reset_noise_scale", 1e-2},
            {"exclude_current_positions_from_observation", true},
            {"include_cinert_in_observation", true},
            {"include_cvel_in_observation", true},
            {"include_qfrc_actuator_in_observation", true},
            {"include_cfrc_ext_in_observation", true}};
  }

  static ArraySpec Obs(const Config& config, const mjModel& model) {
    const std::int64_t bodies = model.nbody - 1;
    std::int64_t size = model.nq + model.nv;
    size -=
        config.Get<bool>("exclude_current_positions_from_observation") ? 2 : 0;
    size += config.Get<bool>("include_cinert_in_observation") ? 10 * bodies : 0;
    size += config.Get<bool>("include_cvel_in_observation") ? 6 * bodies : 0;
    size += config.Get<bool>("include_qfrc_actuator_in_observation")
                ? model.nv - 6
                : 0;
    size +=
        config.Get<bool>("include_cfrc_ext_in_observation") ? 6 * bodies : 0;
    return ObsSpec(size);
  }

  static std::vector<ArraySpec> Tendons(const mjModel& model) {
    return {MakeArray<double>("tendon_length", {model.ntendon}),
            MakeArray<double>("tendon_velocity", {model.ntendon})};
  }

 protected:
  explicit HumanoidBody(const Config& config)
      : MujocoTask(config),
        reset_noise_scale_(config.Get<double>("reset_noise_scale")),
        skip_(config.Get<bool>("exclude_current_positions_from_observation")
                  ? 2
                  : 0),
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

  void WriteTendons(Output& out, std::size_t length_index) const {
    const mjData& d = sim_.data();
    const auto n = static_cast<std::size_t>(sim_.model().ntendon);
    std::copy(d.ten_length, d.ten_length + n,
              out.Info<double>(length_index).begin());
    std::copy(d.ten_velocity, d.ten_velocity + n,
              out.Info<double>(length_index + 1).begin());
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

  double reset_noise_scale_;
  std::size_t skip_;
  bool cinert_;
  bool cvel_;
  bool qfrc_actuator_;
  bool cfrc_ext_;
};

class Humanoid : public HumanoidBody {
 public:
  static Config DefaultConfig() {
    Config own{{"forward_reward_weight", 1.25},
               {"ctrl_cost_weight", 0.1},
               {"contact_cost_weight", 5e-7},
               {"contact_cost_range", std::vector<double>{-kInf, 10.0}},
               {"healthy_reward", 5.0},
               {"terminate_when_unhealthy", true},
               {"healthy_z_range", std::vector<double>{1.0, 2.0}}};
    const Config observation = HumanoidBody::ObservationOptions();
    for (const auto& [name, value] : observation.items()) {
      own.Set(name, value);
    }
    return MujocoConfig(
        "humanoid.xml", 5, own,
        CameraConfig{
            .distance = 4.0, .elevation = -20.0, .lookat = {0.0, 0.0, 2.0}});
  }

  static EnvSpec Spec(const Config& config) {
    const auto model = LoadModel(config);
    return {HumanoidBody::Obs(config, *model), ActionSpec(*model),
            InfoSpecs(*model,
                      {"x_position", "y_position", "distance_from_origin",
                       "x_velocity", "y_velocity", "reward_survive",
                       "reward_forward", "reward_ctrl", "reward_contact"},
                      HumanoidBody::Tendons(*model))};
  }

  explicit Humanoid(const Config& config)
      : HumanoidBody(config),
        forward_reward_weight_(config.Get<double>("forward_reward_weight")),
        ctrl_cost_weight_(config.Get<double>("ctrl_cost_weight")),
        contact_cost_weight_(config.Get<double>("contact_cost_weight")),
        contact_cost_range_(RangeOption(config, "contact_cost_range")),
        healthy_reward_(config.Get<double>("healthy_reward")),
        terminate_when_unhealthy_(config.Get<bool>("terminate_when_unhealthy")),
        healthy_z_(RangeOption(config, "healthy_z_range")) {
    const mjModel& m = sim_.model();
    total_mass_ = NumpySum(m.body_mass, static_cast<std::size_t>(m.nbody),
                           [](double v) { return v; });
  }

  void Reset(Rng& rng, Output& out) {
    ResetBody(rng);
    WritePosition(out);
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    const auto before = MassCenter();
    sim_.DoSimulation(action);
    const auto after = MassCenter();
    const double dt = sim_.dt();
    const double x_velocity = (after[0] - before[0]) / dt;
    const double y_velocity = (after[1] - before[1]) / dt;

    const double forward_reward = forward_reward_weight_ * x_velocity;
    const double z = sim_.qpos()[2];
    const bool healthy = healthy_z_.first < z && z < healthy_z_.second;
    const double healthy_reward = healthy ? healthy_reward_ : 0.0;
    const double ctrl_cost = ctrl_cost_weight_ * CtrlSumOfSquares();
    const double contact_cost =
        Clip(contact_cost_weight_ * CfrcExtSumOfSquares(),
             contact_cost_range_.first, contact_cost_range_.second);
    out.reward = (forward_reward + healthy_reward) - (ctrl_cost + contact_cost);
    out.terminated = !healthy && terminate_when_unhealthy_;

    WritePosition(out);
    SetInfo(out, kXVelocity, x_velocity);
    SetInfo(out, kYVelocity, y_velocity);
    SetInfo(out, kRewardSurvive, healthy_reward);
    SetInfo(out, kRewardForward, forward_reward);
    SetInfo(out, kRewardCtrl, -ctrl_cost);
    SetInfo(out, kRewardContact, -contact_cost);
    Write(out);
  }

 private:
  enum Info : std::size_t {
    kXPosition,
    kYPosition,
    kDistanceFromOrigin,
    kXVelocity,
    kYVelocity,
    kRewardSurvive,
    kRewardForward,
    kRewardCtrl,
    kRewardContact,
    kTendonLength,
    kTendonVelocity,
    kQpos0
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

  void WritePosition(Output& out) const {
    const auto qpos = sim_.qpos();
    SetInfo(out, kXPosition, qpos[0]);
    SetInfo(out, kYPosition, qpos[1]);
    SetInfo(out, kDistanceFromOrigin, NormUnfused(qpos.first(2)));
    WriteTendons(out, kTendonLength);
  }

  void Write(Output& out) {
    WriteObs(out);
    sim_.WriteInitialState(out, kQpos0);
  }

  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double contact_cost_weight_;
  std::pair<double, double> contact_cost_range_;
  double healthy_reward_;
  bool terminate_when_unhealthy_;
  std::pair<double, double> healthy_z_;
  double total_mass_ = 0.0;
};

class HumanoidStandup : public HumanoidBody {
 public:
  static Config DefaultConfig() {
    Config own{{"uph_cost_weight", 1.0},
               {"ctrl_cost_weight", 0.1},
               {"impact_cost_weight", 5e-7},
               {"impact_cost_range", std::vector<double>{-kInf, 10.0}}};
    const Config observation = HumanoidBody::ObservationOptions();
    for (const auto& [name, value] : observation.items()) {
      own.Set(name, value);
    }
    return MujocoConfig(
        "humanoidstandup.xml", 5, own,
        CameraConfig{
            .distance = 4.0, .elevation = -20.0, .lookat = {0.0, 0.0, 0.8925}});
  }

  static EnvSpec Spec(const Config& config) {
    const auto model = LoadModel(config);
    return {HumanoidBody::Obs(config, *model), ActionSpec(*model),
            InfoSpecs(*model,
                      {"x_position", "y_position", "z_distance_from_origin",
                       "reward_linup", "reward_quadctrl", "reward_impact"},
                      HumanoidBody::Tendons(*model))};
  }

  explicit HumanoidStandup(const Config& config)
      : HumanoidBody(config),
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
    kTendonLength,
    kTendonVelocity,
    kQpos0
  };

  void WritePosition(Output& out) const {
    const auto qpos = sim_.qpos();
    SetInfo(out, kXPosition, qpos[0]);
    SetInfo(out, kYPosition, qpos[1]);
    SetInfo(out, kZDistanceFromOrigin, qpos[2] - sim_.init_qpos()[2]);
    WriteTendons(out, kTendonLength);
  }

  void Write(Output& out) {
    WriteObs(out);
    sim_.WriteInitialState(out, kQpos0);
  }

  double ctrl_cost_weight_;
  double impact_cost_weight_;
  std::pair<double, double> impact_cost_range_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_HUMANOID_H_
