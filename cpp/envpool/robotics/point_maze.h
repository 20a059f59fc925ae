// PointMaze (gymnasium-robotics 1.4.2's PointMaze_*-v3): a force-actuated
// ball in a maze of walls, to reach a goal, with goal-conditioned dict
// observations. The maze's logic is maze.h's (maze_v4.py's); the distances
// use numpy's own arithmetic, so that episodes are bit-identical.
#ifndef ENVPOOL_ROBOTICS_POINT_MAZE_H_
#define ENVPOOL_ROBOTICS_POINT_MAZE_H_

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"
#include "envpool/mujoco/mujoco_sim.h"
#include "envpool/numpy/linalg.h"
#include "envpool/robotics/maze.h"

namespace envpool::robotics {

class PointMaze : public mujoco::MujocoTask {
 public:
  static Config DefaultConfig() {
    // gymnasium's PointEnv: one mj_step a step, the default free camera
    Config config = mujoco::MujocoConfig("", 1, {});
    const Config maze = MazeConfig(1.0, 0.4);
    for (const auto& [name, value] : maze.items()) {
      config.Set(name, value);
    }
    return config;
  }

  static EnvSpec Spec(const Config& config) {
    const auto model = MazeModel(config);
    return {MakeDict("obs",
                     {MakeArray<double>("achieved_goal", {2}, {-kInf}, {kInf}),
                      MakeArray<double>("desired_goal", {2}, {-kInf}, {kInf}),
                      MakeArray<double>("observation", {model->nq + model->nv},
                                        {-kInf}, {kInf})}),
            mujoco::ActionSpec(*model),
            {MakeArray<bool>("success", {})}};
  }

  explicit PointMaze(const Config& config)
      : MujocoTask(config, MazeModel(config),
                   mujoco_runtime::ModelUse::kOwnCopy),
        maze_(config, Maze::Version::kV4),
        target_site_(mj_name2id(&sim_.model(), mjOBJ_SITE, "target")) {
    if (target_site_ < 0 || sim_.model().nq < 2 || sim_.model().nu != 2) {
      throw std::invalid_argument(
          "the PointMaze model must have the ball's x and y joints and "
          "motors, and the maze's 'target' site");
    }
  }

  void Seed(std::uint64_t seed) { maze_.Seed(seed); }

  void Reset(Rng& /*rng*/, Output& out) {
    const XY start = maze_.DrawEpisode();
    maze_.PlaceTarget(sim_.own_model(), target_site_);
    sim_.init_qpos_mutable()[0] = start[0];
    sim_.init_qpos_mutable()[1] = start[1];
    sim_.ResetData();
    sim_.SetState(sim_.init_qpos(), sim_.init_qvel());
    Write(out, maze_.goal());
    const auto qpos = sim_.qpos();
    out.Info<bool>(0)[0] = maze_.Reached({qpos[0], qpos[1]});
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    mjData& d = sim_.data();
    // the ball's speed is clipped to [-5, 5] before the step.
    // gymnasium-robotics writes it back with set_state, whose mj_forward
    // changes nothing mj_step reads (qpos, qvel, ctrl and qacc_warmstart stay
    // as they are; mj_step recomputes everything else), so it is left out: the
    // same trajectories, bit for bit (tests/test_robotics_point_maze.py), at
    // half the cost
    for (std::size_t i = 0; i < sim_.nv(); ++i) {
      d.qvel[i] = std::clamp(d.qvel[i], -5.0, 5.0);
    }
    // np.clip in float32
    std::array<float, 2> clipped{};
    for (std::size_t i = 0; i < clipped.size(); ++i) {
      clipped[i] = std::clamp(action[i], -1.0F, 1.0F);
    }
    // do_simulation: ctrl, one mj_step; its mj_rnePostConstraint only fills
    // the forces (cfrc_*), which nothing here reads, so it is left out too
    std::ranges::copy(clipped, d.ctrl);
    mj_step(&sim_.model(), &d);
    const auto qpos = sim_.qpos();
    bool goal_moved = false;
    const MazeStep step = maze_.AfterMove({qpos[0], qpos[1]}, goal_moved);
    out.reward = step.reward;
    out.terminated = step.terminated;
    Write(out, step.desired_goal);
    out.Info<bool>(0)[0] = step.success;
    if (goal_moved) {
      maze_.PlaceTarget(sim_.own_model(), target_site_);
    }
  }

 private:
  void Write(Output& out, const XY& desired_goal) {
    const auto qpos = sim_.qpos();
    auto achieved = out.Obs<double>(0);
    auto desired = out.Obs<double>(1);
    auto observation = out.Obs<double>(2);
    achieved[0] = qpos[0];
    achieved[1] = qpos[1];
    desired[0] = desired_goal[0];
    desired[1] = desired_goal[1];
    std::ranges::copy(sim_.qvel(),
                      std::ranges::copy(qpos, observation.begin()).out);
  }

  Maze maze_;
  int target_site_;
};

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_POINT_MAZE_H_
