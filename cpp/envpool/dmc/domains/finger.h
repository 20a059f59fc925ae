// Finger (dm_control suite/finger.py): a two-link planar finger that spins a
// hinged body (spin) or turns its tip onto a random target (turn_easy,
// turn_hard, told apart by the target's radius).
#ifndef ENVPOOL_DMC_DOMAINS_FINGER_H_
#define ENVPOOL_DMC_DOMAINS_FINGER_H_

#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/dmc/dmc_env.h"

namespace envpool::dmc::finger {

class Finger {
 public:
  static constexpr Timing kTiming{.time_limit = 20, .control_timestep = 0.02};

  static Config Options() { return {{"turn", false}, {"target_radius", 0.07}}; }

  static std::vector<ArraySpec> Observations(const mjModel& /*m*/,
                                             const Config& config) {
    std::vector<ArraySpec> obs{Observation("position", {4}),
                               Observation("velocity", {3}),
                               Observation("touch", {2})};
    if (config.Get<bool>("turn")) {
      obs.push_back(Observation("target_position", {2}));
      obs.push_back(Observation("dist_to_target", {}));
    }
    return obs;
  }

  static std::vector<std::string> DrawnModelValues(const mjModel& /*m*/,
                                                   const Config& config) {
    if (!config.Get<bool>("turn")) {
      return {};
    }
    return {"site_pos:target", "site_size:target"};
  }

  Finger(const Config& config, const Physics& physics)
      : turn_(config.Get<bool>("turn")),
        target_radius_(config.Get<double>("target_radius")),
        hinge_(physics.Id(mjOBJ_JOINT, "hinge")),
        hinge_dof_(physics.DofAddr("hinge")),
        cap1_(physics.Id(mjOBJ_GEOM, "cap1")),
        target_(physics.Id(mjOBJ_SITE, "target")),
        tip_site_(physics.Id(mjOBJ_SITE, "tip")),
        proximal_(physics.SensorAddr("proximal")),
        distal_(physics.SensorAddr("distal")),
        proximal_velocity_(physics.SensorAddr("proximal_velocity")),
        distal_velocity_(physics.SensorAddr("distal_velocity")),
        hinge_velocity_(physics.SensorAddr("hinge_velocity")),
        tip_(physics.SensorAddr("tip")),
        target_sensor_(physics.SensorAddr("target")),
        spinner_(physics.SensorAddr("spinner")),
        touchtop_(physics.SensorAddr("touchtop")),
        touchbottom_(physics.SensorAddr("touchbottom")) {
    if (turn_ && !(target_radius_ > 0)) {
      throw std::invalid_argument("option 'target_radius' must be > 0");
    }
  }

  void Initialize(Physics& physics, Rng& rng) {
    mjModel& m = physics.model();
    const mjData& d = physics.data();
    if (turn_) {
      const double angle = rng.Uniform(-std::numbers::pi, std::numbers::pi);
      const double hinge_x = d.xanchor[3 * hinge_];
      const double hinge_z = d.xanchor[3 * hinge_ + 2];
      const double radius =
          NumpySum(m.geom_size + 3 * cap1_, 3, [](double v) { return v; });
      m.site_pos[3 * target_] = hinge_x + radius * NpSin(angle);
      m.site_pos[3 * target_ + 2] = hinge_z + radius * NpCos(angle);
      m.site_size[3 * target_] = target_radius_;
    } else {
      m.site_rgba[4 * target_ + 3] = 0;
      m.site_rgba[4 * tip_site_ + 3] = 0;
      m.dof_damping[hinge_dof_] = 0.03;
    }
    SetRandomJointAngles(physics, rng);
  }

  void Observe(const Physics& physics, Output& out) const {
    const double* s = physics.data().sensordata;
    auto position = out.Obs<double>(0);
    position[0] = s[proximal_];
    position[1] = s[distal_];
    position[2] = s[tip_] - s[spinner_];
    position[3] = s[tip_ + 2] - s[spinner_ + 2];
    auto velocity = out.Obs<double>(1);
    velocity[0] = s[proximal_velocity_];
    velocity[1] = s[distal_velocity_];
    velocity[2] = s[hinge_velocity_];
    auto touch = out.Obs<double>(2);
    touch[0] = NpLog1p(s[touchtop_]);
    touch[1] = NpLog1p(s[touchbottom_]);
    if (turn_) {
      auto target = out.Obs<double>(3);
      target[0] = s[target_sensor_] - s[spinner_];
      target[1] = s[target_sensor_ + 2] - s[spinner_ + 2];
      out.Obs<double>(4)[0] = DistToTarget(physics);
    }
  }

  double Reward(const Physics& physics) const {
    if (turn_) {
      return DistToTarget(physics) <= 0 ? 1.0 : 0.0;
    }
    return physics.data().sensordata[hinge_velocity_] <= -kSpinVelocity ? 1.0
                                                                        : 0.0;
  }

 private:
  static constexpr double kSpinVelocity = 15.0;
  static constexpr int kMaxAttempts = 1000;

  static void SetRandomJointAngles(Physics& physics, Rng& rng) {
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
      RandomizeLimitedAndRotationalJoints(physics, rng);
      physics.AfterReset();
      if (physics.data().ncon == 0) {
        return;
      }
    }
    throw std::runtime_error(
        "Finger: no collision-free start after 1000 attempts");
  }

  // The tip-to-target vector's length less the target's radius, each
  // position taken relative to the spinner as dm_control does.
  double DistToTarget(const Physics& physics) const {
    const double* s = physics.data().sensordata;
    const std::array<double, 2> to_target{
        (s[target_sensor_] - s[spinner_]) - (s[tip_] - s[spinner_]),
        (s[target_sensor_ + 2] - s[spinner_ + 2]) -
            (s[tip_ + 2] - s[spinner_ + 2])};
    return NpNorm(to_target) - physics.model().site_size[3 * target_];
  }

  bool turn_;
  double target_radius_;
  int hinge_;
  int hinge_dof_;
  int cap1_;
  int target_;
  int tip_site_;
  int proximal_;
  int distal_;
  int proximal_velocity_;
  int distal_velocity_;
  int hinge_velocity_;
  int tip_;
  int target_sensor_;
  int spinner_;
  int touchtop_;
  int touchbottom_;
};

}  // namespace envpool::dmc::finger

#endif  // ENVPOOL_DMC_DOMAINS_FINGER_H_
