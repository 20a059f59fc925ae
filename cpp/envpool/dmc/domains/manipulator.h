// Manipulator (dm_control suite/manipulator.py): a planar arm brings a ball or
// a peg to a target, or inserts it into a cup or slot. The model, made by
// envpool.families.dmc.tasks, holds only the task's props, which select the
// task.
#ifndef ENVPOOL_DMC_DOMAINS_MANIPULATOR_H_
#define ENVPOOL_DMC_DOMAINS_MANIPULATOR_H_

#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "envpool/dmc/dmc_env.h"

namespace envpool::dmc::manipulator {

constexpr std::array<const char*, 8> kArmJoints = {
    "arm_root", "arm_shoulder", "arm_elbow", "arm_wrist",
    "finger",   "fingertip",    "thumb",     "thumbtip"};
constexpr std::array<const char*, 5> kTouchSensors = {
    "palm_touch", "finger_touch", "thumb_touch", "fingertip_touch",
    "thumbtip_touch"};
constexpr double kClose = 0.01;
constexpr double kInHand = 0.1;
constexpr double kInTarget = 0.1;

bool HasBody(const mjModel& m, const char* name) {
  return mj_name2id(&m, mjOBJ_BODY, name) >= 0;
}
bool UsesPeg(const mjModel& m) { return HasBody(m, "peg"); }
bool Inserts(const mjModel& m) {
  return HasBody(m, UsesPeg(m) ? "slot" : "cup");
}

class Manipulator {
 public:
  static constexpr Timing kTiming{.time_limit = 10, .control_timestep = 0.01};

  static Config Options() { return {{"fully_observable", true}}; }

  static std::vector<ArraySpec> Observations(const mjModel& /*m*/,
                                             const Config& config) {
    std::vector<ArraySpec> obs{Observation("arm_pos", {kArmJoints.size(), 2}),
                               Observation("arm_vel", {kArmJoints.size()}),
                               Observation("touch", {kTouchSensors.size()})};
    if (config.Get<bool>("fully_observable")) {
      obs.push_back(Observation("hand_pos", {4}));
      obs.push_back(Observation("object_pos", {4}));
      obs.push_back(Observation("object_vel", {3}));
      obs.push_back(Observation("target_pos", {4}));
    }
    return obs;
  }

  static std::vector<std::string> DrawnModelValues(const mjModel& m,
                                                   const Config& /*config*/) {
    const std::string target = UsesPeg(m) ? "target_peg" : "target_ball";
    std::vector<std::string> values{"body_pos:" + target,
                                    "body_quat:" + target};
    if (Inserts(m)) {
      const std::string receptacle = UsesPeg(m) ? "slot" : "cup";
      values.push_back("body_pos:" + receptacle);
      values.push_back("body_quat:" + receptacle);
    }
    return values;
  }

  Manipulator(const Config& config, const Physics& physics)
      : use_peg_(UsesPeg(physics.model())),
        insert_(Inserts(physics.model())),
        fully_observable_(config.Get<bool>("fully_observable")),
        hand_(physics.Id(mjOBJ_BODY, "hand")),
        object_(physics.Id(mjOBJ_BODY, use_peg_ ? "peg" : "ball")),
        target_(
            physics.Id(mjOBJ_BODY, use_peg_ ? "target_peg" : "target_ball")),
        receptacle_(insert_ ? physics.Id(mjOBJ_BODY, use_peg_ ? "slot" : "cup")
                            : -1),
        finger_(physics.QposAddr("finger")),
        thumb_(physics.QposAddr("thumb")),
        grasp_(physics.Id(mjOBJ_SITE, "grasp")) {
    const mjModel& m = physics.model();
    for (std::size_t i = 0; i < kArmJoints.size(); ++i) {
      const int joint = physics.Id(mjOBJ_JOINT, kArmJoints[i]);
      arm_qpos_[i] = m.jnt_qposadr[joint];
      arm_dof_[i] = m.jnt_dofadr[joint];
      const bool limited = m.jnt_limited[joint] != 0;
      arm_low_[i] = limited ? m.jnt_range[2 * joint] : -std::numbers::pi;
      arm_high_[i] = limited ? m.jnt_range[2 * joint + 1] : std::numbers::pi;
    }
    for (std::size_t i = 0; i < kTouchSensors.size(); ++i) {
      touch_[i] = physics.SensorAddr(kTouchSensors[i]);
    }
    const std::string object = use_peg_ ? "peg" : "ball";
    for (std::size_t i = 0; i < 3; ++i) {
      const std::string joint = object + "_" + "xzy"[i];
      object_qpos_[i] = physics.QposAddr(joint.c_str());
      object_dof_[i] = physics.DofAddr(joint.c_str());
    }
    const auto site = [&](const char* name) {
      return physics.Id(mjOBJ_SITE, name);
    };
    if (use_peg_) {
      sites_ = {site("peg_grasp"),      site("grasp"),  site("peg_pinch"),
                site("pinch"),          site("peg"),    site("target_peg"),
                site("target_peg_tip"), site("peg_tip")};
    } else {
      sites_ = {site("ball"), site("target_ball")};
    }
  }

  // Redraws the arm, the target and the object until nothing penetrates.
  void Initialize(Physics& physics, Rng& rng) {
    mjModel& m = physics.model();
    mjData& d = physics.data();
    do {
      for (std::size_t i = 0; i < kArmJoints.size(); ++i) {
        d.qpos[arm_qpos_[i]] = rng.Uniform(arm_low_[i], arm_high_[i]);
      }
      d.qpos[finger_] = d.qpos[thumb_];

      const double target_x = rng.Uniform(-0.4, 0.4);
      const double target_z = rng.Uniform(0.1, 0.4);
      double target_angle = 0;
      if (insert_) {
        target_angle = rng.Uniform(-std::numbers::pi / 3, std::numbers::pi / 3);
        PlaceBody(m, receptacle_, target_x, target_z, target_angle);
      } else {
        target_angle = rng.Uniform(-std::numbers::pi, std::numbers::pi);
      }
      PlaceBody(m, target_, target_x, target_z, target_angle);

      // RandomState.choice with p = (in hand, in target, uniform).
      const double u = rng.Uniform();
      double object_x = 0;
      double object_z = 0;
      double object_angle = 0;
      if (u < kInHand) {
        physics.AfterReset();
        object_x = d.site_xpos[3 * grasp_];
        object_z = d.site_xpos[3 * grasp_ + 2];
        const double* grasp_frame = d.site_xmat + 9 * grasp_;
        object_angle =
            std::numbers::pi - std::atan2(grasp_frame[6], grasp_frame[0]);
      } else if (u < kInHand + kInTarget) {
        object_x = target_x;
        object_z = target_z;
        object_angle = target_angle;
      } else {
        object_x = rng.Uniform(-0.5, 0.5);
        object_z = rng.Uniform(0, 0.7);
        object_angle = rng.Uniform(0, 2 * std::numbers::pi);
        d.qvel[object_dof_[0]] = rng.Uniform(-5, 5);
      }
      d.qpos[object_qpos_[0]] = object_x;
      d.qpos[object_qpos_[1]] = object_z;
      d.qpos[object_qpos_[2]] = object_angle;

      physics.AfterReset();
    } while (d.ncon > 0);
  }

  void Observe(const Physics& physics, Output& out) const {
    const mjData& d = physics.data();
    auto arm_pos = out.Obs<double>(0);
    auto arm_vel = out.Obs<double>(1);
    for (std::size_t i = 0; i < kArmJoints.size(); ++i) {
      arm_pos[2 * i] = NpSin(d.qpos[arm_qpos_[i]]);
      arm_pos[2 * i + 1] = NpCos(d.qpos[arm_qpos_[i]]);
      arm_vel[i] = d.qvel[arm_dof_[i]];
    }
    auto touch = out.Obs<double>(2);
    for (std::size_t i = 0; i < kTouchSensors.size(); ++i) {
      touch[i] = NpLog1p(d.sensordata[touch_[i]]);
    }
    if (!fully_observable_) {
      return;
    }
    BodyPose(d, hand_, out.Obs<double>(3));
    BodyPose(d, object_, out.Obs<double>(4));
    auto object_vel = out.Obs<double>(5);
    for (std::size_t i = 0; i < 3; ++i) {
      object_vel[i] = d.qvel[object_dof_[i]];
    }
    BodyPose(d, target_, out.Obs<double>(6));
  }

  double Reward(const Physics& physics) const {
    const mjData& d = physics.data();
    if (!use_peg_) {
      return IsClose(SiteDistance(d, 0));
    }
    const double grasping =
        (IsClose(SiteDistance(d, 0)) + IsClose(SiteDistance(d, 2))) / 2;
    const double bringing =
        (IsClose(SiteDistance(d, 4)) + IsClose(SiteDistance(d, 6))) / 2;
    return std::max(bringing, grasping / 3);
  }

 private:
  // Moves a body to (x, z) in the arm's plane, turned by `angle` about y.
  static void PlaceBody(mjModel& m, int body, double x, double z,
                        double angle) {
    m.body_pos[3 * body] = x;
    m.body_pos[3 * body + 2] = z;
    m.body_quat[4 * body] = NpCos(angle / 2);
    m.body_quat[4 * body + 2] = NpSin(angle / 2);
  }

  // x, z, qw, qy of a body.
  static void BodyPose(const mjData& d, int body, std::span<double> out) {
    out[0] = d.xpos[3 * body];
    out[1] = d.xpos[3 * body + 2];
    out[2] = d.xquat[4 * body];
    out[3] = d.xquat[4 * body + 2];
  }

  // Distance between the sites sites_[pair] and sites_[pair + 1].
  double SiteDistance(const mjData& d, std::size_t pair) const {
    const double* a = d.site_xpos + 3 * sites_[pair];
    const double* b = d.site_xpos + 3 * sites_[pair + 1];
    const std::array<double, 3> diff{a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return NpNorm(diff);
  }

  static double IsClose(double distance) {
    return Tolerance(distance,
                     {.lower = 0, .upper = kClose, .margin = 2 * kClose});
  }

  bool use_peg_;
  bool insert_;
  bool fully_observable_;
  int hand_;
  int object_;
  int target_;
  int receptacle_;
  int finger_;
  int thumb_;
  int grasp_;
  std::array<int, kArmJoints.size()> arm_qpos_{};
  std::array<int, kArmJoints.size()> arm_dof_{};
  std::array<double, kArmJoints.size()> arm_low_{};
  std::array<double, kArmJoints.size()> arm_high_{};
  std::array<int, kTouchSensors.size()> touch_{};
  std::array<int, 3> object_qpos_{};
  std::array<int, 3> object_dof_{};
  std::vector<int> sites_;
};

}  // namespace envpool::dmc::manipulator

#endif  // ENVPOOL_DMC_DOMAINS_MANIPULATOR_H_
