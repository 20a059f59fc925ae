// Ball-in-Cup (dm_control suite/ball_in_cup.py): swing a ball on a string
// into the cup it hangs from; reward 1 while the ball is in the cup.
#ifndef ENVPOOL_DMC_DOMAINS_BALL_IN_CUP_H_
#define ENVPOOL_DMC_DOMAINS_BALL_IN_CUP_H_

#include <cmath>
#include <vector>

#include "envpool/dmc/dmc_env.h"

namespace envpool::dmc::ball_in_cup {

class BallInCup {
 public:
  static constexpr Timing kTiming{.time_limit = 20, .control_timestep = 0.02};

  static std::vector<ArraySpec> Observations(const mjModel& m,
                                             const Config& /*config*/) {
    return StateObservations(m);
  }

  BallInCup(const Config& /*config*/, const Physics& physics)
      : ball_x_(physics.QposAddr("ball_x")),
        ball_z_(physics.QposAddr("ball_z")),
        target_(physics.Id(mjOBJ_SITE, "target")),
        ball_(physics.Id(mjOBJ_BODY, "ball")),
        ball_geom_(physics.Id(mjOBJ_GEOM, "ball")) {}

  void Initialize(Physics& physics, Rng& rng) {
    mjData& d = physics.data();
    do {
      d.qpos[ball_x_] = rng.Uniform(-0.2, 0.2);
      d.qpos[ball_z_] = rng.Uniform(0.2, 0.5);
      physics.AfterReset();
    } while (d.ncon > 0);
  }

  void Observe(const Physics& physics, Output& out) const {
    ObserveState(physics, out);
  }

  double Reward(const Physics& physics) const {
    const mjModel& m = physics.model();
    const mjData& d = physics.data();
    const double ball_size = m.geom_size[3 * ball_geom_];
    const double dx = d.site_xpos[3 * target_] - d.xpos[3 * ball_];
    const double dz = d.site_xpos[3 * target_ + 2] - d.xpos[3 * ball_ + 2];
    const bool in_target =
        std::abs(dx) < m.site_size[3 * target_] - ball_size &&
        std::abs(dz) < m.site_size[3 * target_ + 2] - ball_size;
    return in_target ? 1.0 : 0.0;
  }

 private:
  int ball_x_;
  int ball_z_;
  int target_;
  int ball_;
  int ball_geom_;
};

}  // namespace envpool::dmc::ball_in_cup

#endif  // ENVPOOL_DMC_DOMAINS_BALL_IN_CUP_H_
