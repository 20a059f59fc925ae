// Walker (dm_control suite/walker.py): a planar biped that stands, walks or
// runs at a target speed (move_speed 0 means stand).
#ifndef ENVPOOL_DMC_DOMAINS_WALKER_H_
#define ENVPOOL_DMC_DOMAINS_WALKER_H_

#include <vector>

#include "envpool/dmc/dmc_env.h"

namespace envpool::dmc::walker {

class Walker {
 public:
  static constexpr Timing kTiming{.time_limit = 25, .control_timestep = 0.025};

  static Config Options() { return {{"move_speed", 0.0}}; }

  static std::vector<ArraySpec> Observations(const mjModel& m,
                                             const Config& /*config*/) {
    return {Observation("orientations", {2 * (m.nbody - 1)}),
            Observation("height", {}), Observation("velocity", {m.nv})};
  }

  Walker(const Config& config, const Physics& physics)
      : move_speed_(config.Get<double>("move_speed")),
        torso_(physics.Id(mjOBJ_BODY, "torso")),
        speed_(physics.SensorAddr("torso_subtreelinvel")) {}

  void Initialize(Physics& physics, Rng& rng) {
    RandomizeLimitedAndRotationalJoints(physics, rng);
  }

  void Observe(const Physics& physics, Output& out) const {
    const mjModel& m = physics.model();
    const mjData& d = physics.data();
    auto orientations = out.Obs<double>(0);
    for (int b = 1; b < m.nbody; ++b) {
      orientations[2 * (b - 1)] = d.xmat[9 * b];
      orientations[2 * (b - 1) + 1] = d.xmat[9 * b + 2];
    }
    out.Obs<double>(1)[0] = d.xpos[3 * torso_ + 2];
    std::copy_n(d.qvel, m.nv, out.Obs<double>(2).begin());
  }

  double Reward(const Physics& physics) const {
    const mjData& d = physics.data();
    const double standing =
        Tolerance(d.xpos[3 * torso_ + 2], {.lower = kStandHeight,
                                           .upper = kInfinity,
                                           .margin = kStandHeight / 2});
    const double upright = (1 + d.xmat[9 * torso_ + 8]) / 2;
    const double stand_reward = (3 * standing + upright) / 4;
    if (move_speed_ == 0) {
      return stand_reward;
    }
    const double move_reward =
        AtLeast(d.sensordata[speed_], {.lower = move_speed_,
                                       .margin = move_speed_ / 2,
                                       .value_at_margin = 0.5});
    return stand_reward * (5 * move_reward + 1) / 6;
  }

 private:
  static constexpr double kStandHeight = 1.2;
  double move_speed_;
  int torso_;
  int speed_;
};

}  // namespace envpool::dmc::walker

#endif  // ENVPOOL_DMC_DOMAINS_WALKER_H_
