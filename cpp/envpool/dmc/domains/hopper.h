// Hopper (dm_control suite/hopper.py): a one-legged planar hopper that stands
// upright or hops forward.
#ifndef ENVPOOL_DMC_DOMAINS_HOPPER_H_
#define ENVPOOL_DMC_DOMAINS_HOPPER_H_

#include <cmath>
#include <vector>

#include "envpool/dmc/dmc_env.h"

namespace envpool::dmc::hopper {

class Hopper {
 public:
  static constexpr Timing kTiming{.time_limit = 20, .control_timestep = 0.02};

  static Config Options() { return {{"hopping", false}}; }

  static std::vector<ArraySpec> Observations(const mjModel& m,
                                             const Config& /*config*/) {
    std::vector<ArraySpec> keys = StateObservations(m, kFirstQpos);
    keys.push_back(Observation("touch", {2}));
    return keys;
  }

  Hopper(const Config& config, const Physics& physics)
      : hopping_(config.Get<bool>("hopping")),
        torso_(physics.Id(mjOBJ_BODY, "torso")),
        foot_(physics.Id(mjOBJ_BODY, "foot")),
        speed_(physics.SensorAddr("torso_subtreelinvel")),
        touch_toe_(physics.SensorAddr("touch_toe")),
        touch_heel_(physics.SensorAddr("touch_heel")) {}

  void Initialize(Physics& physics, Rng& rng) {
    RandomizeLimitedAndRotationalJoints(physics, rng);
  }

  void Observe(const Physics& physics, Output& out) const {
    ObserveState(physics, out, kFirstQpos);
    const double* sensors = physics.data().sensordata;
    auto touch = out.Obs<double>(2);
    touch[0] = NpLog1p(sensors[touch_toe_]);
    touch[1] = NpLog1p(sensors[touch_heel_]);
  }

  double Reward(const Physics& physics) const {
    const mjModel& m = physics.model();
    const mjData& d = physics.data();
    const double height = d.xipos[3 * torso_ + 2] - d.xipos[3 * foot_ + 2];
    const double standing =
        Tolerance(height, {.lower = kStandHeight, .upper = 2});
    if (hopping_) {
      const double hopping =
          AtLeast(d.sensordata[speed_], {.lower = kHopSpeed,
                                         .margin = kHopSpeed / 2,
                                         .value_at_margin = 0.5});
      return standing * hopping;
    }
    const double small_control =
        (MeanTolerance({d.ctrl, static_cast<std::size_t>(m.nu)},
                       {.margin = 1,
                        .sigmoid = Sigmoid::kQuadratic,
                        .value_at_margin = 0}) +
         4) /
        5;
    return standing * small_control;
  }

 private:
  // The observed qpos leaves out the horizontal position.
  static constexpr int kFirstQpos = 1;
  static constexpr double kStandHeight = 0.6;
  static constexpr double kHopSpeed = 2;
  bool hopping_;
  int torso_;
  int foot_;
  int speed_;
  int touch_toe_;
  int touch_heel_;
};

}  // namespace envpool::dmc::hopper

#endif  // ENVPOOL_DMC_DOMAINS_HOPPER_H_
