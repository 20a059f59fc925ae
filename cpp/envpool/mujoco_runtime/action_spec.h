// The action array of a MuJoCo env: one value per actuator, written to
// data.ctrl.
#ifndef ENVPOOL_MUJOCO_RUNTIME_ACTION_SPEC_H_
#define ENVPOOL_MUJOCO_RUNTIME_ACTION_SPEC_H_

#include <mujoco/mujoco.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "envpool/core/array_spec.h"

namespace envpool::mujoco_runtime {

// Where the bounds come from: gymnasium takes every actuator's ctrlrange;
// dm_control's action_spec leaves an actuator without ctrllimited unbounded.
enum class CtrlBounds : std::uint8_t { kCtrlRange, kWhereLimited };

// One T per actuator, its bounds rounded to T.
template <typename T>
ArraySpec ActuatorActionSpec(const mjModel& model, CtrlBounds bounds) {
  std::vector<double> low(model.nu, -kInf);
  std::vector<double> high(model.nu, kInf);
  for (int i = 0; i < model.nu; ++i) {
    if (bounds == CtrlBounds::kWhereLimited &&
        model.actuator_ctrllimited[i] == 0) {
      continue;
    }
    const mjtNum* range =
        model.actuator_ctrlrange + 2 * static_cast<std::ptrdiff_t>(i);
    low[i] = static_cast<T>(range[0]);
    high[i] = static_cast<T>(range[1]);
  }
  return MakeArray<T>("action", {model.nu}, low, high);
}

}  // namespace envpool::mujoco_runtime

#endif  // ENVPOOL_MUJOCO_RUNTIME_ACTION_SPEC_H_
