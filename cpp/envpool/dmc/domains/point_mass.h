// Point mass (dm_control suite/point_mass.py): push a planar point mass to a
// target; "hard" mixes the two actuators' directions at random (wrap_prm).
#ifndef ENVPOOL_DMC_DOMAINS_POINT_MASS_H_
#define ENVPOOL_DMC_DOMAINS_POINT_MASS_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "envpool/dmc/dmc_env.h"

namespace envpool::dmc::point_mass {

class PointMass {
 public:
  static constexpr Timing kTiming{.time_limit = 20, .control_timestep = 0.02};

  static Config Options() { return {{"randomize_gains", false}}; }

  static std::vector<ArraySpec> Observations(const mjModel& m,
                                             const Config& /*config*/) {
    return StateObservations(m);
  }

  static std::vector<std::string> DrawnModelValues(const mjModel& /*m*/,
                                                   const Config& config) {
    if (!config.Get<bool>("randomize_gains")) {
      return {};
    }
    return {"wrap_prm"};
  }

  PointMass(const Config& config, const Physics& physics)
      : randomize_gains_(config.Get<bool>("randomize_gains")),
        pointmass_(physics.Id(mjOBJ_GEOM, "pointmass")),
        target_(physics.Id(mjOBJ_GEOM, "target")) {}

  void Initialize(Physics& physics, Rng& rng) {
    RandomizeLimitedAndRotationalJoints(physics, rng);
    if (!randomize_gains_) {
      return;
    }
    const auto direction = [&rng] {
      std::array<double, 2> dir{rng.Normal(), rng.Normal()};
      const double norm = NpNorm(dir);
      dir[0] /= norm;
      dir[1] /= norm;
      return dir;
    };
    const std::array<double, 2> dir1 = direction();
    std::array<double, 2> dir2{};
    // Redraw the second direction while it is nearly parallel to the first.
    do {
      dir2 = direction();
    } while (std::abs(NpDot(dir1, dir2)) > 0.9);
    double* wrap_prm = physics.model().wrap_prm;
    wrap_prm[0] = dir1[0];
    wrap_prm[1] = dir1[1];
    wrap_prm[2] = dir2[0];
    wrap_prm[3] = dir2[1];
  }

  void Observe(const Physics& physics, Output& out) const {
    ObserveState(physics, out);
  }

  double Reward(const Physics& physics) const {
    const mjModel& m = physics.model();
    const mjData& d = physics.data();
    std::array<double, 3> mass_to_target{};
    for (int i = 0; i < 3; ++i) {
      mass_to_target[i] =
          d.geom_xpos[3 * target_ + i] - d.geom_xpos[3 * pointmass_ + i];
    }
    const double target_size = m.geom_size[3 * target_];
    const double near_target =
        Tolerance(NpNorm(mass_to_target),
                  {.lower = 0, .upper = target_size, .margin = target_size});
    const double control_reward = MeanTolerance(
        {d.ctrl, static_cast<std::size_t>(m.nu)},
        {.margin = 1, .sigmoid = Sigmoid::kQuadratic, .value_at_margin = 0});
    const double small_control = (control_reward + 4) / 5;
    return near_target * small_control;
  }

 private:
  bool randomize_gains_;
  int pointmass_;
  int target_;
};

}  // namespace envpool::dmc::point_mass

#endif  // ENVPOOL_DMC_DOMAINS_POINT_MASS_H_
