// One dm_control Physics (dm_control 1.0.50, mujoco/engine.py and
// rl/control.py), driven by raw MuJoCo calls in the same order, so the
// states it produces are bit-identical to dm_control's.
#ifndef ENVPOOL_DMC_PHYSICS_H_
#define ENVPOOL_DMC_PHYSICS_H_

#include <mujoco/mujoco.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "envpool/mujoco/mujoco_sim.h"

namespace envpool::dmc {

class Physics {
 public:
  // Each env owns a copy of the model: tasks move targets in it, and
  // disabling actuation for a forward pass writes model->opt.
  explicit Physics(const std::string& model_file)
      : model_(CopyModel(*mujoco::LoadModel(model_file)), &mj_deleteModel),
        data_(mj_makeData(model_.get()), &mj_deleteData) {
    if (data_ == nullptr) {
      throw std::runtime_error("MuJoCo could not allocate its data");
    }
  }

  mjModel& model() { return *model_; }
  const mjModel& model() const { return *model_; }
  mjData& data() { return *data_; }
  const mjData& data() const { return *data_; }
  double timestep() const { return model_->opt.timestep; }

  // Physics.reset: mj_resetData, then a forward pass without actuation.
  void Reset() {
    mj_resetData(model_.get(), data_.get());
    AfterReset();
  }

  // Physics.after_reset: mj_forward with actuation disabled.
  void AfterReset() {
    const int saved = model_->opt.disableflags;
    model_->opt.disableflags = saved | mjDSBL_ACTUATION;
    mj_forward(model_.get(), data_.get());
    model_->opt.disableflags = saved;
  }

  // Physics.step with legacy_step (dm_control's default): positions and
  // velocities stay up to date with the state after the last step.
  void Step(int n) {
    mjModel* m = model_.get();
    mjData* d = data_.get();
    if (m->opt.integrator != mjINT_RK4) {
      mj_step2(m, d);
      for (int i = 1; i < n; ++i) {
        mj_step(m, d);
      }
    } else {
      for (int i = 0; i < n; ++i) {
        mj_step(m, d);
      }
    }
    mj_step1(m, d);
  }

  int Id(mjtObj type, const char* name) const {
    const int id = mj_name2id(model_.get(), type, name);
    if (id < 0) {
      throw std::invalid_argument(std::string("the model has no ") +
                                  mju_type2Str(type) + " '" + name + "'");
    }
    return id;
  }
  // Index of a joint's first qpos / qvel entry (named.data.qpos[joint]).
  int QposAddr(const char* joint) const {
    return model_->jnt_qposadr[Id(mjOBJ_JOINT, joint)];
  }
  int DofAddr(const char* joint) const {
    return model_->jnt_dofadr[Id(mjOBJ_JOINT, joint)];
  }
  // Index of a sensor's first value (named.data.sensordata[sensor]).
  int SensorAddr(const char* sensor) const {
    return model_->sensor_adr[Id(mjOBJ_SENSOR, sensor)];
  }

 private:
  static mjModel* CopyModel(const mjModel& model) {
    mjModel* copy = mj_copyModel(nullptr, &model);
    if (copy == nullptr) {
      throw std::runtime_error("MuJoCo could not copy the model");
    }
    return copy;
  }

  std::unique_ptr<mjModel, decltype(&mj_deleteModel)> model_;
  std::unique_ptr<mjData, decltype(&mj_deleteData)> data_;
};

}  // namespace envpool::dmc

#endif  // ENVPOOL_DMC_PHYSICS_H_
