// Fetch (gymnasium-robotics 1.4.2's FetchReach, FetchPush, FetchSlide and
// FetchPickAndPlace, v4): a 7-DoF arm whose gripper follows a mocap body
// welded to it, moved by the action's (dx, dy, dz) each step, to bring its
// gripper (Reach) or a block (the others) to a goal. Goals and the block's
// start are drawn from numpy's generator in gymnasium-robotics' order; the
// velocities are its Jacobian products (numpy's matmul, through numpy's
// BLAS) and the block's rotation its mat2euler (numpy's arctan2).
#ifndef ENVPOOL_ROBOTICS_FETCH_H_
#define ENVPOOL_ROBOTICS_FETCH_H_

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
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
#include "envpool/numpy/ufuncs.h"
#include "envpool/robotics/robot_model.h"
#include "envpool/robotics/rotations.h"

namespace envpool::robotics {

class Fetch : public mujoco::MujocoTask {
 public:
  static Config DefaultConfig() {
    return mujoco::MujocoConfig(
        "", 20,
        {{"model_file", std::string()},
         {"has_object", false},
         {"block_gripper", true},
         {"gripper_extra_height", 0.2},
         {"target_in_the_air", true},
         {"target_offset", std::vector<double>{0.0, 0.0, 0.0}},
         {"obj_range", 0.15},
         {"target_range", 0.15},
         {"distance_threshold", 0.05},
         {"reward_type", std::string("sparse")},
         {"initial_slides", std::vector<double>{0.4049, 0.48, 0.0}},
         {"initial_object", std::vector<double>{}}},
        mujoco::CameraConfig{.distance = 2.5,
                             .elevation = -14.0,
                             .lookat = {1.3, 0.75, 0.55},
                             .azimuth = 132.0});
  }

  static EnvSpec Spec(const Config& config) {
    const bool object = config.Get<bool>("has_object");
    return {MakeDict("obs",
                     {MakeArray<double>("achieved_goal", {3}, {-kInf}, {kInf}),
                      MakeArray<double>("desired_goal", {3}, {-kInf}, {kInf}),
                      MakeArray<double>("observation", {object ? 25 : 10},
                                        {-kInf}, {kInf})}),
            MakeArray<float>("action", {4}, {-1.0}, {1.0}),
            {MakeArray<float>("is_success", {})}};
  }

  explicit Fetch(const Config& config)
      : MujocoTask(config, Model(config), mujoco_runtime::ModelUse::kOwnCopy),
        has_object_(config.Get<bool>("has_object")),
        block_gripper_(config.Get<bool>("block_gripper")),
        target_in_the_air_(config.Get<bool>("target_in_the_air")),
        target_offset_(Triple(config, "target_offset")),
        obj_range_(config.Get<double>("obj_range")),
        target_range_(config.Get<double>("target_range")),
        distance_threshold_(config.Get<double>("distance_threshold")),
        dense_(config.Get<std::string>("reward_type") == "dense"),
        n_substeps_(static_cast<int>(config.Get<std::int64_t>("frame_skip"))),
        dt_(static_cast<double>(n_substeps_) * sim_.model().opt.timestep),
        grip_site_(sim_.Id(mjOBJ_SITE, "robot0:grip")),
        object_site_(has_object_ ? sim_.Id(mjOBJ_SITE, "object0") : -1),
        object_joint_(has_object_ ? QposAddress("object0:joint") : 0),
        l_finger_(QposAddress("robot0:l_gripper_finger_joint")),
        r_finger_(QposAddress("robot0:r_gripper_finger_joint")),
        finger_dofs_{DofAddress("robot0:r_gripper_finger_joint"),
                     DofAddress("robot0:l_gripper_finger_joint")},
        jacobian_(3 * sim_.nv()) {
    const auto type = config.Get<std::string>("reward_type");
    if (type != "sparse" && type != "dense") {
      throw std::invalid_argument(
          "reward_type must be 'sparse' or 'dense', got '" + type + "'");
    }
    SetUp(config);
  }

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }

  void Reset(Rng& /*rng*/, Output& out) {
    mjData& d = sim_.data();
    sim_.ResetData();
    d.time = initial_time_;
    std::ranges::copy(initial_qpos_, d.qpos);
    std::ranges::copy(initial_qvel_, d.qvel);
    if (has_object_) {
      std::array<double, 2> xy{initial_grip_[0], initial_grip_[1]};
      while (NpNorm(std::array{xy[0] - initial_grip_[0],
                               xy[1] - initial_grip_[1]}) < 0.1) {
        const double dx = np_random_.Uniform(-obj_range_, obj_range_);
        const double dy = np_random_.Uniform(-obj_range_, obj_range_);
        xy = {initial_grip_[0] + dx, initial_grip_[1] + dy};
      }
      d.qpos[object_joint_] = xy[0];
      d.qpos[object_joint_ + 1] = xy[1];
    }
    mj_forward(&sim_.model(), &d);
    SampleGoal();
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    mjModel& m = sim_.own_model();
    mjData& d = sim_.data();
    // np.clip in float32; the position change scaled in float32
    std::array<float, 4> a{};
    for (std::size_t i = 0; i < a.size(); ++i) {
      a[i] = std::clamp(action[i], -1.0F, 1.0F);
    }
    const double gripper = block_gripper_ ? 0.0 : static_cast<double>(a[3]);
    // ctrl_set_action: the gripper's actuators (PickAndPlace's), position
    // ones relative to their joint
    for (int i = 0; i < m.nu; ++i) {
      d.ctrl[i] = gripper;
      if (m.actuator_biastype[i] != mjBIAS_NONE) {
        const int joint = m.actuator_trnid[2 * static_cast<std::ptrdiff_t>(i)];
        d.ctrl[i] = d.qpos[m.jnt_qposadr[joint]] + gripper;
      }
    }
    // mocap_set_action: the mocap body moved from where its welded body is
    MocapToWeldedBodies();
    constexpr std::array<double, 4> kRotation{1.0, 0.0, 1.0, 0.0};
    for (std::ptrdiff_t k = 0; k < m.nmocap; ++k) {
      double* pos = d.mocap_pos + 3 * k;
      double* quat = d.mocap_quat + 4 * k;
      for (std::size_t i = 0; i < 3; ++i) {
        pos[i] += static_cast<double>(a[i] * 0.05F);
      }
      for (std::size_t i = 0; i < 4; ++i) {
        quat[i] += kRotation[i];
      }
    }
    for (int i = 0; i < n_substeps_; ++i) {
      mj_step(&m, &d);
    }
    if (block_gripper_) {
      d.qpos[l_finger_] = 0.0;
      d.qpos[r_finger_] = 0.0;
      mj_forward(&m, &d);
    }
    const Vec3 achieved = Write(out);
    const double distance = GoalDistance(achieved);
    out.reward =
        dense_ ? -distance : (distance > distance_threshold_ ? -1.0 : -0.0);
  }

  // _render_callback: the target site moved to the goal (by site 0's offset
  // between its place and its model position, as gymnasium-robotics writes
  // it), then mj_forward; the state changes as gymnasium-robotics' render()
  // changes it. (The pool calls the env's own Render: hiding MujocoTask's is
  // the point.)
  // NOLINTNEXTLINE(bugprone-derived-method-shadowing-base-method)
  void Render(std::span<std::uint8_t> rgb) {
    mjModel& m = sim_.own_model();
    mjData& d = sim_.data();
    const Vec3 offset{d.site_xpos[0] - m.site_pos[0],
                      d.site_xpos[1] - m.site_pos[1],
                      d.site_xpos[2] - m.site_pos[2]};
    const std::ptrdiff_t target = sim_.Id(mjOBJ_SITE, "target0");
    for (std::ptrdiff_t i = 0; i < 3; ++i) {
      m.site_pos[3 * target + i] = goal_[i] - offset[i];
    }
    mj_forward(&m, &d);
    sim_.Render(rgb);
  }

 private:
  static std::shared_ptr<const mjModel> Model(const Config& config) {
    return LoadModelFile(config, "the Fetch task's model");
  }

  static Vec3 Triple(const Config& config, const char* name) {
    const auto values = config.Get<std::vector<double>>(name);
    if (values.size() != 3) {
      throw std::invalid_argument(std::string("option '") + name +
                                  "' must hold 3 values");
    }
    return {values[0], values[1], values[2]};
  }

  int QposAddress(const char* joint) const {
    return sim_.model().jnt_qposadr[sim_.Id(mjOBJ_JOINT, joint)];
  }
  int DofAddress(const char* joint) const {
    return sim_.model().jnt_dofadr[sim_.Id(mjOBJ_JOINT, joint)];
  }

  // _env_setup: the initial joints, the welds reset, the gripper moved into
  // place by its mocap over ten steps; then the state every episode starts
  // from.
  void SetUp(const Config& config) {
    mjModel& m = sim_.own_model();
    mjData& d = sim_.data();
    const auto slides = config.Get<std::vector<double>>("initial_slides");
    if (slides.size() != 3) {
      throw std::invalid_argument("option 'initial_slides' must hold 3 values");
    }
    const std::array<const char*, 3> names{"robot0:slide0", "robot0:slide1",
                                           "robot0:slide2"};
    for (std::size_t i = 0; i < names.size(); ++i) {
      d.qpos[QposAddress(names[i])] = slides[i];
    }
    const auto object = config.Get<std::vector<double>>("initial_object");
    if (has_object_) {
      if (object.size() != 7) {
        throw std::invalid_argument(
            "option 'initial_object' must hold the block's 7 qpos values");
      }
      std::ranges::copy(object, d.qpos + object_joint_);
    }
    // reset_mocap_welds
    for (int i = 0; i < m.neq; ++i) {
      if (m.eq_type[i] == mjEQ_WELD) {
        double* data = m.eq_data + static_cast<std::ptrdiff_t>(i) * mjNEQDATA;
        std::fill(data, data + 7, 0.0);
        data[6] = 1.0;
      }
    }
    mj_forward(&m, &d);
    const double* grip =
        d.site_xpos + 3 * static_cast<std::ptrdiff_t>(grip_site_);
    const Vec3 offset{-0.498, 0.005,
                      -0.431 + config.Get<double>("gripper_extra_height")};
    const std::ptrdiff_t mocap =
        m.body_mocapid[sim_.Id(mjOBJ_BODY, "robot0:mocap")];
    for (std::size_t i = 0; i < 3; ++i) {
      d.mocap_pos[3 * mocap + static_cast<std::ptrdiff_t>(i)] =
          offset[i] + grip[i];
    }
    const std::array<double, 4> rotation{1.0, 0.0, 1.0, 0.0};
    std::ranges::copy(rotation,
                      d.mocap_quat + 4 * static_cast<std::ptrdiff_t>(mocap));
    for (int i = 0; i < 10 * n_substeps_; ++i) {
      mj_step(&m, &d);
    }
    std::copy_n(d.site_xpos + 3 * static_cast<std::ptrdiff_t>(grip_site_), 3,
                initial_grip_.begin());
    if (has_object_) {
      height_offset_ =
          d.site_xpos[3 * static_cast<std::ptrdiff_t>(object_site_) + 2];
    }
    initial_time_ = d.time;
    initial_qpos_.assign(d.qpos, d.qpos + m.nq);
    initial_qvel_.assign(d.qvel, d.qvel + m.nv);
  }

  // reset_mocap2body_xpos: each weld's mocap body put where its other body is
  void MocapToWeldedBodies() {
    const mjModel& m = sim_.model();
    mjData& d = sim_.data();
    for (int i = 0; i < m.neq; ++i) {
      if (m.eq_type[i] != mjEQ_WELD) {
        continue;
      }
      int mocap = m.body_mocapid[m.eq_obj1id[i]];
      int body = m.eq_obj2id[i];
      if (mocap == -1) {
        mocap = m.body_mocapid[m.eq_obj2id[i]];
        body = m.eq_obj1id[i];
      }
      if (mocap == -1) {
        continue;
      }
      std::copy_n(d.xpos + 3 * static_cast<std::ptrdiff_t>(body), 3,
                  d.mocap_pos + 3 * static_cast<std::ptrdiff_t>(mocap));
      std::copy_n(d.xquat + 4 * static_cast<std::ptrdiff_t>(body), 4,
                  d.mocap_quat + 4 * static_cast<std::ptrdiff_t>(mocap));
    }
  }

  void SampleGoal() {
    for (std::size_t i = 0; i < 3; ++i) {
      goal_[i] =
          initial_grip_[i] + np_random_.Uniform(-target_range_, target_range_);
    }
    if (!has_object_) {
      return;
    }
    for (std::size_t i = 0; i < 3; ++i) {
      goal_[i] += target_offset_[i];
    }
    goal_[2] = height_offset_;
    if (target_in_the_air_ && np_random_.Uniform(0.0, 1.0) < 0.5) {
      goal_[2] += np_random_.Uniform(0.0, 0.45);
    }
  }

  // goal_distance: np.linalg.norm(a - b, axis=-1), a sum of the squares
  double GoalDistance(const Vec3& achieved) const {
    const Vec3 delta{achieved[0] - goal_[0], achieved[1] - goal_[1],
                     achieved[2] - goal_[2]};
    return std::sqrt(delta[0] * delta[0] + delta[1] * delta[1] +
                     delta[2] * delta[2]);
  }

  // The site's linear (or angular) velocity times dt: its Jacobian @ qvel.
  Vec3 SiteVelocity(int site, bool angular) {
    const mjData& d = sim_.data();
    mj_jacSite(&sim_.model(), &d, angular ? nullptr : jacobian_.data(),
               angular ? jacobian_.data() : nullptr, site);
    Vec3 velocity{};
    NpMatVec(jacobian_.data(), 3, sim_.nv(), d.qvel, velocity.data());
    for (double& v : velocity) {
      v *= dt_;
    }
    return velocity;
  }

  // The observation; returns the achieved goal.
  Vec3 Write(Output& out) {
    const mjData& d = sim_.data();
    Vec3 grip;
    std::copy_n(d.site_xpos + 3 * static_cast<std::ptrdiff_t>(grip_site_), 3,
                grip.begin());
    const Vec3 grip_velp = SiteVelocity(grip_site_, false);
    auto obs = out.Obs<double>(2);
    auto it = obs.begin();
    it = std::ranges::copy(grip, it).out;
    Vec3 achieved = grip;
    if (has_object_) {
      Vec3 object;
      std::copy_n(d.site_xpos + 3 * static_cast<std::ptrdiff_t>(object_site_),
                  3, object.begin());
      const Vec3 rotation = Mat2Euler(
          d.site_xmat + 9 * static_cast<std::ptrdiff_t>(object_site_));
      Vec3 velp = SiteVelocity(object_site_, false);
      const Vec3 velr = SiteVelocity(object_site_, true);
      it = std::ranges::copy(object, it).out;
      for (std::size_t i = 0; i < 3; ++i) {
        *it++ = object[i] - grip[i];
        velp[i] -= grip_velp[i];
      }
      *it++ = d.qpos[r_finger_];
      *it++ = d.qpos[l_finger_];
      it = std::ranges::copy(rotation, it).out;
      it = std::ranges::copy(velp, it).out;
      it = std::ranges::copy(velr, it).out;
      achieved = object;
    } else {
      *it++ = d.qpos[r_finger_];
      *it++ = d.qpos[l_finger_];
    }
    it = std::ranges::copy(grip_velp, it).out;
    *it++ = d.qvel[finger_dofs_[0]] * dt_;
    *it++ = d.qvel[finger_dofs_[1]] * dt_;
    std::ranges::copy(achieved, out.Obs<double>(0).begin());
    std::ranges::copy(goal_, out.Obs<double>(1).begin());
    out.Info<float>(0)[0] =
        GoalDistance(achieved) < distance_threshold_ ? 1.0F : 0.0F;
    return achieved;
  }

  bool has_object_;
  bool block_gripper_;
  bool target_in_the_air_;
  Vec3 target_offset_;
  double obj_range_;
  double target_range_;
  double distance_threshold_;
  bool dense_;
  int n_substeps_;
  double dt_;
  int grip_site_;
  int object_site_;
  int object_joint_;
  int l_finger_;
  int r_finger_;
  std::array<int, 2> finger_dofs_;
  std::vector<double> jacobian_;
  Vec3 initial_grip_{};
  double height_offset_ = 0.0;
  double initial_time_ = 0.0;
  std::vector<double> initial_qpos_;
  std::vector<double> initial_qvel_;
  NumpyRandom np_random_;
  Vec3 goal_{};
};

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_FETCH_H_
