// What gymnasium's MuJoCo tasks that reward moving forward share: the options
// and terms of the forward reward and the control cost (ForwardTask: Ant,
// HalfCheetah, Hopper, Walker2d, Swimmer), the healthy-state options
// (HealthOptions: Ant, Hopper, Walker2d, Humanoid) and the position and
// velocity infos on the floor (FloorInfo: Ant, Swimmer, Humanoid).
#ifndef ENVPOOL_MUJOCO_LOCOMOTION_H_
#define ENVPOOL_MUJOCO_LOCOMOTION_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <utility>
#include <vector>

#include "envpool/mujoco/mujoco_sim.h"
#include "envpool/numpy/linalg.h"
#include "envpool/numpy/sum.h"

namespace envpool::mujoco {

inline bool ExcludesPositions(const Config& config) {
  return config.Get<bool>("exclude_current_positions_from_observation");
}

class ForwardTask : public MujocoTask {
 protected:
  // `position_dims`: how many leading qpos coordinates (the torso's position)
  // exclude_current_positions_from_observation leaves out of the observation.
  ForwardTask(const Config& config, std::size_t position_dims)
      : MujocoTask(config),
        forward_reward_weight_(config.Get<double>("forward_reward_weight")),
        ctrl_cost_weight_(config.Get<double>("ctrl_cost_weight")),
        reset_noise_scale_(config.Get<double>("reset_noise_scale")),
        skip_(ExcludesPositions(config) ? position_dims : 0) {}

  // The size of qpos (less the left-out positions) and qvel together.
  static std::int64_t StateSize(const Config& config, const mjModel& model,
                                std::int64_t position_dims) {
    return model.nq + model.nv -
           (ExcludesPositions(config) ? position_dims : 0);
  }

  void ResetWithNoise(Rng& rng, bool normal_qvel) {
    sim_.ResetWithNoise(rng, reset_noise_scale_, normal_qvel);
  }

  double ForwardReward(double x_velocity) const {
    return forward_reward_weight_ * x_velocity;
  }

  float CtrlCost(Action action) const {
    return ControlCost(ctrl_cost_weight_, action);
  }

  // The observation's opening: qpos less the left-out positions.
  ObsWriter WritePositions(Output& out) const {
    ObsWriter obs(out);
    obs.Put(sim_.qpos().subspan(skip_));
    return obs;
  }

  // The plain observation (qpos less the left-out positions, then qvel) and
  // the initial state, whose first info array is `qpos0_index`.
  void WriteStateObs(Output& out, std::size_t qpos0_index) const {
    WritePositions(out).Put(sim_.qvel());
    sim_.WriteInitialState(out, qpos0_index);
  }

 private:
  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double reset_noise_scale_;
  std::size_t skip_;
};

// The options of the tasks that reward staying healthy and may end the
// episode when the robot is not.
struct HealthOptions {
  explicit HealthOptions(const Config& config)
      : reward(config.Get<double>("healthy_reward")),
        terminate(config.Get<bool>("terminate_when_unhealthy")),
        z_range(RangeOption(config, "healthy_z_range")) {}

  double Reward(bool healthy) const { return healthy ? reward : 0.0; }

  // The Ant's is_healthy (gymnasium's Ant, and AntMaze's): every qpos and
  // qvel finite, the torso's height qpos[2] within z_range.
  bool FiniteWithin(std::span<const double> qpos,
                    std::span<const double> qvel) const {
    const auto finite = [](double v) { return std::isfinite(v); };
    return std::ranges::all_of(qpos, finite) &&
           std::ranges::all_of(qvel, finite) && z_range.first <= qpos[2] &&
           qpos[2] <= z_range.second;
  }
  bool Terminated(bool healthy) const { return !healthy && terminate; }

  double reward;
  bool terminate;
  std::pair<double, double> z_range;
};

// The info arrays that Ant, Swimmer and Humanoid open their info with: the
// torso's (x, y) on the floor, its distance from the origin, and its (x, y)
// velocity over the step. A task's own infos start at kEnd.
struct FloorInfo {
  enum : std::size_t {
    kXPosition,
    kYPosition,
    kDistanceFromOrigin,
    kXVelocity,
    kYVelocity,
    kEnd
  };

  // These names, then the task's own.
  static std::vector<const char*> Names(
      std::initializer_list<const char*> own) {
    std::vector<const char*> names{"x_position", "y_position",
                                   "distance_from_origin", "x_velocity",
                                   "y_velocity"};
    names.insert(names.end(), own);
    return names;
  }

  static void WritePosition(Output& out, std::span<const double> qpos) {
    SetInfo(out, kXPosition, qpos[0]);
    SetInfo(out, kYPosition, qpos[1]);
    SetInfo(out, kDistanceFromOrigin, NpNorm(qpos.first(2)));
  }

  static void WriteVelocity(Output& out, std::array<double, 2> velocity) {
    SetInfo(out, kXVelocity, velocity[0]);
    SetInfo(out, kYVelocity, velocity[1]);
  }
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_LOCOMOTION_H_
