// Humanoid (dm_control suite/humanoid.py): a 21-joint humanoid that stands,
// walks or runs; pure_state observes the raw qpos/qvel instead of features.
#ifndef ENVPOOL_DMC_DOMAINS_HUMANOID_H_
#define ENVPOOL_DMC_DOMAINS_HUMANOID_H_

#include <array>
#include <vector>

#include "envpool/dmc/dmc_env.h"

namespace envpool::dmc::humanoid {

constexpr double kStandHeight = 1.4;
constexpr std::array<const char*, 4> kExtremities = {
    "left_hand", "left_foot", "right_hand", "right_foot"};

class Humanoid {
 public:
  static constexpr Timing kTiming{.time_limit = 25, .control_timestep = 0.025};

  static Config Options() {
    return {{"move_speed", 0.0}, {"pure_state", false}};
  }

  static std::vector<ArraySpec> Observations(const mjModel& m,
                                             const Config& config) {
    if (config.Get<bool>("pure_state")) {
      return StateObservations(m);
    }
    return {Observation("joint_angles", {m.nq - 7}),
            Observation("head_height", {}),
            Observation("extremities", {3 * kExtremities.size()}),
            Observation("torso_vertical", {3}),
            Observation("com_velocity", {3}),
            Observation("velocity", {m.nv})};
  }

  Humanoid(const Config& config, const Physics& physics)
      : move_speed_(config.Get<double>("move_speed")),
        pure_state_(config.Get<bool>("pure_state")),
        torso_(physics.Id(mjOBJ_BODY, "torso")),
        head_(physics.Id(mjOBJ_BODY, "head")),
        com_velocity_(physics.SensorAddr("torso_subtreelinvel")) {
    for (std::size_t i = 0; i < kExtremities.size(); ++i) {
      extremities_[i] = physics.Id(mjOBJ_BODY, kExtremities[i]);
    }
  }

  // Redraws the joints until the body penetrates nothing.
  void Initialize(Physics& physics, Rng& rng) {
    do {
      RandomizeLimitedAndRotationalJoints(physics, rng);
      physics.AfterReset();
    } while (physics.data().ncon > 0);
  }

  void Observe(const Physics& physics, Output& out) const {
    const mjModel& m = physics.model();
    const mjData& d = physics.data();
    if (pure_state_) {
      ObserveState(physics, out);
      return;
    }
    std::copy_n(d.qpos + 7, m.nq - 7, out.Obs<double>(0).begin());
    out.Obs<double>(1)[0] = HeadHeight(d);
    auto extremities = out.Obs<double>(2);
    const double* torso_pos = d.xpos + 3 * torso_;
    const double* torso_frame = d.xmat + 9 * torso_;
    for (std::size_t i = 0; i < kExtremities.size(); ++i) {
      EgocentricVector(d.xpos + 3 * extremities_[i], torso_pos, torso_frame,
                       &extremities[3 * i]);
    }
    std::copy_n(torso_frame + 6, 3, out.Obs<double>(3).begin());
    std::copy_n(d.sensordata + com_velocity_, 3, out.Obs<double>(4).begin());
    std::copy_n(d.qvel, m.nv, out.Obs<double>(5).begin());
  }

  double Reward(const Physics& physics) const {
    const mjModel& m = physics.model();
    const mjData& d = physics.data();
    const double standing =
        Tolerance(HeadHeight(d), {.lower = kStandHeight,
                                  .upper = kInfinity,
                                  .margin = kStandHeight / 4});
    const double upright =
        AtLeast(d.xmat[9 * torso_ + 8],
                {.lower = 0.9, .margin = 1.9, .value_at_margin = 0});
    const double stand_reward = standing * upright;
    const double small_control =
        (4 + MeanTolerance({d.ctrl, static_cast<std::size_t>(m.nu)},
                           {.margin = 1,
                            .sigmoid = Sigmoid::kQuadratic,
                            .value_at_margin = 0})) /
        5;
    const std::span<const double> horizontal_velocity(
        d.sensordata + com_velocity_, 2);
    if (move_speed_ == 0) {
      const double dont_move =
          MeanTolerance(horizontal_velocity, {.margin = 2});
      return small_control * stand_reward * dont_move;
    }
    const double move = AtLeast(
        NpNorm(horizontal_velocity),
        {.lower = move_speed_, .margin = move_speed_, .value_at_margin = 0});
    return small_control * stand_reward * ((5 * move + 1) / 6);
  }

 private:
  double HeadHeight(const mjData& d) const { return d.xpos[3 * head_ + 2]; }

  double move_speed_;
  bool pure_state_;
  int torso_;
  int head_;
  int com_velocity_;
  std::array<int, kExtremities.size()> extremities_{};
};

}  // namespace envpool::dmc::humanoid

#endif  // ENVPOOL_DMC_DOMAINS_HUMANOID_H_
