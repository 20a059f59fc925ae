// Acrobot (dm_control suite/acrobot.py): swing a two-link arm, actuated at
// the elbow only, so that its tip reaches a target above the shoulder.
#ifndef ENVPOOL_DMC_DOMAINS_ACROBOT_H_
#define ENVPOOL_DMC_DOMAINS_ACROBOT_H_

#include <algorithm>
#include <array>
#include <numbers>
#include <vector>

#include "envpool/dmc/dmc_env.h"

namespace envpool::dmc::acrobot {

class Acrobot {
 public:
  static constexpr Timing kTiming{.time_limit = 10, .control_timestep = 0.01};

  static Config Options() { return {{"sparse", false}}; }

  static std::vector<ArraySpec> Observations(const mjModel& /*m*/,
                                             const Config& /*config*/) {
    return {Observation("orientations", {4}), Observation("velocity", {2})};
  }

  Acrobot(const Config& config, const Physics& physics)
      : sparse_(config.Get<bool>("sparse")),
        shoulder_(physics.QposAddr("shoulder")),
        elbow_(physics.QposAddr("elbow")),
        upper_arm_(physics.Id(mjOBJ_BODY, "upper_arm")),
        lower_arm_(physics.Id(mjOBJ_BODY, "lower_arm")),
        target_(physics.Id(mjOBJ_SITE, "target")),
        tip_(physics.Id(mjOBJ_SITE, "tip")) {}

  void Initialize(Physics& physics, Rng& rng) {
    mjData& d = physics.data();
    d.qpos[shoulder_] = rng.Uniform(-std::numbers::pi, std::numbers::pi);
    d.qpos[elbow_] = rng.Uniform(-std::numbers::pi, std::numbers::pi);
  }

  void Observe(const Physics& physics, Output& out) const {
    const mjData& d = physics.data();
    auto orientations = out.Obs<double>(0);
    orientations[0] = d.xmat[9 * upper_arm_ + 2];
    orientations[1] = d.xmat[9 * lower_arm_ + 2];
    orientations[2] = d.xmat[9 * upper_arm_ + 8];
    orientations[3] = d.xmat[9 * lower_arm_ + 8];
    std::copy_n(d.qvel, physics.model().nv, out.Obs<double>(1).begin());
  }

  double Reward(const Physics& physics) const {
    const mjData& d = physics.data();
    std::array<double, 3> tip_to_target{};
    for (int i = 0; i < 3; ++i) {
      tip_to_target[i] =
          d.site_xpos[3 * target_ + i] - d.site_xpos[3 * tip_ + i];
    }
    const double target_radius = physics.model().site_size[3 * target_];
    return Tolerance(
        NpNorm(tip_to_target),
        {.lower = 0, .upper = target_radius, .margin = sparse_ ? 0.0 : 1.0});
  }

 private:
  bool sparse_;
  int shoulder_;
  int elbow_;
  int upper_arm_;
  int lower_arm_;
  int target_;
  int tip_;
};

}  // namespace envpool::dmc::acrobot

#endif  // ENVPOOL_DMC_DOMAINS_ACROBOT_H_
