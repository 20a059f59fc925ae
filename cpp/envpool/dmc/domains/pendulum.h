// Pendulum (dm_control suite/pendulum.py): swing a torque-limited pendulum
// up and keep it within 8 degrees of upright.
#ifndef ENVPOOL_DMC_DOMAINS_PENDULUM_H_
#define ENVPOOL_DMC_DOMAINS_PENDULUM_H_

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "envpool/dmc/dmc_env.h"

namespace envpool::dmc::pendulum {

class Pendulum {
 public:
  static constexpr Timing kTiming{.time_limit = 20, .control_timestep = 0.02};

  static std::vector<ArraySpec> Observations(const mjModel& /*m*/,
                                             const Config& /*config*/) {
    return {Observation("orientation", {2}), Observation("velocity", {1})};
  }

  Pendulum(const Config& /*config*/, const Physics& physics)
      : hinge_qpos_(physics.QposAddr("hinge")),
        hinge_dof_(physics.DofAddr("hinge")),
        pole_(physics.Id(mjOBJ_BODY, "pole")) {}

  void Initialize(Physics& physics, Rng& rng) {
    physics.data().qpos[hinge_qpos_] =
        rng.Uniform(-std::numbers::pi, std::numbers::pi);
  }

  void Observe(const Physics& physics, Output& out) const {
    const mjData& d = physics.data();
    auto orientation = out.Obs<double>(0);
    orientation[0] = d.xmat[9 * pole_ + 8];
    orientation[1] = d.xmat[9 * pole_ + 2];
    out.Obs<double>(1)[0] = d.qvel[hinge_dof_];
  }

  double Reward(const Physics& physics) const {
    return Tolerance(physics.data().xmat[9 * pole_ + 8],
                     {.lower = kCosineBound, .upper = 1});
  }

 private:
  // np.cos(np.deg2rad(8)).
  inline static const double kCosineBound =
      std::cos(8.0 * (std::numbers::pi / 180.0));

  int hinge_qpos_;
  int hinge_dof_;
  int pole_;
};

}  // namespace envpool::dmc::pendulum

#endif  // ENVPOOL_DMC_DOMAINS_PENDULUM_H_
