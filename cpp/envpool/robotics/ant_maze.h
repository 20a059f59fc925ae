// AntMaze (gymnasium-robotics 1.4.2's AntMaze_*-v3, v4 and v5): gymnasium's
// Ant in a maze of walls four units a cell, to walk its torso to a goal.
// v3 and v4 drive gymnasium's Ant-v4, v5 its Ant-v5, whose reward terms and
// positions the info keeps; the maze's logic is maze.h's (maze.py's for v3,
// maze_v4.py's after). The observation is the Ant's own less the torso's
// (x, y), which is the achieved goal.
#ifndef ENVPOOL_ROBOTICS_ANT_MAZE_H_
#define ENVPOOL_ROBOTICS_ANT_MAZE_H_

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"
#include "envpool/mujoco/locomotion.h"
#include "envpool/mujoco/mujoco_sim.h"
#include "envpool/numpy/linalg.h"
#include "envpool/numpy/sum.h"
#include "envpool/robotics/maze.h"

namespace envpool::robotics {

class AntMaze : public mujoco::MujocoTask {
 public:
  static Config DefaultConfig() {
    Config config = mujoco::MujocoConfig(
        "", 5,
        {{"version", std::string("v5")},
         {"forward_reward_weight", 1.0},
         {"ctrl_cost_weight", 0.5},
         {"contact_cost_weight", 5e-4},
         {"healthy_reward", 1.0},
         {"main_body", std::int64_t{1}},
         {"terminate_when_unhealthy", true},
         {"healthy_z_range", std::vector<double>{0.2, 1.0}},
         {"contact_force_range", std::vector<double>{-1.0, 1.0}},
         {"use_contact_forces", false},
         {"include_cfrc_ext_in_observation", true}},
        mujoco::CameraConfig{.distance = 4.0});
    const Config maze = MazeConfig(4.0, 0.5);
    for (const auto& [name, value] : maze.items()) {
      config.Set(name, value);
    }
    return config;
  }

  static EnvSpec Spec(const Config& config) {
    const auto model = MazeModel(config);
    const bool v5 = ParseVersion(config) == AntVersion::kV5;
    std::int64_t size = model->nq + model->nv - 2;
    if (v5 && config.Get<bool>("include_cfrc_ext_in_observation")) {
      size += 6 * (model->nbody - 1);
    } else if (!v5 && config.Get<bool>("use_contact_forces")) {
      size += 6 * model->nbody;
    }
    std::vector<ArraySpec> info;
    for (const char* name : v5 ? kV5Info : kV4Info) {
      info.push_back(MakeArray<double>(name, {}));
    }
    info.push_back(MakeArray<bool>("success", {}));
    return {
        MakeDict("obs",
                 {MakeArray<double>("achieved_goal", {2}, {-kInf}, {kInf}),
                  MakeArray<double>("desired_goal", {2}, {-kInf}, {kInf}),
                  MakeArray<double>("observation", {size}, {-kInf}, {kInf})}),
        mujoco::ActionSpec(*model), std::move(info)};
  }

  explicit AntMaze(const Config& config)
      : MujocoTask(config, MazeModel(config),
                   mujoco_runtime::ModelUse::kOwnCopy),
        version_(ParseVersion(config)),
        maze_(config, version_ == AntVersion::kV3 ? Maze::Version::kV3
                                                  : Maze::Version::kV4),
        target_site_(mj_name2id(&sim_.model(), mjOBJ_SITE, "target")),
        main_body_(MainBody(config, sim_.model())),
        forward_reward_weight_(config.Get<double>("forward_reward_weight")),
        ctrl_cost_weight_(config.Get<double>("ctrl_cost_weight")),
        contact_cost_weight_(config.Get<double>("contact_cost_weight")),
        health_(config),
        contact_force_(mujoco::RangeOption(config, "contact_force_range")),
        contact_in_obs_(
            version_ == AntVersion::kV5
                ? config.Get<bool>("include_cfrc_ext_in_observation")
                : config.Get<bool>("use_contact_forces")) {
    if (target_site_ < 0 || sim_.model().nq < 3) {
      throw std::invalid_argument(
          "the AntMaze model must have the ant's free joint and the maze's "
          "'target' site");
    }
  }

  void Seed(std::uint64_t seed) { maze_.Seed(seed); }

  void Reset(Rng& /*rng*/, Output& out) {
    const XY start = maze_.DrawEpisode();
    maze_.PlaceTarget(sim_.own_model(), target_site_);
    sim_.init_qpos_mutable()[0] = start[0];
    sim_.init_qpos_mutable()[1] = start[1];
    // reset_model with reset_noise_scale 0: adding the zero noise
    sim_.ResetData();
    std::vector<double> qpos(sim_.init_qpos().begin(), sim_.init_qpos().end());
    std::vector<double> qvel(sim_.init_qvel().begin(), sim_.init_qvel().end());
    for (double& q : qpos) {
      q += 0.0;
    }
    for (double& v : qvel) {
      v += 0.0;
    }
    sim_.SetState(qpos, qvel);
    Write(out, maze_.goal());
    if (version_ == AntVersion::kV5) {
      WriteQposInfo(out);
    }
    const auto qpos_now = sim_.qpos();
    out.Info<bool>(Success())[0] = maze_.Reached({qpos_now[0], qpos_now[1]});
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    std::array<double, 2> after{};
    const auto velocity = sim_.DoSimulation(action, [this, &after] {
      const auto position = sim_.BodyPos(main_body_);
      after = {position[0], position[1]};
      return after;
    });
    const auto qpos = sim_.qpos();
    bool goal_moved = false;
    const MazeStep step = maze_.AfterMove({qpos[0], qpos[1]}, goal_moved);
    out.reward = step.reward;
    out.terminated = step.terminated;
    Write(out, step.desired_goal);
    WriteAntInfo(out, action, velocity, after);
    out.Info<bool>(Success())[0] = step.success;
    if (goal_moved) {
      maze_.PlaceTarget(sim_.own_model(), target_site_);
    }
  }

 private:
  // v3 and v4 drive Ant-v4, v5 Ant-v5.
  enum class AntVersion : std::uint8_t { kV3, kV4, kV5 };

  // The info keys, as each Ant version's step gives them (then "success").
  static constexpr std::array kV5Info{
      "x_position",  "y_position",     "distance_from_origin",
      "x_velocity",  "y_velocity",     "reward_forward",
      "reward_ctrl", "reward_contact", "reward_survive"};
  static constexpr std::array kV4Info{
      "reward_forward", "reward_ctrl", "reward_survive",
      "x_position",     "y_position",  "distance_from_origin",
      "x_velocity",     "y_velocity",  "forward_reward"};
  static_assert(kV5Info.size() == kV4Info.size());

  static AntVersion ParseVersion(const Config& config) {
    const auto version = config.Get<std::string>("version");
    if (version == "v3") {
      return AntVersion::kV3;
    }
    if (version == "v4") {
      return AntVersion::kV4;
    }
    if (version == "v5") {
      return AntVersion::kV5;
    }
    throw std::invalid_argument(
        "option 'version' must be 'v3', 'v4' or 'v5', "
        "got '" +
        version + "'");
  }

  // Ant-v5's main_body (a body id); Ant-v4 measures the torso.
  static int MainBody(const Config& config, const mjModel& model) {
    if (ParseVersion(config) != AntVersion::kV5) {
      const int torso = mj_name2id(&model, mjOBJ_BODY, "torso");
      if (torso < 0) {
        throw std::invalid_argument("the AntMaze model has no body 'torso'");
      }
      return torso;
    }
    const auto id = config.Get<std::int64_t>("main_body");
    if (id < 0 || id >= model.nbody) {
      throw std::invalid_argument("option 'main_body': the model has no body " +
                                  std::to_string(id) + " (it has " +
                                  std::to_string(model.nbody) + ")");
    }
    return static_cast<int>(id);
  }

  static constexpr std::size_t Success() { return kV5Info.size(); }

  bool IsHealthy() const {
    return health_.FiniteWithin(sim_.qpos(), sim_.qvel());
  }

  double ContactCost() const {
    const mjData& d = sim_.data();
    return contact_cost_weight_ *
           NumpySum(d.cfrc_ext,
                    6 * static_cast<std::size_t>(sim_.model().nbody),
                    [this](double f) {
                      const double c = mujoco::Clip(f, contact_force_.first,
                                                    contact_force_.second);
                      return c * c;
                    });
  }

  // Ant-v5's reset info: where the torso is, from qpos.
  void WriteQposInfo(Output& out) {
    const auto qpos = sim_.qpos();
    mujoco::SetInfo(out, 0, qpos[0]);
    mujoco::SetInfo(out, 1, qpos[1]);
    mujoco::SetInfo(out, 2, NpNorm(qpos.first(2)));
  }

  void WriteAntInfo(Output& out, Action action,
                    const std::array<double, 2>& velocity,
                    const std::array<double, 2>& body_xy) {
    const float ctrl_cost = ControlCost(ctrl_cost_weight_, action);
    const bool healthy = IsHealthy();
    if (version_ == AntVersion::kV5) {
      WriteQposInfo(out);
      mujoco::SetInfo(out, 3, velocity[0]);
      mujoco::SetInfo(out, 4, velocity[1]);
      mujoco::SetInfo(out, 5, velocity[0] * forward_reward_weight_);
      mujoco::SetInfo(out, 6, -ctrl_cost);
      mujoco::SetInfo(out, 7, -ContactCost());
      mujoco::SetInfo(out, 8, health_.Reward(healthy));
      return;
    }
    // Ant-v4: its survive reward unless unhealthy with no termination; its
    // reward_ctrl is the contact cost when contact forces are used
    const double survive =
        (healthy || health_.terminate) ? health_.reward : 0.0;
    mujoco::SetInfo(out, 0, velocity[0]);
    mujoco::SetInfo(
        out, 1,
        contact_in_obs_ ? -ContactCost() : -static_cast<double>(ctrl_cost));
    mujoco::SetInfo(out, 2, survive);
    mujoco::SetInfo(out, 3, body_xy[0]);
    mujoco::SetInfo(out, 4, body_xy[1]);
    mujoco::SetInfo(out, 5, NpNorm(body_xy));
    mujoco::SetInfo(out, 6, velocity[0]);
    mujoco::SetInfo(out, 7, velocity[1]);
    mujoco::SetInfo(out, 8, velocity[0]);
  }

  void Write(Output& out, const XY& desired_goal) {
    const auto qpos = sim_.qpos();
    auto achieved = out.Obs<double>(0);
    auto desired = out.Obs<double>(1);
    auto observation = out.Obs<double>(2);
    achieved[0] = qpos[0];
    achieved[1] = qpos[1];
    desired[0] = desired_goal[0];
    desired[1] = desired_goal[1];
    auto it = std::copy(qpos.begin() + 2, qpos.end(), observation.begin());
    it = std::ranges::copy(sim_.qvel(), it).out;
    if (contact_in_obs_) {
      // Ant-v5 leaves out the world body's forces, Ant-v4 keeps them
      const std::size_t skip = version_ == AntVersion::kV5 ? 6 : 0;
      const mjData& d = sim_.data();
      const std::size_t n = 6 * static_cast<std::size_t>(sim_.model().nbody);
      for (std::size_t i = skip; i < n; ++i) {
        *it++ = mujoco::Clip(d.cfrc_ext[i], contact_force_.first,
                             contact_force_.second);
      }
    }
  }

  AntVersion version_;
  Maze maze_;
  int target_site_;
  int main_body_;
  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double contact_cost_weight_;
  mujoco::HealthOptions health_;
  std::pair<double, double> contact_force_;
  bool contact_in_obs_;
};

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_ANT_MAZE_H_
