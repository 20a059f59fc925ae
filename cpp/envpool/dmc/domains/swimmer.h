// Swimmer (dm_control suite/swimmer.py): an n-link planar swimmer reaching a
// random target; the model with n links comes from
// envpool.families.dmc.tasks.
#ifndef ENVPOOL_DMC_DOMAINS_SWIMMER_H_
#define ENVPOOL_DMC_DOMAINS_SWIMMER_H_

#include <array>
#include <string>
#include <vector>

#include "envpool/dmc/dmc_env.h"

namespace envpool::dmc::swimmer {

// The head's sensors (nose, target, axes, velocimeter, gyro) fill the first
// 12 sensordata entries; each link adds a velocimeter and a gyro after them.
constexpr int kHeadSensors = 12;

class Swimmer {
 public:
  static constexpr Timing kTiming{.time_limit = 30, .control_timestep = 0.03};

  static std::vector<ArraySpec> Observations(const mjModel& m,
                                             const Config& /*config*/) {
    const int links = (m.nsensordata - kHeadSensors) / 6;
    return {Observation("joints", {m.nq - 3}), Observation("to_target", {2}),
            Observation("body_velocities", {3 * links})};
  }

  static std::vector<std::string> DrawnModelValues(const mjModel& /*m*/,
                                                   const Config& /*config*/) {
    return {"geom_pos:target", "light_pos:target_light"};
  }

  Swimmer(const Config& /*config*/, const Physics& physics)
      : head_(physics.Id(mjOBJ_BODY, "head")),
        nose_(physics.Id(mjOBJ_GEOM, "nose")),
        target_(physics.Id(mjOBJ_GEOM, "target")),
        target_light_(physics.Id(mjOBJ_LIGHT, "target_light")) {}

  void Initialize(Physics& physics, Rng& rng) {
    RandomizeLimitedAndRotationalJoints(physics, rng);
    const bool close_target = rng.Uniform() < 0.2;
    const double box = close_target ? 0.3 : 2;
    const double x = rng.Uniform(-box, box);
    const double y = rng.Uniform(-box, box);
    mjModel& m = physics.model();
    m.geom_pos[3 * target_] = x;
    m.geom_pos[3 * target_ + 1] = y;
    m.light_pos[3 * target_light_] = x;
    m.light_pos[3 * target_light_ + 1] = y;
  }

  void Observe(const Physics& physics, Output& out) const {
    const mjModel& m = physics.model();
    const mjData& d = physics.data();
    std::copy_n(d.qpos + 3, m.nq - 3, out.Obs<double>(0).begin());
    const auto to_target = NoseToTarget(d);
    std::copy_n(to_target.begin(), 2, out.Obs<double>(1).begin());
    auto velocities = out.Obs<double>(2);
    const int links = (m.nsensordata - kHeadSensors) / 6;
    for (int i = 0; i < links; ++i) {
      const double* s = d.sensordata + kHeadSensors + 6 * i;
      velocities[3 * i] = s[0];
      velocities[3 * i + 1] = s[1];
      velocities[3 * i + 2] = s[5];
    }
  }

  double Reward(const Physics& physics) const {
    const double size = physics.model().geom_size[3 * target_];
    const auto to_target = NoseToTarget(physics.data());
    return Tolerance(NpNorm(std::span<const double>(to_target.data(), 2)),
                     {.lower = 0,
                      .upper = size,
                      .margin = 5 * size,
                      .sigmoid = Sigmoid::kLongTail});
  }

 private:
  // The target seen from the nose, in the head's frame (all 3 coordinates;
  // the task uses x and y).
  std::array<double, 3> NoseToTarget(const mjData& d) const {
    std::array<double, 3> local{};
    EgocentricVector(d.geom_xpos + 3 * target_, d.geom_xpos + 3 * nose_,
                     d.xmat + 9 * head_, local.data());
    return local;
  }

  int head_;
  int nose_;
  int target_;
  int target_light_;
};

}  // namespace envpool::dmc::swimmer

#endif  // ENVPOOL_DMC_DOMAINS_SWIMMER_H_
