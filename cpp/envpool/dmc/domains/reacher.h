// Reacher (dm_control suite/reacher.py): bring a two-link planar arm's
// fingertip onto a randomly placed target of the task's size.
#ifndef ENVPOOL_DMC_DOMAINS_REACHER_H_
#define ENVPOOL_DMC_DOMAINS_REACHER_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/dmc/dmc_env.h"

namespace envpool::dmc::reacher {

class Reacher {
 public:
  static constexpr Timing kTiming{.time_limit = 20, .control_timestep = 0.02};

  static Config Options() { return {{"target_size", 0.05}}; }

  static std::vector<ArraySpec> Observations(const mjModel& m,
                                             const Config& /*config*/) {
    return {Observation("position", {m.nq}), Observation("to_target", {2}),
            Observation("velocity", {m.nv})};
  }

  static std::vector<std::string> DrawnModelValues(const mjModel& /*m*/,
                                                   const Config& /*config*/) {
    return {"geom_pos:target", "geom_size:target"};
  }

  Reacher(const Config& config, const Physics& physics)
      : target_size_(config.Get<double>("target_size")),
        target_(physics.Id(mjOBJ_GEOM, "target")),
        finger_(physics.Id(mjOBJ_GEOM, "finger")) {
    if (!(target_size_ > 0)) {
      throw std::invalid_argument("option 'target_size' must be > 0");
    }
  }

  void Initialize(Physics& physics, Rng& rng) {
    mjModel& m = physics.model();
    m.geom_size[3 * target_] = target_size_;
    RandomizeLimitedAndRotationalJoints(physics, rng);
    const double angle = rng.Uniform(0, 2 * std::numbers::pi);
    const double radius = rng.Uniform(0.05, 0.20);
    m.geom_pos[3 * target_] = radius * NpSin(angle);
    m.geom_pos[3 * target_ + 1] = radius * NpCos(angle);
  }

  void Observe(const Physics& physics, Output& out) const {
    const mjModel& m = physics.model();
    const mjData& d = physics.data();
    std::copy_n(d.qpos, m.nq, out.Obs<double>(0).begin());
    const auto to_target = FingerToTarget(d);
    std::ranges::copy(to_target, out.Obs<double>(1).begin());
    std::copy_n(d.qvel, m.nv, out.Obs<double>(2).begin());
  }

  double Reward(const Physics& physics) const {
    const mjModel& m = physics.model();
    const double radii = m.geom_size[3 * target_] + m.geom_size[3 * finger_];
    return Tolerance(NpNorm(FingerToTarget(physics.data())),
                     {.lower = 0, .upper = radii});
  }

 private:
  std::array<double, 2> FingerToTarget(const mjData& d) const {
    return {d.geom_xpos[3 * target_] - d.geom_xpos[3 * finger_],
            d.geom_xpos[3 * target_ + 1] - d.geom_xpos[3 * finger_ + 1]};
  }

  double target_size_;
  int target_;
  int finger_;
};

}  // namespace envpool::dmc::reacher

#endif  // ENVPOOL_DMC_DOMAINS_REACHER_H_
