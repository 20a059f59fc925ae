// A DeepMind Control Suite task as one envpool env: dm_control's
// control.Environment (rl/control.py) around a Task that supplies the
// episode's start, the observation and the reward (its contract: task.h).
#ifndef ENVPOOL_DMC_DMC_ENV_H_
#define ENVPOOL_DMC_DMC_ENV_H_

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"
#include "envpool/dmc/model_values.h"
#include "envpool/dmc/physics.h"
#include "envpool/dmc/randomizers.h"
#include "envpool/dmc/rewards.h"
#include "envpool/dmc/task.h"
#include "envpool/mujoco_runtime/action_spec.h"
#include "envpool/mujoco_runtime/env_renderer.h"
#include "envpool/mujoco_runtime/initial_state.h"
#include "envpool/numpy/linalg.h"

namespace envpool::dmc {

// control.compute_n_steps: physics steps per control step.
inline int SubSteps(double control_timestep, double physics_timestep) {
  if (!(control_timestep >= physics_timestep)) {
    throw std::invalid_argument(
        "option 'control_timestep' (" + std::to_string(control_timestep) +
        ") cannot be smaller than the physics timestep (" +
        std::to_string(physics_timestep) + ")");
  }
  const double ratio = control_timestep / physics_timestep;
  if (std::abs(ratio - std::nearbyint(ratio)) > 1e-8) {
    throw std::invalid_argument(
        "option 'control_timestep' (" + std::to_string(control_timestep) +
        ") must be an integer multiple of the physics timestep (" +
        std::to_string(physics_timestep) + ")");
  }
  return static_cast<int>(std::nearbyint(ratio));
}

inline ArraySpec Observation(const char* name,
                             std::vector<std::int64_t> shape) {
  return MakeArray<double>(name, std::move(shape), {-kInf}, {kInf});
}

// The observation of the tasks that show the raw state: the keys position,
// qpos from entry `first_qpos` on (the planar runners leave out their
// horizontal position, 1 entry), and velocity, qvel.
inline std::vector<ArraySpec> StateObservations(const mjModel& m,
                                                int first_qpos = 0) {
  return {Observation("position", {m.nq - first_qpos}),
          Observation("velocity", {m.nv})};
}

// Writes StateObservations(m, first_qpos) to the keys 0 and 1.
inline void ObserveState(const Physics& physics, Output& out,
                         int first_qpos = 0) {
  const mjModel& m = physics.model();
  const mjData& d = physics.data();
  std::copy_n(d.qpos + first_qpos, m.nq - first_qpos,
              out.Obs<double>(0).begin());
  std::copy_n(d.qvel, m.nv, out.Obs<double>(1).begin());
}

// The 3-vector from `origin` to `point` in the frame whose row-major
// rotation matrix is `frame`: the suite's egocentric np.dot(point - origin,
// frame), rounded as numpy rounds it.
inline void EgocentricVector(const double* point, const double* origin,
                             const double* frame, double* out) {
  const std::array<double, 3> global{point[0] - origin[0], point[1] - origin[1],
                                     point[2] - origin[2]};
  NpVecMat3(global.data(), frame, out);
}

template <typename Task>
class DmcEnv {
  // CheckTask's static_asserts name what Task lacks.
  static constexpr bool kTaskChecked = CheckTask<Task>();

 public:
  using Action = std::span<const double>;

  static Config DefaultConfig() {
    Config config{{"model_file", std::string()},
                  {"frame_skip", std::int64_t{1}},
                  {"from_pixels", false},
                  {"pixels_only", true},
                  {"width", std::int64_t{84}},
                  {"height", std::int64_t{84}},
                  {"camera_id", std::int64_t{0}},
                  {"time_limit", Task::kTiming.time_limit},
                  {"control_timestep", Task::kTiming.control_timestep}};
    const Config task_options = OptionsOf<Task>();
    for (const auto& [name, value] : task_options.items()) {
      config.Set(name, value);
    }
    return config;
  }

  static EnvSpec Spec(const Config& config) {
    const Physics physics(ModelFile(config));
    std::vector<ArraySpec> info;
    for (const std::string& name :
         DrawnModelValuesOf<Task>(physics.model(), config)) {
      const auto size =
          static_cast<std::int64_t>(ModelValues(physics.model(), name).size());
      info.push_back(MakeArray<double>(name, {size}));
    }
    mujoco_runtime::InitialState::AppendSpecs(physics.model(), info);
    std::vector<ArraySpec> keys;
    if (!config.Get<bool>("from_pixels") || !config.Get<bool>("pixels_only")) {
      keys = Task::Observations(physics.model(), config);
    }
    if (config.Get<bool>("from_pixels")) {
      keys.push_back(MakeArray<std::uint8_t>("pixels", RenderShape(config)));
    }
    return {MakeDict("obs", std::move(keys)),
            mujoco_runtime::ActuatorActionSpec<double>(
                physics.model(), mujoco_runtime::CtrlBounds::kWhereLimited),
            std::move(info)};
  }

  explicit DmcEnv(const Config& config)
      : physics_(ModelFile(config)),
        task_(config, physics_),
        n_sub_steps_(SubSteps(config.Get<double>("control_timestep"),
                              physics_.timestep())),
        step_limit_(StepLimit(config.Get<double>("time_limit"),
                              physics_.timestep() * n_sub_steps_)),
        frame_skip_(FrameSkip(config)),
        drawn_values_(DrawnValues(physics_.model(), config)),
        initial_state_(physics_.model()),
        camera_id_(static_cast<int>(config.Get<std::int64_t>("camera_id"))),
        renderer_(static_cast<int>(config.Get<std::int64_t>("width")),
                  static_cast<int>(config.Get<std::int64_t>("height")),
                  {.camera_id = camera_id_}),
        from_pixels_(config.Get<bool>("from_pixels")),
        task_observed_(!from_pixels_ || !config.Get<bool>("pixels_only")),
        pixels_key_(task_observed_
                        ? Task::Observations(physics_.model(), config).size()
                        : 0) {
    if (camera_id_ < -1 || camera_id_ >= physics_.model().ncam) {
      throw std::invalid_argument(
          "option 'camera_id' must be -1 (the free camera) or one of the "
          "model's " +
          std::to_string(physics_.model().ncam) + " cameras, got " +
          std::to_string(camera_id_));
    }
  }

  // control.Environment.reset: the task draws the start inside
  // Physics.reset_context. The start is then set again as a replay in
  // dm_control sets it (reset, forward, set qpos/qvel, forward), so that
  // info["qpos0"]/["qvel0"] reproduce this episode bit for bit there.
  void Reset(Rng& rng, Output& out) {
    physics_.Reset();
    task_.Initialize(physics_, rng);
    initial_state_.Record(physics_.data());
    physics_.Reset();
    initial_state_.Restore(physics_.data());
    physics_.AfterReset();
    step_count_ = 0;
    Observe(out);
    for (std::size_t i = 0; i < drawn_values_.size(); ++i) {
      std::ranges::copy(drawn_values_[i], out.Info<double>(i).begin());
    }
    initial_state_.Write(out, drawn_values_.size());
  }

  // control.Environment.step, `frame_skip` times with the same action
  // (rewards summed); the time limit ends the episode with discount 1.
  void Step(Action action, Rng& /*rng*/, Output& out) {
    double reward = 0.0;
    for (int k = 0; k < frame_skip_; ++k) {
      std::ranges::copy(action, physics_.data().ctrl);
      physics_.Step(n_sub_steps_);
      reward += task_.Reward(physics_);
      ++step_count_;
      if (static_cast<double>(step_count_) >= step_limit_) {
        out.truncated = true;
        break;
      }
    }
    out.reward = reward;
    Observe(out);
  }

  static std::vector<std::int64_t> RenderShape(const Config& config) {
    return mujoco_runtime::RenderShape(config);
  }

  void Render(std::span<std::uint8_t> rgb) {
    renderer_.Render(physics_.model(), physics_.data(), rgb);
  }

 private:
  // The task's keys, then with from_pixels the camera's frame (dm_control's
  // pixels.Wrapper; pixels_only leaves the task's keys out).
  void Observe(Output& out) {
    if (task_observed_) {
      task_.Observe(physics_, out);
    }
    if (from_pixels_) {
      Render(out.Obs<std::uint8_t>(pixels_key_));
    }
  }

  // The task's drawn model values, in the env's own model.
  static std::vector<std::span<const mjtNum>> DrawnValues(
      const mjModel& m, const Config& config) {
    std::vector<std::span<const mjtNum>> values;
    for (const std::string& name : DrawnModelValuesOf<Task>(m, config)) {
      values.push_back(ModelValues(m, name));
    }
    return values;
  }

  static std::string ModelFile(const Config& config) {
    auto path = config.Get<std::string>("model_file");
    if (path.empty()) {
      throw std::invalid_argument(
          "option 'model_file' is empty: make DMC tasks with envpool.make, "
          "which writes the task's model from the installed dm_control");
    }
    return path;
  }

  static double StepLimit(double time_limit, double control_timestep) {
    if (!(time_limit > 0)) {
      throw std::invalid_argument("option 'time_limit' must be > 0, got " +
                                  std::to_string(time_limit));
    }
    return std::isinf(time_limit) ? kInf : time_limit / control_timestep;
  }

  static int FrameSkip(const Config& config) {
    const auto frame_skip = config.Get<std::int64_t>("frame_skip");
    if (frame_skip < 1 || frame_skip > 1000) {
      throw std::invalid_argument(
          "option 'frame_skip' must be in [1, 1000], "
          "got " +
          std::to_string(frame_skip));
    }
    return static_cast<int>(frame_skip);
  }

  Physics physics_;
  Task task_;
  int n_sub_steps_;
  double step_limit_;
  int frame_skip_;
  std::vector<std::span<const mjtNum>> drawn_values_;  // info keys 0, 1, ...
  mujoco_runtime::InitialState initial_state_;
  std::int64_t step_count_ = 0;
  int camera_id_;
  mujoco_runtime::EnvRenderer renderer_;
  bool from_pixels_;
  bool task_observed_;
  std::size_t pixels_key_;
};

}  // namespace envpool::dmc

#endif  // ENVPOOL_DMC_DMC_ENV_H_
