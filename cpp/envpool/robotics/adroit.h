// Adroit (gymnasium-robotics 1.4.2's AdroitHand{Door,Hammer,Pen,Relocate}-v1
// and their Sparse ids): the 24-DoF Adroit hand on a 6-DoF arm (or a fixed
// wrist, for Pen) opens a door, hammers a nail, turns a pen or carries a ball.
// The action, in [-1, 1], is mapped to each actuator's control range; each
// step is five mj_steps. Resets draw the task's object or target position
// (or orientation) from numpy's generator and write it into the env's own copy
// of the model, as gymnasium-robotics does; rewards use numpy's arithmetic.
#ifndef ENVPOOL_ROBOTICS_ADROIT_H_
#define ENVPOOL_ROBOTICS_ADROIT_H_

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"
#include "envpool/mujoco/mujoco_sim.h"
#include "envpool/numpy/linalg.h"
#include "envpool/numpy/random.h"
#include "envpool/numpy/sum.h"
#include "envpool/robotics/robot_model.h"
#include "envpool/robotics/rotations.h"

namespace envpool::robotics {

// What the four Adroit tasks share: the model with its actuators' gains as
// gymnasium-robotics sets them, the action's mapping, the physics step and
// the reward type.
class AdroitTask : public mujoco::MujocoTask {
 public:
  // The task's camera: gymnasium-robotics' distance and azimuth, MuJoCo's
  // default elevation and the geoms' median as the point looked at.
  static Config AdroitConfig(double camera_distance, double camera_azimuth) {
    return mujoco::MujocoConfig(
        "", 5,
        {{"model_file", std::string()}, {"reward_type", std::string("dense")}},
        mujoco::CameraConfig{.distance = camera_distance,
                             .azimuth = camera_azimuth});
  }

  static EnvSpec AdroitSpec(const Config& config, std::int64_t obs_size) {
    const auto model = Model(config);
    return {MakeArray<double>("obs", {obs_size}, {-kInf}, {kInf}),
            MakeArray<float>("action", {model->nu}, {-1.0}, {1.0}),
            {MakeArray<bool>("success", {})}};
  }

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }

 protected:
  explicit AdroitTask(const Config& config)
      : MujocoTask(config, Model(config), mujoco_runtime::ModelUse::kOwnCopy),
        sparse_(IsSparse(config.Get<std::string>("reward_type"))),
        frame_skip_(static_cast<int>(config.Get<std::int64_t>("frame_skip"))) {
    mjModel& m = sim_.own_model();
    // the wrist's and the fingers' actuators: gains and biases of position
    // servos, as gymnasium-robotics' constructors rewrite them
    SetServo(m, "A_WRJ1", "A_WRJ0", 10.0);
    SetServo(m, "A_FFJ3", "A_THJ0", 1.0);
    for (int i = 0; i < m.nu; ++i) {
      const double low =
          m.actuator_ctrlrange[2 * static_cast<std::ptrdiff_t>(i)];
      const double high =
          m.actuator_ctrlrange[2 * static_cast<std::ptrdiff_t>(i) + 1];
      act_mean_.push_back((low + high) / 2.0);
      act_rng_.push_back(0.5 * (high - low));
    }
  }

  // MujocoEnv.reset's first step; the task then draws and calls StartState.
  void ResetData() { sim_.ResetData(); }
  void StartState() { sim_.SetState(sim_.init_qpos(), sim_.init_qvel()); }

  // np.clip(a, -1, 1) in float32; act_mean + a * act_rng in float64; five
  // mj_steps and the post-constraint pass.
  void Simulate(std::span<const float> action) {
    const mjModel& m = sim_.model();
    mjData& d = sim_.data();
    for (std::size_t i = 0; i < act_mean_.size(); ++i) {
      const double a = static_cast<double>(std::clamp(action[i], -1.0F, 1.0F));
      d.ctrl[i] = act_mean_[i] + a * act_rng_[i];
    }
    for (int i = 0; i < frame_skip_; ++i) {
      mj_step(&m, &d);
    }
    mj_rnePostConstraint(&m, &d);
  }

  Vec3 SitePos(int site) const {
    const double* p =
        sim_.data().site_xpos + 3 * static_cast<std::ptrdiff_t>(site);
    return {p[0], p[1], p[2]};
  }
  Vec3 BodyPos(int body) const {
    const double* p = sim_.data().xpos + 3 * static_cast<std::ptrdiff_t>(body);
    return {p[0], p[1], p[2]};
  }

  static Vec3 Minus(const Vec3& a, const Vec3& b) {
    return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  }

  void WriteSuccess(Output& out, bool success) {
    out.Info<bool>(0)[0] = success;
  }

  bool sparse_;
  int frame_skip_;
  NumpyRandom np_random_;

 private:
  static std::shared_ptr<const mjModel> Model(const Config& config) {
    return LoadModelFile(config, "the Adroit task's model");
  }

  static bool IsSparse(std::string type) {
    std::ranges::transform(type, type.begin(), [](unsigned char c) {
      return static_cast<char>(std::tolower(c));
    });
    if (type != "dense" && type != "sparse") {
      throw std::invalid_argument(
          "reward_type must be 'dense' or 'sparse', got '" + type + "'");
    }
    return type == "sparse";
  }

  // gainprm[:3] = (gain, 0, 0), biasprm[:3] = (0, -gain, 0) for the
  // actuators from `first` to `last`.
  void SetServo(mjModel& m, const char* first, const char* last, double gain) {
    const int from = sim_.Id(mjOBJ_ACTUATOR, first);
    const int to = sim_.Id(mjOBJ_ACTUATOR, last);
    for (std::ptrdiff_t i = from; i <= to; ++i) {
      double* g = m.actuator_gainprm + i * mjNGAIN;
      double* b = m.actuator_biasprm + i * mjNBIAS;
      g[0] = gain;
      g[1] = 0.0;
      g[2] = 0.0;
      b[0] = 0.0;
      b[1] = -gain;
      b[2] = 0.0;
    }
  }

  std::vector<double> act_mean_;
  std::vector<double> act_rng_;
};

// Open the door: grasp its handle, turn the latch, pull it past 1.35 rad.
class AdroitDoor : public AdroitTask {
 public:
  static Config DefaultConfig() { return AdroitConfig(1.5, 90.0); }
  static EnvSpec Spec(const Config& config) { return AdroitSpec(config, 39); }

  explicit AdroitDoor(const Config& config)
      : AdroitTask(config),
        // gymnasium-robotics reads the hinge's qpos at its dof address
        hinge_(static_cast<std::size_t>(
            sim_.model().jnt_dofadr[sim_.Id(mjOBJ_JOINT, "door_hinge")])),
        grasp_(sim_.Id(mjOBJ_SITE, "S_grasp")),
        handle_(sim_.Id(mjOBJ_SITE, "S_handle")),
        door_(sim_.Id(mjOBJ_BODY, "frame")) {}

  void Reset(Rng& /*rng*/, Output& out) {
    ResetData();
    double* pos =
        sim_.own_model().body_pos + 3 * static_cast<std::ptrdiff_t>(door_);
    pos[0] = np_random_.Uniform(-0.3, -0.2);
    pos[1] = np_random_.Uniform(0.25, 0.35);
    pos[2] = np_random_.Uniform(0.252, 0.35);
    StartState();
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    Simulate(action);
    Write(out);
    const double goal_distance = sim_.qpos()[hinge_];
    const bool achieved = goal_distance >= 1.35;
    out.reward = achieved ? 10.0 : -0.1;
    if (!sparse_) {
      double reward = 0.1 * NpNorm(Minus(SitePos(grasp_), SitePos(handle_)));
      reward += -0.1 * (goal_distance - 1.57) * (goal_distance - 1.57);
      reward += -1e-5 * NumpySumOfSquares(sim_.data().qvel, sim_.nv());
      if (goal_distance > 0.2) {
        reward += 2;
      }
      if (goal_distance > 1.0) {
        reward += 8;
      }
      if (goal_distance > 1.35) {
        reward += 10;
      }
      out.reward = reward;
    }
    WriteSuccess(out, achieved);
  }

 private:
  void Write(Output& out) {
    const auto qpos = sim_.qpos();
    const Vec3 palm = SitePos(grasp_);
    const Vec3 handle = SitePos(handle_);
    const double door = qpos[hinge_];
    mujoco::ObsWriter obs(out);
    obs.Put(qpos.subspan(1, qpos.size() - 3))
        .Put(qpos.back())
        .Put(door)
        .Put(palm)
        .Put(handle)
        .Put(Minus(palm, handle))
        .Put(door > 1.0 ? 1.0 : -1.0);
  }

  std::size_t hinge_;
  int grasp_;
  int handle_;
  int door_;
};

// Hammer the nail into the board (its top within 1 cm of the goal).
class AdroitHammer : public AdroitTask {
 public:
  static Config DefaultConfig() { return AdroitConfig(2.0, 45.0); }
  static EnvSpec Spec(const Config& config) { return AdroitSpec(config, 46); }

  explicit AdroitHammer(const Config& config)
      : AdroitTask(config),
        target_(sim_.Id(mjOBJ_SITE, "S_target")),
        grasp_(sim_.Id(mjOBJ_SITE, "S_grasp")),
        object_(sim_.Id(mjOBJ_BODY, "Object")),
        tool_(sim_.Id(mjOBJ_SITE, "tool")),
        goal_(sim_.Id(mjOBJ_SITE, "nail_goal")),
        board_(sim_.Id(mjOBJ_BODY, "nail_board")),
        // gymnasium-robotics reads sensordata at the sensor's id
        nail_sensor_(sim_.Id(mjOBJ_SENSOR, "S_nail")) {}

  void Reset(Rng& /*rng*/, Output& out) {
    ResetData();
    sim_.own_model().body_pos[3 * static_cast<std::ptrdiff_t>(board_) + 2] =
        np_random_.Uniform(0.1, 0.25);
    StartState();
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    Simulate(action);
    Write(out);
    const Vec3 hammer = BodyPos(object_);
    const Vec3 palm = SitePos(grasp_);
    const Vec3 head = SitePos(tool_);
    const Vec3 nail = SitePos(target_);
    const Vec3 goal = SitePos(goal_);
    const double goal_distance = NpNorm(Minus(nail, goal));
    const bool achieved = goal_distance < 0.01;
    out.reward = achieved ? 10.0 : -0.1;
    if (!sparse_) {
      double reward = 0.1 * NpNorm(Minus(palm, hammer));
      reward -= NpNorm(Minus(head, nail));
      reward -= 10 * NpNorm(Minus(nail, goal));
      reward -= 1e-2 * NpNorm(sim_.qvel());
      if (hammer[2] > 0.04 && head[2] > 0.04) {
        reward += 2;
      }
      if (goal_distance < 0.020) {
        reward += 25;
      }
      if (goal_distance < 0.010) {
        reward += 75;
      }
      out.reward = reward;
    }
    WriteSuccess(out, achieved);
  }

 private:
  void Write(Output& out) {
    const auto qpos = sim_.qpos();
    const auto qvel = sim_.qvel();
    const double* xquat =
        sim_.data().xquat + 4 * static_cast<std::ptrdiff_t>(object_);
    mujoco::ObsWriter obs(out);
    obs.Put(qpos.first(qpos.size() - 6))
        .PutClipped(qvel.last(6), -1.0, 1.0)
        .Put(SitePos(grasp_))
        .Put(BodyPos(object_))
        .Put(Quat2Euler({xquat[0], xquat[1], xquat[2], xquat[3]}))
        .Put(SitePos(target_))
        .Put(mujoco::Clip(sim_.data().sensordata[nail_sensor_], -1.0, 1.0));
  }

  int target_;
  int grasp_;
  int object_;
  int tool_;
  int goal_;
  int board_;
  int nail_sensor_;
};

// Turn the pen in hand to the target orientation drawn at reset.
class AdroitPen : public AdroitTask {
 public:
  static Config DefaultConfig() { return AdroitConfig(1.0, -45.0); }
  static EnvSpec Spec(const Config& config) { return AdroitSpec(config, 45); }

  explicit AdroitPen(const Config& config)
      : AdroitTask(config),
        target_(sim_.Id(mjOBJ_BODY, "target")),
        object_(sim_.Id(mjOBJ_BODY, "Object")),
        eps_ball_(sim_.Id(mjOBJ_SITE, "eps_ball")),
        object_top_(sim_.Id(mjOBJ_SITE, "object_top")),
        object_bottom_(sim_.Id(mjOBJ_SITE, "object_bottom")),
        target_top_(sim_.Id(mjOBJ_SITE, "target_top")),
        target_bottom_(sim_.Id(mjOBJ_SITE, "target_bottom")) {}

  void Reset(Rng& /*rng*/, Output& out) {
    ResetData();
    Vec3 orientation{0.0, 0.0, 0.0};
    orientation[0] = np_random_.Uniform(-1.0, 1.0);
    orientation[1] = np_random_.Uniform(-1.0, 1.0);
    const Quat quat = Euler2Quat(orientation);
    std::ranges::copy(quat, sim_.own_model().body_quat +
                                4 * static_cast<std::ptrdiff_t>(target_));
    StartState();
    pen_length_ = NpNorm(Minus(SitePos(object_top_), SitePos(object_bottom_)));
    target_length_ =
        NpNorm(Minus(SitePos(target_top_), SitePos(target_bottom_)));
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    Simulate(action);
    Write(out);
    const Vec3 position = BodyPos(object_);
    const double goal_distance = NpNorm(Minus(position, SitePos(eps_ball_)));
    const double similarity = NpDot(Orientation(), DesiredOrientation());
    const bool achieved = goal_distance < 0.075 && similarity > 0.95;
    out.reward = achieved ? 10.0 : -0.1;
    if (!sparse_) {
      double reward = -goal_distance + similarity;
      if (goal_distance < 0.075 && similarity > 0.9) {
        reward += 10;
      }
      if (goal_distance < 0.075 && similarity > 0.95) {
        reward += 50;
      }
      if (position[2] < 0.075) {
        reward -= 5;
      }
      out.reward = reward;
    }
    WriteSuccess(out, achieved);
  }

 private:
  static Vec3 Divided(const Vec3& v, double by) {
    return {v[0] / by, v[1] / by, v[2] / by};
  }
  Vec3 Orientation() const {
    return Divided(Minus(SitePos(object_top_), SitePos(object_bottom_)),
                   pen_length_);
  }
  Vec3 DesiredOrientation() const {
    return Divided(Minus(SitePos(target_top_), SitePos(target_bottom_)),
                   target_length_);
  }

  void Write(Output& out) {
    const auto qpos = sim_.qpos();
    const Vec3 position = BodyPos(object_);
    const Vec3 orientation = Orientation();
    const Vec3 desired = DesiredOrientation();
    mujoco::ObsWriter obs(out);
    obs.Put(qpos.first(qpos.size() - 6))
        .Put(position)
        .Put(sim_.qvel().last(6))
        .Put(orientation)
        .Put(desired)
        .Put(Minus(position, SitePos(eps_ball_)))
        .Put(Minus(orientation, desired));
  }

  int target_;
  int object_;
  int eps_ball_;
  int object_top_;
  int object_bottom_;
  int target_top_;
  int target_bottom_;
  double pen_length_ = 1.0;
  double target_length_ = 1.0;
};

// Pick the ball up and carry it to the target drawn at reset.
class AdroitRelocate : public AdroitTask {
 public:
  static Config DefaultConfig() { return AdroitConfig(1.5, 90.0); }
  static EnvSpec Spec(const Config& config) { return AdroitSpec(config, 39); }

  explicit AdroitRelocate(const Config& config)
      : AdroitTask(config),
        target_(sim_.Id(mjOBJ_SITE, "target")),
        grasp_(sim_.Id(mjOBJ_SITE, "S_grasp")),
        object_(sim_.Id(mjOBJ_BODY, "Object")) {}

  void Reset(Rng& /*rng*/, Output& out) {
    ResetData();
    mjModel& m = sim_.own_model();
    double* ball = m.body_pos + 3 * static_cast<std::ptrdiff_t>(object_);
    ball[0] = np_random_.Uniform(-0.15, 0.15);
    ball[1] = np_random_.Uniform(-0.15, 0.3);
    double* target = m.site_pos + 3 * static_cast<std::ptrdiff_t>(target_);
    target[0] = np_random_.Uniform(-0.2, 0.2);
    target[1] = np_random_.Uniform(-0.2, 0.2);
    target[2] = np_random_.Uniform(0.15, 0.35);
    StartState();
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    Simulate(action);
    Write(out);
    const Vec3 ball = BodyPos(object_);
    const Vec3 palm = SitePos(grasp_);
    const Vec3 target = SitePos(target_);
    const double goal_distance = NpNorm(Minus(ball, target));
    const bool achieved = goal_distance < 0.1;
    out.reward = achieved ? 10.0 : -0.1;
    if (!sparse_) {
      double reward = 0.1 * NpNorm(Minus(palm, ball));
      if (ball[2] > 0.04) {
        reward += 1.0;
        reward += -0.5 * NpNorm(Minus(palm, target));
        reward += -0.5 * NpNorm(Minus(ball, target));
      }
      if (goal_distance < 0.1) {
        reward += 10.0;
      }
      if (goal_distance < 0.05) {
        reward += 20.0;
      }
      out.reward = reward;
    }
    WriteSuccess(out, achieved);
  }

 private:
  void Write(Output& out) {
    const auto qpos = sim_.qpos();
    const Vec3 ball = BodyPos(object_);
    const Vec3 palm = SitePos(grasp_);
    const Vec3 target = SitePos(target_);
    mujoco::ObsWriter obs(out);
    obs.Put(qpos.first(qpos.size() - 6))
        .Put(Minus(palm, ball))
        .Put(Minus(palm, target))
        .Put(Minus(ball, target));
  }

  int target_;
  int grasp_;
  int object_;
};

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_ADROIT_H_
