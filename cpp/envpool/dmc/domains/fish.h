// Fish (dm_control suite/fish.py): turn a fish upright, or swim its mouth to
// a randomly placed target, in a gravity-free fluid.
#ifndef ENVPOOL_DMC_DOMAINS_FISH_H_
#define ENVPOOL_DMC_DOMAINS_FISH_H_

#include <array>
#include <string>
#include <vector>

#include "envpool/dmc/dmc_env.h"

namespace envpool::dmc::fish {

constexpr std::array<const char*, 7> kJoints = {
    "tail1",          "tail_twist",   "tail2",        "finright_roll",
    "finright_pitch", "finleft_roll", "finleft_pitch"};

class Fish {
 public:
  static constexpr Timing kTiming{.time_limit = 40, .control_timestep = 0.04};

  static Config Options() { return {{"swim", true}}; }

  static std::vector<ArraySpec> Observations(const mjModel& m,
                                             const Config& config) {
    std::vector<ArraySpec> obs{Observation("joint_angles", {kJoints.size()}),
                               Observation("upright", {})};
    if (config.Get<bool>("swim")) {
      obs.push_back(Observation("target", {3}));
    }
    obs.push_back(Observation("velocity", {m.nv}));
    return obs;
  }

  static std::vector<std::string> DrawnModelValues(const mjModel& /*m*/,
                                                   const Config& config) {
    if (!config.Get<bool>("swim")) {
      return {};
    }
    return {"geom_pos:target"};
  }

  Fish(const Config& config, const Physics& physics)
      : swim_(config.Get<bool>("swim")),
        root_(physics.QposAddr("root")),
        torso_(physics.Id(mjOBJ_BODY, "torso")),
        target_(physics.Id(mjOBJ_GEOM, "target")),
        mouth_(physics.Id(mjOBJ_GEOM, "mouth")) {
    for (std::size_t i = 0; i < kJoints.size(); ++i) {
      qpos_[i] = physics.QposAddr(kJoints[i]);
    }
  }

  void Initialize(Physics& physics, Rng& rng) {
    mjModel& m = physics.model();
    double* qpos = physics.data().qpos;
    const auto quat = RandomUnitQuaternion([&] { return rng.Normal(); });
    std::copy(quat.begin(), quat.end(), qpos + root_ + 3);
    for (int addr : qpos_) {
      qpos[addr] = rng.Uniform(-0.2, 0.2);
    }
    if (swim_) {
      double* pos = m.geom_pos + 3 * target_;
      pos[0] = rng.Uniform(-0.4, 0.4);
      pos[1] = rng.Uniform(-0.4, 0.4);
      pos[2] = rng.Uniform(0.1, 0.3);
    } else {
      m.geom_rgba[4 * target_ + 3] = 0;
    }
  }

  void Observe(const Physics& physics, Output& out) const {
    const mjData& d = physics.data();
    std::size_t key = 0;
    auto joint_angles = out.Obs<double>(key++);
    for (std::size_t i = 0; i < kJoints.size(); ++i) {
      joint_angles[i] = d.qpos[qpos_[i]];
    }
    out.Obs<double>(key++)[0] = Upright(d);
    if (swim_) {
      MouthToTarget(d, out.Obs<double>(key++).data());
    }
    std::copy_n(d.qvel, physics.model().nv, out.Obs<double>(key).begin());
  }

  double Reward(const Physics& physics) const {
    const mjData& d = physics.data();
    if (!swim_) {
      return Tolerance(Upright(d), {.lower = 1, .upper = 1, .margin = 1});
    }
    const mjModel& m = physics.model();
    const double radii = m.geom_size[3 * mouth_] + m.geom_size[3 * target_];
    std::array<double, 3> to_target{};
    MouthToTarget(d, to_target.data());
    const double in_target = Tolerance(
        NpNorm(to_target), {.lower = 0, .upper = radii, .margin = 2 * radii});
    const double is_upright = 0.5 * (Upright(d) + 1);
    return (7 * in_target + is_upright) / 8;
  }

 private:
  double Upright(const mjData& d) const { return d.xmat[9 * torso_ + 8]; }

  // The target seen from the mouth, in the mouth's frame.
  void MouthToTarget(const mjData& d, double* out) const {
    EgocentricVector(d.geom_xpos + 3 * target_, d.geom_xpos + 3 * mouth_,
                     d.geom_xmat + 9 * mouth_, out);
  }

  bool swim_;
  int root_;
  int torso_;
  int target_;
  int mouth_;
  std::array<int, kJoints.size()> qpos_{};
};

}  // namespace envpool::dmc::fish

#endif  // ENVPOOL_DMC_DOMAINS_FISH_H_
