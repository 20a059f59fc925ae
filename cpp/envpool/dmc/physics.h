// One dm_control Physics (dm_control 1.0.50, mujoco/engine.py and
// rl/control.py), driven by raw MuJoCo calls in the same order, so the
// states it produces are bit-identical to dm_control's.
#ifndef ENVPOOL_DMC_PHYSICS_H_
#define ENVPOOL_DMC_PHYSICS_H_

#include <mujoco/mujoco.h>

#include <string>

#include "envpool/mujoco_runtime/model.h"

namespace envpool::dmc {

class Physics {
 public:
  // Each env owns a copy of the model: tasks move targets in it, and
  // disabling actuation for a forward pass writes model->opt.
  explicit Physics(const std::string& model_file)
      : model_data_(model_file, mujoco_runtime::ModelUse::kOwnCopy) {}

  mjModel& model() { return model_data_.own_model(); }
  const mjModel& model() const { return model_data_.model(); }
  mjData& data() { return model_data_.data(); }
  const mjData& data() const { return model_data_.data(); }
  double timestep() const { return model().opt.timestep; }

  // Physics.reset: mj_resetData, then a forward pass without actuation.
  void Reset() {
    mj_resetData(&model(), &data());
    AfterReset();
  }

  // Physics.after_reset: mj_forward with actuation disabled.
  void AfterReset() {
    mjModel& m = model();
    const int saved = m.opt.disableflags;
    m.opt.disableflags = saved | mjDSBL_ACTUATION;
    mj_forward(&m, &data());
    m.opt.disableflags = saved;
  }

  // Physics.step with legacy_step (dm_control's default): positions and
  // velocities stay up to date with the state after the last step.
  void Step(int n) {
    const mjModel* m = &model();
    mjData* d = &data();
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
    return model_data_.Id(type, name);
  }
  // Index of a joint's first qpos / qvel entry (named.data.qpos[joint]).
  int QposAddr(const char* joint) const {
    return model().jnt_qposadr[Id(mjOBJ_JOINT, joint)];
  }
  int DofAddr(const char* joint) const {
    return model().jnt_dofadr[Id(mjOBJ_JOINT, joint)];
  }
  // Index of a sensor's first value (named.data.sensordata[sensor]).
  int SensorAddr(const char* sensor) const {
    return model().sensor_adr[Id(mjOBJ_SENSOR, sensor)];
  }

 private:
  mujoco_runtime::ModelData model_data_;
};

}  // namespace envpool::dmc

#endif  // ENVPOOL_DMC_PHYSICS_H_
