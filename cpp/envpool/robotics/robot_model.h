// What the gymnasium-robotics tasks read from their models: the file that
// option 'model_file' names (filled in from gymnasium-robotics' assets when
// a pool is made), and the robot's joints that robot_get_obs reads.
#ifndef ENVPOOL_ROBOTICS_ROBOT_MODEL_H_
#define ENVPOOL_ROBOTICS_ROBOT_MODEL_H_

#include <mujoco/mujoco.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "envpool/core/config.h"
#include "envpool/mujoco_runtime/model.h"

namespace envpool::robotics {

// `what` names the model in the error for an empty option, e.g. "the Fetch
// task's model".
inline std::shared_ptr<const mjModel> LoadModelFile(const Config& config,
                                                    const std::string& what) {
  const auto path = config.Get<std::string>("model_file");
  if (path.empty()) {
    throw std::invalid_argument("option 'model_file' is empty: " + what +
                                " in gymnasium-robotics' assets");
  }
  return mujoco_runtime::LoadModel(path);
}

// robot_get_obs' joints: those named robot*, in id order.
inline std::vector<int> RobotJoints(const mjModel& m) {
  std::vector<int> joints;
  for (int j = 0; j < m.njnt; ++j) {
    if (std::string_view(mj_id2name(&m, mjOBJ_JOINT, j)).starts_with("robot")) {
      joints.push_back(j);
    }
  }
  return joints;
}

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_ROBOT_MODEL_H_
