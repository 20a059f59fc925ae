// One MuJoCo simulation as gymnasium's MujocoEnv (gymnasium 1.4,
// envs/mujoco/mujoco_env.py) runs it: the model loaded from an XML file, reset
// to noisy initial states, stepped frame_skip times per action.
#ifndef ENVPOOL_MUJOCO_MUJOCO_SIM_H_
#define ENVPOOL_MUJOCO_MUJOCO_SIM_H_

#include <mujoco/mujoco.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"
#include "envpool/mujoco/egl_renderer.h"

namespace envpool::mujoco {

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

// Models compiled once per file (and per version of it) and shared read-only
// by every env: mj_step never writes to the model.
inline std::shared_ptr<const mjModel> LoadModel(const std::string& path) {
  using Key = std::tuple<std::string, std::int64_t, std::int64_t>;
  static std::mutex mutex;
  static std::map<Key, std::shared_ptr<const mjModel>> cache;
  struct stat info{};
  if (stat(path.c_str(), &info) != 0) {
    throw std::invalid_argument("model file " + path + " does not exist");
  }
  const Key key{path, static_cast<std::int64_t>(info.st_mtime),
                static_cast<std::int64_t>(info.st_size)};
  const std::lock_guard lock(mutex);
  if (auto it = cache.find(key); it != cache.end()) {
    return it->second;
  }
  char error[1000] = "";
  mjModel* model = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
  if (model == nullptr) {
    throw std::invalid_argument("MuJoCo could not load " + path + ": " + error);
  }
  std::shared_ptr<const mjModel> shared(
      model, [](const mjModel* m) { mj_deleteModel(const_cast<mjModel*>(m)); });
  cache.emplace(key, shared);
  return shared;
}

inline std::shared_ptr<const mjModel> LoadModel(const Config& config) {
  return LoadModel(ResolveModelPath(config.Get<std::string>("xml_file"),
                                    config.Get<std::string>("assets_dir")));
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
  std::vector<double> low(model.nu);
  std::vector<double> high(model.nu);
  for (int i = 0; i < model.nu; ++i) {
    const mjtNum* range =
        model.actuator_ctrlrange + 2 * static_cast<std::ptrdiff_t>(i);
    low[i] = static_cast<float>(range[0]);
    high[i] = static_cast<float>(range[1]);
  }
  return MakeArray<float>("action", {model.nu}, low, high);
}

inline ArraySpec ObsSpec(std::int64_t size) {
  return MakeArray<double>("obs", {size}, {-kInf}, {kInf});
}

// Scalar float64 info arrays, then the initial state of the episode
// (info["qpos0"], info["qvel0"]), which lets gymnasium replay it.
inline std::vector<ArraySpec> InfoSpecs(
    const mjModel& model, std::initializer_list<const char*> names,
    std::vector<ArraySpec> more = {}) {
  std::vector<ArraySpec> info;
  for (const char* name : names) {
    info.push_back(MakeArray<double>(name, {}));
  }
  for (auto& array : more) {
    info.push_back(std::move(array));
  }
  info.push_back(MakeArray<double>("qpos0", {model.nq}));
  info.push_back(MakeArray<double>("qvel0", {model.nv}));
  return info;
}

class MujocoSim {
 public:
  using Action = std::span<const float>;

  explicit MujocoSim(const Config& config)
      : model_(LoadModel(config)),
        data_(mj_makeData(model_.get()), &mj_deleteData),
        frame_skip_(static_cast<int>(config.Get<std::int64_t>("frame_skip"))),
        dt_(model_->opt.timestep * static_cast<double>(frame_skip_)),
        init_qpos_(data_->qpos, data_->qpos + model_->nq),
        init_qvel_(data_->qvel, data_->qvel + model_->nv),
        qpos0_(model_->nq),
        qvel0_(model_->nv),
        width_(static_cast<int>(config.Get<std::int64_t>("width"))),
        height_(static_cast<int>(config.Get<std::int64_t>("height"))),
        camera_{config.Get<double>("camera_distance"),
                config.Get<double>("camera_elevation"),
                config.Get<std::vector<double>>("camera_lookat")} {
    if (data_ == nullptr) {
      throw std::runtime_error("MuJoCo could not allocate its data");
    }
    if (frame_skip_ < 1) {
      throw std::invalid_argument("option 'frame_skip' must be >= 1, got " +
                                  std::to_string(frame_skip_));
    }
  }

  const mjModel& model() const { return *model_; }
  mjData& data() { return *data_; }
  const mjData& data() const { return *data_; }
  double dt() const { return dt_; }
  std::span<const double> init_qpos() const { return init_qpos_; }
  std::span<const double> init_qvel() const { return init_qvel_; }
  std::span<double> init_qpos_mutable() { return init_qpos_; }
  std::span<const double> qpos() const { return {data_->qpos, nq()}; }
  std::span<const double> qvel() const { return {data_->qvel, nv()}; }
  std::size_t nq() const { return static_cast<std::size_t>(model_->nq); }
  std::size_t nv() const { return static_cast<std::size_t>(model_->nv); }

  // mj_resetData, as MujocoEnv.reset does before the task draws its state.
  void ResetData() { mj_resetData(model_.get(), data_.get()); }

  // MujocoEnv.set_state: the episode starts at (qpos, qvel).
  void SetState(std::span<const double> qpos, std::span<const double> qvel) {
    std::copy(qpos.begin(), qpos.end(), data_->qpos);
    std::copy(qvel.begin(), qvel.end(), data_->qvel);
    std::copy(qpos.begin(), qpos.end(), qpos0_.begin());
    std::copy(qvel.begin(), qvel.end(), qvel0_.begin());
    mj_forward(model_.get(), data_.get());
  }

  // MujocoEnv.do_simulation: ctrl = action (float32 widened), frame_skip
  // mj_steps, then the post-constraint pass that fills cfrc_ext.
  void DoSimulation(Action action) {
    std::copy(action.begin(), action.end(), data_->ctrl);
    for (int i = 0; i < frame_skip_; ++i) {
      mj_step(model_.get(), data_.get());
    }
    mj_rnePostConstraint(model_.get(), data_.get());
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

  int BodyId(const char* name) const {
    const int id = mj_name2id(model_.get(), mjOBJ_BODY, name);
    if (id < 0) {
      throw std::invalid_argument(std::string("the model has no body '") +
                                  name + "'");
    }
    return id;
  }

  // data.body(id).xpos
  std::span<const double, 3> BodyPos(int id) const {
    return std::span<const double, 3>(
        data_->xpos + 3 * static_cast<std::ptrdiff_t>(id), 3);
  }

  // {height, width, 3}: the frames Render draws.
  static std::vector<std::int64_t> RenderShape(const Config& config) {
    const auto width = config.Get<std::int64_t>("width");
    const auto height = config.Get<std::int64_t>("height");
    if (width < 1 || height < 1 || width > 8192 || height > 8192) {
      throw std::invalid_argument(
          "options 'width' and 'height' must be in [1, 8192], got " +
          std::to_string(width) + " x " + std::to_string(height));
    }
    return {height, width, 3};
  }

  void Render(std::span<std::uint8_t> rgb) {
    if (renderer_ == nullptr) {
      renderer_ = std::make_unique<EglRenderer>(width_, height_, camera_);
    }
    renderer_->Render(*model_, *data_, rgb);
  }

  // Writes the episode's initial state into the last two info arrays.
  void WriteInitialState(Output& out, std::size_t qpos0_index) const {
    std::ranges::copy(qpos0_, out.Info<double>(qpos0_index).begin());
    std::ranges::copy(qvel0_, out.Info<double>(qpos0_index + 1).begin());
  }

 private:
  std::shared_ptr<const mjModel> model_;
  std::unique_ptr<mjData, decltype(&mj_deleteData)> data_;
  int frame_skip_;
  double dt_;
  std::vector<double> init_qpos_;
  std::vector<double> init_qvel_;
  std::vector<double> qpos0_;
  std::vector<double> qvel0_;
  int width_;
  int height_;
  CameraConfig camera_;
  std::unique_ptr<EglRenderer> renderer_;
};

// What every MuJoCo task shares: its simulation, its action type (one
// float32 per actuator) and rendering.
class MujocoTask {
 public:
  using Action = MujocoSim::Action;

  static std::vector<std::int64_t> RenderShape(const Config& config) {
    return MujocoSim::RenderShape(config);
  }
  void Render(std::span<std::uint8_t> rgb) { sim_.Render(rgb); }

  MujocoSim& sim() { return sim_; }

 protected:
  explicit MujocoTask(const Config& config) : sim_(config) {}

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
