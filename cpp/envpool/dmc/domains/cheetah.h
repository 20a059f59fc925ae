// Cheetah (dm_control suite/cheetah.py): a planar cheetah running forward as
// fast as it can.
#ifndef ENVPOOL_DMC_DOMAINS_CHEETAH_H_
#define ENVPOOL_DMC_DOMAINS_CHEETAH_H_

#include <vector>

#include "envpool/dmc/dmc_env.h"

namespace envpool::dmc::cheetah {

class Cheetah {
 public:
  static constexpr Timing kTiming{.time_limit = 10, .control_timestep = 0.01};

  static std::vector<ArraySpec> Observations(const mjModel& m,
                                             const Config& /*config*/) {
    return StateObservations(m, kFirstQpos);
  }

  Cheetah(const Config& /*config*/, const Physics& physics)
      : speed_(physics.SensorAddr("torso_subtreelinvel")) {}

  void Initialize(Physics& physics, Rng& rng) {
    const mjModel& m = physics.model();
    mjData& d = physics.data();
    // Every joint has one dof, so joint j's qpos entry is j.
    for (int j = 0; j < m.njnt; ++j) {
      if (m.jnt_limited[j] == 1) {
        d.qpos[j] = rng.Uniform(m.jnt_range[2 * j], m.jnt_range[2 * j + 1]);
      }
    }
    // Let the cheetah settle: one physics.step(nstep=200) call.
    physics.Step(200);
    d.time = 0;
  }

  void Observe(const Physics& physics, Output& out) const {
    ObserveState(physics, out, kFirstQpos);
  }

  double Reward(const Physics& physics) const {
    return AtLeast(
        physics.data().sensordata[speed_],
        {.lower = kRunSpeed, .margin = kRunSpeed, .value_at_margin = 0});
  }

 private:
  // The observed qpos leaves out the horizontal position.
  static constexpr int kFirstQpos = 1;
  static constexpr double kRunSpeed = 10;
  int speed_;
};

}  // namespace envpool::dmc::cheetah

#endif  // ENVPOOL_DMC_DOMAINS_CHEETAH_H_
