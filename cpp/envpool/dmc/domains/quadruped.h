// Quadruped (dm_control suite/quadruped.py): a four-legged walker that moves
// forward at a desired speed (walk, run) or, in an arena with walls, brings a
// ball to the target at the centre (fetch).
#ifndef ENVPOOL_DMC_DOMAINS_QUADRUPED_H_
#define ENVPOOL_DMC_DOMAINS_QUADRUPED_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "envpool/dmc/dmc_env.h"

namespace envpool::dmc::quadruped {

// Sensor ids of the given types, in the model's order.
std::vector<int> SensorsOfType(const mjModel& m,
                               std::initializer_list<mjtSensor> types) {
  std::vector<int> ids;
  for (int i = 0; i < m.nsensor; ++i) {
    for (mjtSensor type : types) {
      if (m.sensor_type[i] == type) {
        ids.push_back(i);
        break;
      }
    }
  }
  return ids;
}

int SensorsDim(const mjModel& m, const std::vector<int>& ids) {
  int dim = 0;
  for (int id : ids) {
    dim += m.sensor_dim[id];
  }
  return dim;
}

int HingeCount(const mjModel& m) {
  int n = 0;
  for (int j = 0; j < m.njnt; ++j) {
    n += m.jnt_type[j] == mjJNT_HINGE ? 1 : 0;
  }
  return n;
}

class Quadruped {
 public:
  static constexpr Timing kTiming{.time_limit = 20, .control_timestep = 0.02};

  static Config Options() { return {{"desired_speed", 0.5}, {"fetch", false}}; }

  static std::vector<ArraySpec> Observations(const mjModel& m,
                                             const Config& config) {
    std::vector<ArraySpec> keys = {
        Observation("egocentric_state", {2 * HingeCount(m) + m.na}),
        Observation("torso_velocity", {3}), Observation("torso_upright", {}),
        Observation("imu",
                    {SensorsDim(m, SensorsOfType(m, {mjSENS_GYRO,
                                                     mjSENS_ACCELEROMETER}))}),
        Observation(
            "force_torque",
            {SensorsDim(m, SensorsOfType(m, {mjSENS_FORCE, mjSENS_TORQUE}))})};
    if (config.Get<bool>("fetch")) {
      keys.push_back(Observation("ball_state", {9}));
      keys.push_back(Observation("target_position", {3}));
    }
    return keys;
  }

  Quadruped(const Config& config, const Physics& physics)
      : desired_speed_(config.Get<double>("desired_speed")),
        fetch_(config.Get<bool>("fetch")),
        torso_(physics.Id(mjOBJ_BODY, "torso")),
        root_qpos_(physics.QposAddr("root")),
        velocimeter_(physics.SensorAddr("velocimeter")),
        imu_(SensorsOfType(physics.model(),
                           {mjSENS_GYRO, mjSENS_ACCELEROMETER})),
        force_torque_(
            SensorsOfType(physics.model(), {mjSENS_FORCE, mjSENS_TORQUE})) {
    const mjModel& m = physics.model();
    for (int j = 0; j < m.njnt; ++j) {
      if (m.jnt_type[j] == mjJNT_HINGE) {
        hinge_qpos_.push_back(m.jnt_qposadr[j]);
        hinge_dof_.push_back(m.jnt_dofadr[j]);
      }
    }
    if (fetch_) {
      ball_ = physics.Id(mjOBJ_BODY, "ball");
      ball_qpos_ = physics.QposAddr("ball_root");
      ball_dof_ = physics.DofAddr("ball_root");
      root_dof_ = physics.DofAddr("root");
      target_ = physics.Id(mjOBJ_SITE, "target");
      workspace_ = physics.Id(mjOBJ_SITE, "workspace");
      const int floor = physics.Id(mjOBJ_GEOM, "floor");
      floor_size_ = m.geom_size[3 * floor];
      ball_radius_ = m.geom_size[3 * physics.Id(mjOBJ_GEOM, "ball")];
    }
  }

  void Initialize(Physics& physics, Rng& rng) {
    if (!fetch_) {
      std::array<double, 4> orientation{};
      for (double& q : orientation) {
        q = rng.Normal();
      }
      const double norm = NpNorm(orientation);
      for (double& q : orientation) {
        q /= norm;
      }
      FindNonContactingHeight(physics, orientation, 0.0, 0.0);
      return;
    }
    const double azimuth = rng.Uniform(0, 2 * std::numbers::pi);
    const std::array<double, 4> orientation{NpCos(azimuth / 2), 0, 0,
                                            NpSin(azimuth / 2)};
    const double spawn_radius = 0.9 * floor_size_;
    const double x = rng.Uniform(-spawn_radius, spawn_radius);
    const double y = rng.Uniform(-spawn_radius, spawn_radius);
    FindNonContactingHeight(physics, orientation, x, y);
    mjData& d = physics.data();
    d.qpos[ball_qpos_] = rng.Uniform(-spawn_radius, spawn_radius);
    d.qpos[ball_qpos_ + 1] = rng.Uniform(-spawn_radius, spawn_radius);
    d.qpos[ball_qpos_ + 2] = 2;
    d.qvel[ball_dof_] = 5 * rng.Normal();
    d.qvel[ball_dof_ + 1] = 5 * rng.Normal();
  }

  void Observe(const Physics& physics, Output& out) const {
    const mjModel& m = physics.model();
    const mjData& d = physics.data();
    auto state = out.Obs<double>(0);
    const std::size_t n = hinge_qpos_.size();
    for (std::size_t i = 0; i < n; ++i) {
      state[i] = d.qpos[hinge_qpos_[i]];
      state[n + i] = d.qvel[hinge_dof_[i]];
    }
    std::copy_n(d.act, m.na, &state[2 * n]);
    std::copy_n(d.sensordata + velocimeter_, 3, out.Obs<double>(1).begin());
    out.Obs<double>(2)[0] = d.xmat[9 * torso_ + 8];
    auto imu = out.Obs<double>(3);
    std::size_t k = 0;
    for (int id : imu_) {
      for (int i = 0; i < m.sensor_dim[id]; ++i) {
        imu[k++] = d.sensordata[m.sensor_adr[id] + i];
      }
    }
    auto force_torque = out.Obs<double>(4);
    k = 0;
    for (int id : force_torque_) {
      for (int i = 0; i < m.sensor_dim[id]; ++i) {
        force_torque[k++] = NpArcsinh(d.sensordata[m.sensor_adr[id] + i]);
      }
    }
    if (!fetch_) {
      return;
    }
    const double* torso_pos = d.xpos + 3 * torso_;
    const double* torso_frame = d.xmat + 9 * torso_;
    const double* ball_pos = d.xpos + 3 * ball_;
    const std::array<double, 9> ball_state{
        ball_pos[0] - torso_pos[0],
        ball_pos[1] - torso_pos[1],
        ball_pos[2] - torso_pos[2],
        d.qvel[ball_dof_] - d.qvel[root_dof_],
        d.qvel[ball_dof_ + 1] - d.qvel[root_dof_ + 1],
        d.qvel[ball_dof_ + 2] - d.qvel[root_dof_ + 2],
        d.qvel[ball_dof_ + 3],
        d.qvel[ball_dof_ + 4],
        d.qvel[ball_dof_ + 5]};
    // ball_state.dot(torso_frame): numpy's dgemm, which rounds differently
    // from one dgemv per row on some CPUs.
    NpMatMat3(ball_state.data(), torso_frame, out.Obs<double>(5).data());
    EgocentricVector(d.site_xpos + 3 * target_, torso_pos, torso_frame,
                     out.Obs<double>(6).data());
  }

  double Reward(const Physics& physics) const {
    const mjModel& m = physics.model();
    const mjData& d = physics.data();
    const double upright =
        AtLeast(d.xmat[9 * torso_ + 8],
                {.lower = 1.0, .margin = 2.0, .value_at_margin = 0});
    if (!fetch_) {
      const double move =
          AtLeast(d.sensordata[velocimeter_], {.lower = desired_speed_,
                                               .margin = desired_speed_,
                                               .value_at_margin = 0.5});
      return upright * move;
    }
    const double arena_radius = floor_size_ * std::numbers::sqrt2;
    const double workspace_radius = m.site_size[3 * workspace_];
    const double* ball = d.xpos + 3 * ball_;
    const double* workspace = d.site_xpos + 3 * workspace_;
    const std::array<double, 2> self_to_ball{workspace[0] - ball[0],
                                             workspace[1] - ball[1]};
    const double reach = Tolerance(NpNorm(self_to_ball),
                                   {.lower = 0,
                                    .upper = workspace_radius + ball_radius_,
                                    .margin = arena_radius,
                                    .sigmoid = Sigmoid::kLinear,
                                    .value_at_margin = 0});
    const double* target = d.site_xpos + 3 * target_;
    const std::array<double, 2> ball_to_target{target[0] - ball[0],
                                               target[1] - ball[1]};
    const double fetch =
        Tolerance(NpNorm(ball_to_target), {.lower = 0,
                                           .upper = m.site_size[3 * target_],
                                           .margin = arena_radius,
                                           .sigmoid = Sigmoid::kLinear,
                                           .value_at_margin = 0});
    return upright * (reach * (0.5 + 0.5 * fetch));
  }

 private:
  // Raises the torso from the floor in 1 cm steps (each a fresh reset) until
  // nothing touches.
  void FindNonContactingHeight(Physics& physics,
                               const std::array<double, 4>& orientation,
                               double x, double y) const {
    double z = 0.0;
    for (int attempt = 0;; ++attempt) {
      if (attempt >= 10000) {
        throw std::runtime_error(
            "Failed to find a non-contacting configuration.");
      }
      physics.Reset();
      mjData& d = physics.data();
      d.qpos[root_qpos_] = x;
      d.qpos[root_qpos_ + 1] = y;
      d.qpos[root_qpos_ + 2] = z;
      std::copy_n(orientation.begin(), 4, d.qpos + root_qpos_ + 3);
      physics.AfterReset();
      z += 0.01;
      if (d.ncon == 0) {
        return;
      }
    }
  }

  double desired_speed_;
  bool fetch_;
  int torso_;
  int root_qpos_;
  int velocimeter_;
  std::vector<int> imu_;
  std::vector<int> force_torque_;
  std::vector<int> hinge_qpos_;
  std::vector<int> hinge_dof_;
  int ball_ = -1;
  int ball_qpos_ = -1;
  int ball_dof_ = -1;
  int root_dof_ = -1;
  int target_ = -1;
  int workspace_ = -1;
  double floor_size_ = 0;
  double ball_radius_ = 0;
};

}  // namespace envpool::dmc::quadruped

#endif  // ENVPOOL_DMC_DOMAINS_QUADRUPED_H_
