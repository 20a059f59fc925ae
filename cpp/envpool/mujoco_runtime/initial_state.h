// The state an episode starts from, which the reset info carries
// (info["qpos0"], info["qvel0"]) so that the reference can replay the
// episode from it.
#ifndef ENVPOOL_MUJOCO_RUNTIME_INITIAL_STATE_H_
#define ENVPOOL_MUJOCO_RUNTIME_INITIAL_STATE_H_

#include <mujoco/mujoco.h>

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/output.h"

namespace envpool::mujoco_runtime {

class InitialState {
 public:
  explicit InitialState(const mjModel& model)
      : qpos0_(model.nq), qvel0_(model.nv) {}

  // The two info arrays, which go last in the env's info.
  static void AppendSpecs(const mjModel& model, std::vector<ArraySpec>& info) {
    info.push_back(MakeArray<double>("qpos0", {model.nq}));
    info.push_back(MakeArray<double>("qvel0", {model.nv}));
  }

  void Record(std::span<const double> qpos, std::span<const double> qvel) {
    std::ranges::copy(qpos, qpos0_.begin());
    std::ranges::copy(qvel, qvel0_.begin());
  }
  void Record(const mjData& data) {
    Record({data.qpos, qpos0_.size()}, {data.qvel, qvel0_.size()});
  }

  // data.qpos, data.qvel = the recorded state.
  void Restore(mjData& data) const {
    std::ranges::copy(qpos0_, data.qpos);
    std::ranges::copy(qvel0_, data.qvel);
  }

  // Into the info arrays `qpos0_index` and the one after it.
  void Write(Output& out, std::size_t qpos0_index) const {
    std::ranges::copy(qpos0_, out.Info<double>(qpos0_index).begin());
    std::ranges::copy(qvel0_, out.Info<double>(qpos0_index + 1).begin());
  }

 private:
  std::vector<double> qpos0_;
  std::vector<double> qvel0_;
};

}  // namespace envpool::mujoco_runtime

#endif  // ENVPOOL_MUJOCO_RUNTIME_INITIAL_STATE_H_
