// One MuJoCo simulation as gymnasium's MujocoEnv (gymnasium 1.4,
// envs/mujoco/mujoco_env.py) runs it: the model loaded from an XML file, reset
// to noisy initial states, stepped frame_skip times per action.
#ifndef ENVPOOL_MUJOCO_MUJOCO_SIM_H_
#define ENVPOOL_MUJOCO_MUJOCO_SIM_H_

#include <mujoco/mujoco.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"
#include "envpool/mujoco_runtime/action_spec.h"
#include "envpool/mujoco_runtime/egl_renderer.h"
#include "envpool/mujoco_runtime/env_renderer.h"
#include "envpool/mujoco_runtime/initial_state.h"
#include "envpool/mujoco_runtime/model.h"

namespace envpool::mujoco {

using mujoco_runtime::CameraConfig;

// np.clip on a float: max then min, so NaN passes through.
inline double Clip(double x, double low, double high) {
  return std::min(std::max(x, low), high);
}

// gymnasium's expand_model_path: a name not starting with '.', '/' or '~' is
// one of the model files that ship with gymnasium, in `assets_dir`.
inline std::string ResolveModelPath(const std::string& xml_file,
                                    const std::string& assets_dir) {
  if (xml_file.empty()) {
    throw std::invalid_argument("option 'xml_file' is empty");
  }
  std::string path;
  if (xml_file[0] == '.' || xml_file[0] == '/') {
    path = xml_file;
  } else if (xml_file[0] == '~') {
    // NOLINTNEXTLINE(concurrency-mt-unsafe): nothing here calls setenv
    const char* home = std::getenv("HOME");
    path = std::string(home != nullptr ? home : "") + xml_file.substr(1);
  } else {
    path = assets_dir + "/" + xml_file;
  }
  struct stat info{};
  if (stat(path.c_str(), &info) != 0) {
    throw std::invalid_argument("option 'xml_file': model file " + path +
                                " does not exist");
  }
  return path;
}

// The model file the options name.
inline std::string ModelPath(const Config& config) {
  return ResolveModelPath(config.Get<std::string>("xml_file"),
                          config.Get<std::string>("assets_dir"));
}

inline std::shared_ptr<const mjModel> LoadModel(const Config& config) {
  return mujoco_runtime::LoadModel(ModelPath(config));
}

// The options every MuJoCo task has, followed by the task's own. The camera
// options are gymnasium's default_camera_config for the task.
inline Config MujocoConfig(const std::string& xml_file, std::int64_t frame_skip,
                           const Config& own, CameraConfig camera = {}) {
  Config config{{"xml_file", xml_file},
                {"assets_dir", std::string()},
                {"frame_skip", frame_skip},
                {"width", std::int64_t{480}},
                {"height", std::int64_t{480}},
                {"camera_distance", camera.distance},
                {"camera_elevation", camera.elevation},
                {"camera_azimuth", camera.azimuth},
                {"camera_lookat", camera.lookat}};
  for (const auto& [name, value] : own.items()) {
    config.Set(name, value);
  }
  return config;
}

// A (low, high) option.
inline std::pair<double, double> RangeOption(const Config& config,
                                             const std::string& name) {
  const auto values = config.Get<std::vector<double>>(name);
  if (values.size() != 2) {
    throw std::invalid_argument("option '" + name +
                                "' must be a (low, high) pair, got " +
                                std::to_string(values.size()) + " values");
  }
  return {values[0], values[1]};
}

// The action array: one float32 per actuator, bounded by its ctrlrange.
inline ArraySpec ActionSpec(const mjModel& model) {
  return mujoco_runtime::ActuatorActionSpec<float>(
      model, mujoco_runtime::CtrlBounds::kCtrlRange);
}

inline ArraySpec ObsSpec(std::int64_t size) {
  return MakeArray<double>("obs", {size}, {-kInf}, {kInf});
}

// Scalar float64 info arrays, then the initial state of the episode
// (info["qpos0"], info["qvel0"]), which lets gymnasium replay it.
inline std::vector<ArraySpec> InfoSpecs(const mjModel& model,
                                        const std::vector<const char*>& names,
                                        std::vector<ArraySpec> more = {}) {
  std::vector<ArraySpec> info;
  info.reserve(names.size() + more.size());
  for (const char* name : names) {
    info.push_back(MakeArray<double>(name, {}));
  }
  for (auto& array : more) {
    info.push_back(std::move(array));
  }
  mujoco_runtime::InitialState::AppendSpecs(model, info);
  return info;
}

class MujocoSim {
 public:
  using Action = std::span<const float>;

  explicit MujocoSim(const Config& config)
      : MujocoSim(config, LoadModel(config),
                  mujoco_runtime::ModelUse::kShared) {}

  // Over a model already loaded (a task that writes its model in memory);
  // kOwnCopy for a task that edits its model, e.g. moves a site.
  MujocoSim(const Config& config, std::shared_ptr<const mjModel> loaded,
            mujoco_runtime::ModelUse use)
      : model_data_(std::move(loaded), use),
        frame_skip_(static_cast<int>(config.Get<std::int64_t>("frame_skip"))),
        dt_(model().opt.timestep * static_cast<double>(frame_skip_)),
        init_qpos_(data().qpos, data().qpos + model().nq),
        init_qvel_(data().qvel, data().qvel + model().nv),
        initial_state_(model()),
        renderer_(static_cast<int>(config.Get<std::int64_t>("width")),
                  static_cast<int>(config.Get<std::int64_t>("height")),
                  {.distance = config.Get<double>("camera_distance"),
                   .elevation = config.Get<double>("camera_elevation"),
                   .lookat = config.Get<std::vector<double>>("camera_lookat"),
                   .azimuth = config.Get<double>("camera_azimuth")}) {
    if (frame_skip_ < 1) {
      throw std::invalid_argument("option 'frame_skip' must be >= 1, got " +
                                  std::to_string(frame_skip_));
    }
  }

  const mjModel& model() const { return model_data_.model(); }
  // The env's own copy of the model (ModelUse::kOwnCopy only).
  mjModel& own_model() { return model_data_.own_model(); }
  mjData& data() { return model_data_.data(); }
  const mjData& data() const { return model_data_.data(); }
  double dt() const { return dt_; }
  int frame_skip() const { return frame_skip_; }
  std::span<const double> init_qpos() const { return init_qpos_; }
  std::span<const double> init_qvel() const { return init_qvel_; }
  std::span<double> init_qpos_mutable() { return init_qpos_; }
  std::span<const double> qpos() const { return {data().qpos, nq()}; }
  std::span<const double> qvel() const { return {data().qvel, nv()}; }
  // qpos[:N], by value.
  template <std::size_t N>
  std::array<double, N> QposHead() const {
    std::array<double, N> head;
    std::copy_n(data().qpos, N, head.begin());
    return head;
  }
  std::size_t nq() const { return static_cast<std::size_t>(model().nq); }
  std::size_t nv() const { return static_cast<std::size_t>(model().nv); }

  // mj_resetData, as MujocoEnv.reset does before the task draws its state.
  void ResetData() { mj_resetData(&model(), &data()); }

  // MujocoEnv.set_state: the episode starts at (qpos, qvel).
  void SetState(std::span<const double> qpos, std::span<const double> qvel) {
    initial_state_.Record(qpos, qvel);
    initial_state_.Restore(data());
    mj_forward(&model(), &data());
  }

  // MujocoEnv.do_simulation: ctrl = action (float32 widened), frame_skip
  // mj_steps, then the post-constraint pass that fills cfrc_ext.
  void DoSimulation(Action action) {
    const mjModel* m = &model();
    mjData* d = &data();
    std::copy(action.begin(), action.end(), d->ctrl);
    for (int i = 0; i < frame_skip_; ++i) {
      mj_step(m, d);
    }
    mj_rnePostConstraint(m, d);
  }

  // DoSimulation, and how fast the coordinates that `position` returns (an
  // std::array) moved over it: (after - before) / dt each.
  template <typename Position>
  auto DoSimulation(Action action, Position position) {
    const auto before = position();
    DoSimulation(action);
    auto velocity = position();
    for (std::size_t i = 0; i < velocity.size(); ++i) {
      velocity[i] = (velocity[i] - before[i]) / dt_;
    }
    return velocity;
  }

  // The usual reset_model: qpos = init_qpos + U(-scale, scale); qvel =
  // init_qvel + scale * N(0, 1) if `normal_qvel`, else + U(-scale, scale).
  void ResetWithNoise(Rng& rng, double scale, bool normal_qvel) {
    ResetData();
    std::vector<double> qpos(init_qpos_);
    std::vector<double> qvel(init_qvel_);
    for (double& q : qpos) {
      q += rng.Uniform(-scale, scale);
    }
    for (double& v : qvel) {
      v += normal_qvel ? scale * rng.Normal() : rng.Uniform(-scale, scale);
    }
    SetState(qpos, qvel);
  }

  // The id of the model's object of `type` named `name`; an error naming
  // both where the model has none.
  int Id(mjtObj type, const char* name) const {
    return model_data_.Id(type, name);
  }
  int BodyId(const char* name) const {
    return model_data_.Id(mjOBJ_BODY, name);
  }

  // data.body(id).xpos
  std::span<const double, 3> BodyPos(int id) const {
    return std::span<const double, 3>(
        data().xpos + 3 * static_cast<std::ptrdiff_t>(id), 3);
  }

  void Render(std::span<std::uint8_t> rgb) {
    renderer_.Render(model(), data(), rgb);
  }

  // Writes the episode's initial state into the last two info arrays.
  void WriteInitialState(Output& out, std::size_t qpos0_index) const {
    initial_state_.Write(out, qpos0_index);
  }

 private:
  mujoco_runtime::ModelData model_data_;
  int frame_skip_;
  double dt_;
  std::vector<double> init_qpos_;
  std::vector<double> init_qvel_;
  mujoco_runtime::InitialState initial_state_;
  mujoco_runtime::EnvRenderer renderer_;
};

// What every MuJoCo task shares: its simulation, its action type (one
// float32 per actuator) and rendering.
class MujocoTask {
 public:
  using Action = MujocoSim::Action;

  static std::vector<std::int64_t> RenderShape(const Config& config) {
    return mujoco_runtime::RenderShape(config);
  }
  void Render(std::span<std::uint8_t> rgb) { sim_.Render(rgb); }

  MujocoSim& sim() { return sim_; }

 protected:
  explicit MujocoTask(const Config& config) : sim_(config) {}
  MujocoTask(const Config& config, std::shared_ptr<const mjModel> model,
             mujoco_runtime::ModelUse use)
      : sim_(config, std::move(model), use) {}

  MujocoSim sim_;
};

inline void SetInfo(Output& out, std::size_t index, double value) {
  out.Info<double>(index)[0] = value;
}

// Fills the observation piece by piece, as np.concatenate does.
class ObsWriter {
 public:
  explicit ObsWriter(Output& out) : obs_(out.Obs<double>()) {}
  ObsWriter& Put(std::span<const double> values) {
    std::ranges::copy(values, obs_.begin() + static_cast<std::ptrdiff_t>(k_));
    k_ += values.size();
    return *this;
  }
  ObsWriter& Put(double value) {
    obs_[k_++] = value;
    return *this;
  }
  // np.clip(values, low, high)
  ObsWriter& PutClipped(std::span<const double> values, double low,
                        double high) {
    for (double v : values) {
      obs_[k_++] = Clip(v, low, high);
    }
    return *this;
  }

 private:
  std::span<double> obs_;
  std::size_t k_ = 0;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_MUJOCO_SIM_H_
