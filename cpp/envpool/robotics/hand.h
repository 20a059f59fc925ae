// The Shadow Dexterous Hand (gymnasium-robotics 1.4.2's HandReach-v3 and the
// HandManipulate{Block,Egg,Pen}...-v1 ids, with and without touch sensors):
// a 24-joint hand driven by 20 position actuators, the action in [-1, 1]
// mapped onto each actuator's control range, 20 mj_steps a step.
//
// HandManipulate: turn (and move) the object on the palm to a goal pose. Each
// reset turns and nudges the object from its start, lets it settle for ten
// steps and tries again until it rests on the palm, drawing from numpy's
// generator in gymnasium-robotics' order (the normals through numpy's own
// sampler, numpy/normal.h). HandReach: bring the thumb and one finger tip
// together above the palm.
#ifndef ENVPOOL_ROBOTICS_HAND_H_
#define ENVPOOL_ROBOTICS_HAND_H_

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"
#include "envpool/mujoco/mujoco_sim.h"
#include "envpool/numpy/linalg.h"
#include "envpool/numpy/normal.h"
#include "envpool/numpy/random.h"
#include "envpool/numpy/sum.h"
#include "envpool/numpy/ufuncs.h"
#include "envpool/robotics/robot_model.h"
#include "envpool/robotics/rotations.h"

namespace envpool::robotics {

// What HandReach and HandManipulate share: the model, the joints the
// observation reads, the action's mapping and the start state.
class HandTask : public mujoco::MujocoTask {
 public:
  static Config HandConfig(const Config& own) {
    Config config{{"model_file", std::string()},
                  {"reward_type", std::string("sparse")},
                  {"distance_threshold", 0.01},
                  {"initial_qpos_names", std::string()},
                  {"initial_qpos_values", std::vector<double>{}}};
    for (const auto& [name, value] : own.items()) {
      config.Set(name, value);
    }
    return mujoco::MujocoConfig(
        "", 20, config,
        mujoco::CameraConfig{.distance = 0.5,
                             .elevation = -25.0,
                             .lookat = {1.0, 0.96, 0.14},
                             .azimuth = 55.0});
  }

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }

 protected:
  explicit HandTask(const Config& config)
      : MujocoTask(config, Model(config), mujoco_runtime::ModelUse::kOwnCopy),
        dense_(IsDense(config.Get<std::string>("reward_type"))),
        distance_threshold_(config.Get<double>("distance_threshold")),
        n_substeps_(static_cast<int>(config.Get<std::int64_t>("frame_skip"))) {
    const mjModel& m = sim_.model();
    for (int j : RobotJoints(m)) {
      robot_qpos_.push_back(m.jnt_qposadr[j]);
      robot_dofs_.push_back(m.jnt_dofadr[j]);
    }
    for (int i = 0; i < m.nu; ++i) {
      const double low =
          m.actuator_ctrlrange[2 * static_cast<std::ptrdiff_t>(i)];
      const double high =
          m.actuator_ctrlrange[2 * static_cast<std::ptrdiff_t>(i) + 1];
      ctrl_low_.push_back(low);
      ctrl_high_.push_back(high);
      ctrl_center_.push_back((high + low) / 2.0);
      ctrl_half_range_.push_back((high - low) / 2.0);
    }
  }

  static Vec3 Triple(const double* p) { return {p[0], p[1], p[2]}; }

  static std::shared_ptr<const mjModel> Model(const Config& config) {
    return LoadModelFile(config, "the Hand task's model");
  }

  // _env_setup's set_joint_qpos for each (name, value) of initial_qpos, and
  // mj_forward; the state then is what every episode starts from.
  void SetUp(const Config& config) {
    const mjModel& m = sim_.model();
    mjData& d = sim_.data();
    const auto names = config.Get<std::string>("initial_qpos_names");
    const auto values = config.Get<std::vector<double>>("initial_qpos_values");
    std::size_t next = 0;
    for (std::size_t begin = 0; begin < names.size();) {
      std::size_t end = names.find(',', begin);
      end = end == std::string::npos ? names.size() : end;
      const std::string name = names.substr(begin, end - begin);
      begin = end + 1;
      const int joint = sim_.Id(mjOBJ_JOINT, name.c_str());
      const std::size_t width = m.jnt_type[joint] == mjJNT_FREE   ? 7
                                : m.jnt_type[joint] == mjJNT_BALL ? 4
                                                                  : 1;
      if (next + width > values.size()) {
        throw std::invalid_argument("initial_qpos: joint '" + name +
                                    "' takes " + std::to_string(width) +
                                    " values, too few were given");
      }
      std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(next), width,
                  d.qpos + m.jnt_qposadr[joint]);
      next += width;
    }
    if (next != values.size()) {
      throw std::invalid_argument(
          "initial_qpos: more values than its joints take");
    }
    mj_forward(&m, &d);
    initial_time_ = d.time;
    initial_qpos_.assign(d.qpos, d.qpos + m.nq);
    initial_qvel_.assign(d.qvel, d.qvel + m.nv);
  }

  // The start state (act set to NaN, as `data.act[:] = None` does).
  void StartState() {
    const mjModel& m = sim_.model();
    mjData& d = sim_.data();
    d.time = initial_time_;
    std::ranges::copy(initial_qpos_, d.qpos);
    std::ranges::copy(initial_qvel_, d.qvel);
    std::fill(d.act, d.act + m.na, std::numeric_limits<double>::quiet_NaN());
    mj_forward(&m, &d);
  }

  // _set_action (absolute control): center + a * half range, clipped; then
  // n_substeps mj_steps. `action` null: the zero action resets settle with.
  void Simulate(const float* action) {
    const mjModel& m = sim_.model();
    mjData& d = sim_.data();
    for (std::size_t i = 0; i < ctrl_center_.size(); ++i) {
      const double a =
          action == nullptr
              ? 0.0
              : static_cast<double>(std::clamp(action[i], -1.0F, 1.0F));
      const double ctrl = ctrl_center_[i] + a * ctrl_half_range_[i];
      d.ctrl[i] = std::min(std::max(ctrl, ctrl_low_[i]), ctrl_high_[i]);
    }
    for (int i = 0; i < n_substeps_; ++i) {
      mj_step(&m, &d);
    }
  }

  // robot_get_obs: the qpos, then the qvel, of the joints named robot*.
  template <typename It>
  It PutRobotJoints(It it) const {
    const mjData& d = sim_.data();
    for (int adr : robot_qpos_) {
      *it++ = d.qpos[adr];
    }
    for (int adr : robot_dofs_) {
      *it++ = d.qvel[adr];
    }
    return it;
  }

  std::size_t RobotObsSize() const { return 2 * robot_qpos_.size(); }

  bool dense_;
  double distance_threshold_;
  int n_substeps_;
  NumpyRandom np_random_;

 private:
  static bool IsDense(const std::string& type) {
    if (type != "dense" && type != "sparse") {
      throw std::invalid_argument(
          "reward_type must be 'sparse' or 'dense', got '" + type + "'");
    }
    return type == "dense";
  }

  std::vector<int> robot_qpos_;
  std::vector<int> robot_dofs_;
  std::vector<double> ctrl_low_;
  std::vector<double> ctrl_high_;
  std::vector<double> ctrl_center_;
  std::vector<double> ctrl_half_range_;
  double initial_time_ = 0.0;
  std::vector<double> initial_qpos_;
  std::vector<double> initial_qvel_;
};

// HandManipulate{Block,Egg,Pen}*: the object's pose (position, quaternion)
// is the achieved goal.
class HandManipulate : public HandTask {
 public:
  static Config DefaultConfig() {
    return HandConfig(
        {{"target_position", std::string("random")},
         {"target_rotation", std::string("xyz")},
         {"target_position_range",
          std::vector<double>{-0.04, 0.04, -0.06, 0.02, 0.0, 0.06}},
         {"randomize_initial_position", true},
         {"randomize_initial_rotation", true},
         {"rotation_threshold", 0.1},
         {"ignore_z_target_rotation", false},
         {"touch_get_obs", std::string()},
         {"touch_visualisation", std::string("on_touch")}});
  }

  static EnvSpec Spec(const Config& config) {
    const auto model = Model(config);
    const bool touch = !config.Get<std::string>("touch_get_obs").empty();
    // the robot joints' qpos and qvel, then the task's own values
    std::int64_t size =
        6 + 7 + 2 * static_cast<std::int64_t>(RobotJoints(*model).size());
    if (touch) {
      size += static_cast<std::int64_t>(TouchSensors(*model).size());
    }
    return {
        MakeDict("obs",
                 {MakeArray<double>("achieved_goal", {7}, {-kInf}, {kInf}),
                  MakeArray<double>("desired_goal", {7}, {-kInf}, {kInf}),
                  MakeArray<double>("observation", {size}, {-kInf}, {kInf})}),
        MakeArray<float>("action", {20}, {-1.0}, {1.0}),
        {MakeArray<float>("is_success", {})}};
  }

  explicit HandManipulate(const Config& config)
      : HandTask(config),
        target_position_(
            Choice(config, "target_position", {"ignore", "fixed", "random"})),
        target_rotation_(
            Choice(config, "target_rotation", {"z", "parallel", "xyz"})),
        touch_get_obs_(Choice(config, "touch_get_obs",
                              {"", "sensordata", "boolean", "log"})),
        touch_visualisation_(Choice(config, "touch_visualisation",
                                    {"on_touch", "always", "off"})),
        randomize_position_(config.Get<bool>("randomize_initial_position")),
        randomize_rotation_(config.Get<bool>("randomize_initial_rotation")),
        ignore_z_rotation_(config.Get<bool>("ignore_z_target_rotation")),
        rotation_threshold_(config.Get<double>("rotation_threshold")),
        object_qpos_(
            sim_.model().jnt_qposadr[sim_.Id(mjOBJ_JOINT, "object:joint")]),
        object_dof_(
            sim_.model().jnt_dofadr[sim_.Id(mjOBJ_JOINT, "object:joint")]),
        target_qpos_(
            sim_.model().jnt_qposadr[sim_.Id(mjOBJ_JOINT, "target:joint")]),
        target_dof_(
            sim_.model().jnt_dofadr[sim_.Id(mjOBJ_JOINT, "target:joint")]),
        object_center_(sim_.Id(mjOBJ_SITE, "object:center")),
        touch_sensors_(TouchSensors(sim_.model())) {
    const auto range = config.Get<std::vector<double>>("target_position_range");
    if (range.size() != 6) {
      throw std::invalid_argument(
          "option 'target_position_range' must hold 3 (low, high) pairs");
    }
    std::ranges::copy(range, target_position_range_.begin());
    if (randomize_position_ && target_position_ != kFixed &&
        !NumpyNormal::Get().Has()) {
      throw std::runtime_error(
          "the Hand's resets draw numpy's normals, and numpy's sampler was "
          "not found in numpy.random._generator");
    }
    for (const Vec3& euler : ParallelRotations()) {
      parallel_quats_.push_back(Euler2Quat(euler));
    }
    if (touch_visualisation_ == 2) {
      for (const auto& sensor : touch_sensors_) {
        sim_.own_model()
            .site_rgba[4 * static_cast<std::ptrdiff_t>(sensor.site) + 3] = 0.0F;
      }
    }
    SetUp(config);
  }

  void Reset(Rng& /*rng*/, Output& out) {
    while (!TryReset()) {
    }
    SampleGoal();
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    Simulate(action.data());
    const Pose achieved = Write(out);
    const auto [d_pos, d_rot] = GoalDistance(achieved);
    out.reward = dense_ ? -(10.0 * d_pos + d_rot)
                        : static_cast<double>(Success(d_pos, d_rot)) - 1.0;
  }

  // _render_callback: the target body shown at the goal (beside the object
  // when the position is ignored), the hidden object drawn, touch sites
  // coloured; the state changed as gymnasium-robotics changes it.
  // (the pool calls the env's own Render: hiding MujocoTask's is the point)
  // NOLINTNEXTLINE(bugprone-derived-method-shadowing-base-method)
  void Render(std::span<std::uint8_t> rgb) {
    mjModel& m = sim_.own_model();
    mjData& d = sim_.data();
    Pose shown = goal_;
    if (target_position_ == kIgnore) {
      shown[0] += 0.15;
    }
    std::ranges::copy(shown, d.qpos + target_qpos_);
    std::fill_n(d.qvel + target_dof_, 6, 0.0);
    const int hidden = mj_name2id(&m, mjOBJ_GEOM, "object_hidden");
    if (hidden >= 0) {
      m.geom_rgba[4 * static_cast<std::ptrdiff_t>(hidden) + 3] = 1.0F;
    }
    mj_forward(&m, &d);
    if (touch_visualisation_ == 0) {
      for (const auto& sensor : touch_sensors_) {
        const bool touched = d.sensordata[sensor.id] != 0.0;
        const std::array<float, 4> color =
            touched ? std::array{1.0F, 0.0F, 0.0F, 0.5F}
                    : std::array{0.0F, 0.5F, 0.0F, 0.2F};
        std::ranges::copy(
            color, m.site_rgba + 4 * static_cast<std::ptrdiff_t>(sensor.site));
      }
    }
    sim_.Render(rgb);
  }

 private:
  using Pose = std::array<double, 7>;
  static constexpr int kIgnore = 0;
  static constexpr int kFixed = 1;
  static constexpr int kRotateZ = 0;
  static constexpr int kRotateParallel = 1;

  struct TouchSensor {
    int id;    // its sensor id, at which gymnasium-robotics reads sensordata
    int site;  // the site robot0:T_<name> it colours
  };

  // The sensors named robot0:TS_<name>, in id order.
  static std::vector<TouchSensor> TouchSensors(const mjModel& m) {
    std::vector<TouchSensor> sensors;
    for (int i = 0; i < m.nsensor; ++i) {
      const std::string_view name = mj_id2name(&m, mjOBJ_SENSOR, i);
      if (name.starts_with("robot0:TS_")) {
        const std::string site =
            "robot0:T_" +
            std::string(name.substr(std::string_view("robot0:TS_").size()));
        const int site_id = mj_name2id(&m, mjOBJ_SITE, site.c_str());
        if (site_id < 0) {
          throw std::invalid_argument("the Hand model has no site '" + site +
                                      "' for its touch sensor");
        }
        sensors.push_back({i, site_id});
      }
    }
    return sensors;
  }

  static int Choice(const Config& config, const char* name,
                    std::initializer_list<std::string_view> allowed) {
    const auto value = config.Get<std::string>(name);
    int index = 0;
    for (std::string_view option : allowed) {
      if (value == option) {
        return index;
      }
      ++index;
    }
    std::string list;
    for (std::string_view option : allowed) {
      list += (list.empty() ? "'" : ", '") + std::string(option) + "'";
    }
    throw std::invalid_argument(std::string("option '") + name + "' must be " +
                                list + "; got '" + value + "'");
  }

  // quat_from_angle_and_axis: the axis normalised, the quaternion too.
  static Quat FromAngleAndAxis(double angle, Vec3 axis) {
    const double norm = NpNorm(axis);
    for (double& v : axis) {
      v /= norm;
    }
    const double s = NpSin(angle / 2.0);
    Quat quat{NpCos(angle / 2.0), s * axis[0], s * axis[1], s * axis[2]};
    Normalize(quat);
    return quat;
  }

  static void Normalize(Quat& quat) {
    const double norm = NpNorm(quat);
    for (double& v : quat) {
      v /= norm;
    }
  }

  // A random rotation of the task's kind (the draws of _reset_sim's and
  // _sample_goal's branches).
  Quat RandomRotation() {
    const double angle =
        np_random_.Uniform(-std::numbers::pi, std::numbers::pi);
    if (target_rotation_ == kRotateZ) {
      return FromAngleAndAxis(angle, {0.0, 0.0, 1.0});
    }
    if (target_rotation_ == kRotateParallel) {
      const Quat z_quat = FromAngleAndAxis(angle, {0.0, 0.0, 1.0});
      const auto pick = static_cast<std::size_t>(np_random_.Integers(
          0, static_cast<std::int64_t>(parallel_quats_.size())));
      return QuatMul(z_quat, parallel_quats_[pick]);
    }
    Vec3 axis{};
    for (double& v : axis) {
      v = np_random_.Uniform(-1.0, 1.0);
    }
    return FromAngleAndAxis(angle, axis);
  }

  // One try of _reset_sim: whether the object ended up on the palm.
  bool TryReset() {
    StartState();
    mjData& d = sim_.data();
    Vec3 pos = Triple(d.qpos + object_qpos_);
    Quat quat{d.qpos[object_qpos_ + 3], d.qpos[object_qpos_ + 4],
              d.qpos[object_qpos_ + 5], d.qpos[object_qpos_ + 6]};
    if (randomize_rotation_) {
      quat = QuatMul(quat, RandomRotation());
    }
    if (randomize_position_ && target_position_ != kFixed) {
      for (double& v : pos) {
        v += NumpyNormal::Get().Draw(np_random_, 0.0, 0.005);
      }
    }
    Normalize(quat);
    std::ranges::copy(pos, d.qpos + object_qpos_);
    std::ranges::copy(quat, d.qpos + object_qpos_ + 3);
    for (int i = 0; i < 10; ++i) {
      Simulate(nullptr);
    }
    mj_forward(&sim_.model(), &d);
    return d.site_xpos[3 * static_cast<std::ptrdiff_t>(object_center_) + 2] >
           0.04;
  }

  void SampleGoal() {
    const mjData& d = sim_.data();
    for (std::size_t i = 0; i < 3; ++i) {
      goal_[i] = d.qpos[object_qpos_ + static_cast<int>(i)];
    }
    if (target_position_ != kIgnore && target_position_ != kFixed) {
      Vec3 offset{};
      for (std::size_t i = 0; i < 3; ++i) {
        offset[i] = np_random_.Uniform(target_position_range_[2 * i],
                                       target_position_range_[2 * i + 1]);
      }
      for (std::size_t i = 0; i < 3; ++i) {
        goal_[i] += offset[i];
      }
    }
    Quat quat = RandomRotation();
    Normalize(quat);
    std::ranges::copy(quat, goal_.begin() + 3);
  }

  // _goal_distance: the position's distance (0 when ignored) and the angle
  // between the two rotations (about x and y only for the pen).
  std::array<double, 2> GoalDistance(const Pose& achieved) const {
    double d_pos = 0.0;
    if (target_position_ != kIgnore) {
      const Vec3 delta{achieved[0] - goal_[0], achieved[1] - goal_[1],
                       achieved[2] - goal_[2]};
      d_pos = std::sqrt(NumpySumOfSquares(delta.data(), delta.size()));
    }
    Quat quat_a{achieved[3], achieved[4], achieved[5], achieved[6]};
    const Quat quat_b{goal_[3], goal_[4], goal_[5], goal_[6]};
    if (ignore_z_rotation_) {
      Vec3 euler_a = Quat2Euler(quat_a);
      euler_a[2] = Quat2Euler(quat_b)[2];
      quat_a = Euler2Quat(euler_a);
    }
    const Quat diff = QuatMul(quat_a, QuatConjugate(quat_b));
    const double d_rot = 2 * NpArccos(std::clamp(diff[0], -1.0, 1.0));
    return {d_pos, d_rot};
  }

  float Success(double d_pos, double d_rot) const {
    return d_pos < distance_threshold_ && d_rot < rotation_threshold_ ? 1.0F
                                                                      : 0.0F;
  }

  // The observation; returns the achieved goal.
  Pose Write(Output& out) {
    const mjData& d = sim_.data();
    Pose achieved{};
    std::copy_n(d.qpos + object_qpos_, 7, achieved.begin());
    auto obs = out.Obs<double>(2);
    auto it = PutRobotJoints(obs.begin());
    it = std::copy_n(d.qvel + object_dof_, 6, it);
    it = std::ranges::copy(achieved, it).out;
    for (const auto& sensor : touch_sensors_) {
      if (touch_get_obs_ == 0) {
        break;
      }
      const double value = d.sensordata[sensor.id];
      *it++ = touch_get_obs_ == 1   ? value
              : touch_get_obs_ == 2 ? (value > 0.0 ? 1.0 : 0.0)
                                    : NpLog(value + 1.0);
    }
    std::ranges::copy(achieved, out.Obs<double>(0).begin());
    std::ranges::copy(goal_, out.Obs<double>(1).begin());
    const auto [d_pos, d_rot] = GoalDistance(achieved);
    out.Info<float>(0)[0] = Success(d_pos, d_rot);
    return achieved;
  }

  int target_position_;
  int target_rotation_;
  int touch_get_obs_;
  int touch_visualisation_;
  bool randomize_position_;
  bool randomize_rotation_;
  bool ignore_z_rotation_;
  double rotation_threshold_;
  int object_qpos_;
  int object_dof_;
  int target_qpos_;
  int target_dof_;
  int object_center_;
  std::vector<TouchSensor> touch_sensors_;
  std::array<double, 6> target_position_range_{};
  std::vector<Quat> parallel_quats_;
  Pose goal_{};
};

// HandReach: the five finger tips' positions are the achieved goal.
class HandReach : public HandTask {
  using Tips15 = std::array<double, 15>;
  static constexpr std::size_t kThumb = 4;

 public:
  static Config DefaultConfig() { return HandConfig({}); }

  static EnvSpec Spec(const Config& config) {
    const auto model = Model(config);
    // the robot joints' qpos and qvel, then the task's own values
    std::int64_t size =
        15 + 2 * static_cast<std::int64_t>(RobotJoints(*model).size());
    return {
        MakeDict("obs",
                 {MakeArray<double>("achieved_goal", {15}, {-kInf}, {kInf}),
                  MakeArray<double>("desired_goal", {15}, {-kInf}, {kInf}),
                  MakeArray<double>("observation", {size}, {-kInf}, {kInf})}),
        MakeArray<float>("action", {20}, {-1.0}, {1.0}),
        {MakeArray<float>("is_success", {})}};
  }

  explicit HandReach(const Config& config)
      : HandTask(config),
        tips_{sim_.Id(mjOBJ_SITE, "robot0:S_fftip"),
              sim_.Id(mjOBJ_SITE, "robot0:S_mftip"),
              sim_.Id(mjOBJ_SITE, "robot0:S_rftip"),
              sim_.Id(mjOBJ_SITE, "robot0:S_lftip"),
              sim_.Id(mjOBJ_SITE, "robot0:S_thtip")},
        palm_(sim_.Id(mjOBJ_BODY, "robot0:palm")) {
    if (!NumpyNormal::Get().Has()) {
      throw std::runtime_error(
          "HandReach's goals draw numpy's normals, and numpy's sampler was "
          "not found in numpy.random._generator");
    }
    SetUp(config);
    initial_goal_ = Tips();
    palm_xpos_ =
        Triple(sim_.data().xpos + 3 * static_cast<std::ptrdiff_t>(palm_));
  }

  void Reset(Rng& /*rng*/, Output& out) {
    sim_.ResetData();
    StartState();
    SampleGoal();
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    Simulate(action.data());
    const double distance = GoalDistance(Write(out));
    out.reward =
        dense_ ? -distance : (distance > distance_threshold_ ? -1.0 : -0.0);
  }

  // _render_callback: the target sites put at the goal, the finger sites
  // at the tips (each site moved by where its body puts it).
  // (the pool calls the env's own Render: hiding MujocoTask's is the point)
  // NOLINTNEXTLINE(bugprone-derived-method-shadowing-base-method)
  void Render(std::span<std::uint8_t> rgb) {
    mjModel& m = sim_.own_model();
    mjData& d = sim_.data();
    const Tips15 achieved = Tips();
    std::vector<double> offset(3 * static_cast<std::size_t>(m.nsite));
    for (std::size_t i = 0; i < offset.size(); ++i) {
      offset[i] = d.site_xpos[i] - m.site_pos[i];
    }
    using Shown = std::pair<const char*, const Tips15*>;
    for (std::size_t f = 0; f < tips_.size(); ++f) {
      for (const auto& [prefix, where] :
           {Shown{"target", &goal_}, Shown{"finger", &achieved}}) {
        const std::string name = prefix + std::to_string(f);
        const auto site =
            static_cast<std::size_t>(sim_.Id(mjOBJ_SITE, name.c_str()));
        for (std::size_t i = 0; i < 3; ++i) {
          m.site_pos[3 * site + i] = (*where)[3 * f + i] - offset[3 * site + i];
        }
      }
    }
    mj_forward(&m, &d);
    sim_.Render(rgb);
  }

 private:
  Tips15 Tips() const {
    Tips15 tips{};
    for (std::size_t f = 0; f < tips_.size(); ++f) {
      std::copy_n(
          sim_.data().site_xpos + 3 * static_cast<std::ptrdiff_t>(tips_[f]), 3,
          tips.begin() + static_cast<std::ptrdiff_t>(3 * f));
    }
    return tips;
  }

  // _sample_goal: the thumb and a random finger meet near a point above the
  // palm, or (one time in ten) every tip goes back to its start.
  void SampleGoal() {
    const auto finger = static_cast<std::size_t>(np_random_.Integers(0, 4));
    const Vec3 offset{0.0, -0.09, 0.05};
    Vec3 meeting{};
    for (std::size_t i = 0; i < 3; ++i) {
      meeting[i] = palm_xpos_[i] + offset[i];
    }
    for (double& v : meeting) {
      v += NumpyNormal::Get().Draw(np_random_, 0.0, 0.005);
    }
    goal_ = initial_goal_;
    for (std::size_t tip : {kThumb, finger}) {
      Vec3 direction{};
      for (std::size_t i = 0; i < 3; ++i) {
        direction[i] = meeting[i] - goal_[3 * tip + i];
      }
      const double norm = NpNorm(direction);
      for (std::size_t i = 0; i < 3; ++i) {
        direction[i] /= norm;
        goal_[3 * tip + i] = meeting[i] - 0.005 * direction[i];
      }
    }
    if (np_random_.Random() < 0.1) {
      goal_ = initial_goal_;
    }
  }

  double GoalDistance(const Tips15& achieved) const {
    Tips15 delta{};
    for (std::size_t i = 0; i < delta.size(); ++i) {
      delta[i] = achieved[i] - goal_[i];
    }
    return std::sqrt(NumpySumOfSquares(delta.data(), delta.size()));
  }

  Tips15 Write(Output& out) {
    const Tips15 achieved = Tips();
    auto it = PutRobotJoints(out.Obs<double>(2).begin());
    std::ranges::copy(achieved, it);
    std::ranges::copy(achieved, out.Obs<double>(0).begin());
    std::ranges::copy(goal_, out.Obs<double>(1).begin());
    out.Info<float>(0)[0] =
        GoalDistance(achieved) < distance_threshold_ ? 1.0F : 0.0F;
    return achieved;
  }

  std::array<int, 5> tips_;
  int palm_;
  Tips15 initial_goal_{};
  Vec3 palm_xpos_{};
  Tips15 goal_{};
};

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_HAND_H_
