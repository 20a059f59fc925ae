// MuJoCo models loaded once per file, and one env's model and data over them:
// what gymnasium's MuJoCo tasks and dm_control's Physics both start from.
#ifndef ENVPOOL_MUJOCO_RUNTIME_MODEL_H_
#define ENVPOOL_MUJOCO_RUNTIME_MODEL_H_

#include <mujoco/mujoco.h>
#include <sys/stat.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace envpool::mujoco_runtime {

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

// A model compiled from MJCF text held in memory (no file), once per text:
// what a task that writes its model at make time (a maze) loads.
inline std::shared_ptr<const mjModel> LoadModelFromXml(const std::string& xml) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const mjModel>> cache;
  const std::lock_guard lock(mutex);
  if (auto it = cache.find(xml); it != cache.end()) {
    return it->second;
  }
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  const char* name = "model.xml";
  if (mj_addBufferVFS(&vfs, name, xml.data(), static_cast<int>(xml.size())) !=
      0) {
    mj_deleteVFS(&vfs);
    throw std::runtime_error("MuJoCo could not hold the model's text");
  }
  char error[1000] = "";
  mjModel* model = mj_loadXML(name, &vfs, error, sizeof(error));
  mj_deleteVFS(&vfs);
  if (model == nullptr) {
    throw std::invalid_argument(
        std::string("MuJoCo could not load the model: ") + error);
  }
  std::shared_ptr<const mjModel> shared(
      model, [](const mjModel* m) { mj_deleteModel(const_cast<mjModel*>(m)); });
  cache.emplace(xml, shared);
  return shared;
}

// Whether an env reads the loaded model as it is, or needs its own copy to
// write to (dm_control's tasks move targets in the model, and a forward pass
// without actuation writes model->opt).
enum class ModelUse : std::uint8_t { kShared, kOwnCopy };

// One env's mjData over the model of `model_file`.
class ModelData {
 public:
  ModelData(const std::string& model_file, ModelUse use)
      : ModelData(LoadModel(model_file), use) {}

  // One env's mjData over a model already loaded.
  ModelData(std::shared_ptr<const mjModel> model, ModelUse use)
      : shared_(std::move(model)),
        copy_(use == ModelUse::kOwnCopy ? Copy(*shared_) : nullptr,
              &mj_deleteModel),
        model_(copy_ != nullptr ? copy_.get() : shared_.get()),
        data_(mj_makeData(model_), &mj_deleteData) {
    if (data_ == nullptr) {
      throw std::runtime_error("MuJoCo could not allocate its data");
    }
  }

  const mjModel& model() const { return *model_; }
  // The env's own copy (ModelUse::kOwnCopy only).
  mjModel& own_model() { return *copy_; }
  mjData& data() { return *data_; }
  const mjData& data() const { return *data_; }

  // The id of the model's `type` object called `name`.
  int Id(mjtObj type, const char* name) const {
    const int id = mj_name2id(model_, type, name);
    if (id < 0) {
      throw std::invalid_argument(std::string("the model has no ") +
                                  mju_type2Str(type) + " '" + name + "'");
    }
    return id;
  }

 private:
  static mjModel* Copy(const mjModel& model) {
    mjModel* copy = mj_copyModel(nullptr, &model);
    if (copy == nullptr) {
      throw std::runtime_error("MuJoCo could not copy the model");
    }
    return copy;
  }

  std::shared_ptr<const mjModel> shared_;
  std::unique_ptr<mjModel, decltype(&mj_deleteModel)> copy_;
  const mjModel* model_;
  std::unique_ptr<mjData, decltype(&mj_deleteData)> data_;
};

}  // namespace envpool::mujoco_runtime

#endif  // ENVPOOL_MUJOCO_RUNTIME_MODEL_H_
