// Cartpole (dm_control suite/cartpole.py): swing up or balance one or more
// poles on a cart; the model with n poles comes from
// envpool.families.dmc.tasks.
#ifndef ENVPOOL_DMC_DOMAINS_CARTPOLE_H_
#define ENVPOOL_DMC_DOMAINS_CARTPOLE_H_

#include <cmath>
#include <numbers>
#include <vector>

#include "envpool/dmc/dmc_env.h"

namespace envpool::dmc::cartpole {

class Cartpole {
 public:
  static constexpr Timing kTiming{.time_limit = 10, .control_timestep = 0.01};

  static Config Options() { return {{"swing_up", true}, {"sparse", false}}; }

  static std::vector<ArraySpec> Observations(const mjModel& m,
                                             const Config& /*config*/) {
    const int poles = m.nbody - 2;
    return {Observation("position", {1 + 2 * poles}),
            Observation("velocity", {m.nv})};
  }

  Cartpole(const Config& config, const Physics& physics)
      : swing_up_(config.Get<bool>("swing_up")),
        sparse_(config.Get<bool>("sparse")),
        slider_(physics.QposAddr("slider")),
        hinge_1_(physics.QposAddr("hinge_1")) {}

  void Initialize(Physics& physics, Rng& rng) {
    mjData& d = physics.data();
    const int nv = physics.model().nv;
    if (swing_up_) {
      d.qpos[slider_] = 0.01 * rng.Normal();
      d.qpos[hinge_1_] = std::numbers::pi + 0.01 * rng.Normal();
      for (int i = 2; i < nv; ++i) {
        d.qpos[i] = 0.1 * rng.Normal();
      }
    } else {
      d.qpos[slider_] = rng.Uniform(-0.1, 0.1);
      for (int i = 1; i < nv; ++i) {
        d.qpos[i] = rng.Uniform(-0.034, 0.034);
      }
    }
    for (int i = 0; i < nv; ++i) {
      d.qvel[i] = 0.01 * rng.Normal();
    }
  }

  void Observe(const Physics& physics, Output& out) const {
    const mjModel& m = physics.model();
    const mjData& d = physics.data();
    auto position = out.Obs<double>(0);
    position[0] = d.qpos[slider_];
    for (int b = 2; b < m.nbody; ++b) {
      position[1 + 2 * (b - 2)] = d.xmat[9 * b + 8];
      position[2 + 2 * (b - 2)] = d.xmat[9 * b + 2];
    }
    std::copy_n(d.qvel, m.nv, out.Obs<double>(1).begin());
  }

  double Reward(const Physics& physics) {
    const mjModel& m = physics.model();
    const mjData& d = physics.data();
    const double cart_position = d.qpos[slider_];
    const int poles = m.nbody - 2;
    if (sparse_) {
      const double cart_in_bounds =
          Tolerance(cart_position, {.lower = -0.25, .upper = 0.25});
      double angle_in_bounds = 1.0;
      for (int b = 2; b < m.nbody; ++b) {
        const double t =
            Tolerance(d.xmat[9 * b + 8], {.lower = 0.995, .upper = 1.0});
        angle_in_bounds = b == 2 ? t : angle_in_bounds * t;
      }
      return cart_in_bounds * angle_in_bounds;
    }
    upright_.resize(poles);
    for (int b = 2; b < m.nbody; ++b) {
      upright_[b - 2] = (d.xmat[9 * b + 8] + 1) / 2;
    }
    const double centered = (1 + Tolerance(cart_position, {.margin = 2})) / 2;
    // tolerance of the control and velocity arrays
    const double small_control = (4 + Tolerance(d.ctrl[0],
                                                {.margin = 1,
                                                 .sigmoid = Sigmoid::kQuadratic,
                                                 .value_at_margin = 0},
                                                Operand::kArrayElement)) /
                                 5;
    double small_velocity = kInfinity;
    for (int i = 1; i < m.nv; ++i) {
      small_velocity =
          std::min(small_velocity,
                   Tolerance(d.qvel[i], {.margin = 5}, Operand::kArrayElement));
    }
    small_velocity = (1 + small_velocity) / 2;
    return NpMean(upright_) * small_control * small_velocity * centered;
  }

 private:
  bool swing_up_;
  bool sparse_;
  int slider_;
  int hinge_1_;
  std::vector<double> upright_;
};

}  // namespace envpool::dmc::cartpole

#endif  // ENVPOOL_DMC_DOMAINS_CARTPOLE_H_
