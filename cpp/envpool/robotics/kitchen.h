// Franka Kitchen (gymnasium-robotics 1.4.2's FrankaKitchen-v1): a 9-DoF
// Franka arm in a kitchen, asked to bring some of seven objects (burners,
// light switch, cabinets, microwave, kettle) to their goal joint positions.
//
// The action is a joint velocity (float64, in [-1, 1], times 2); the arm's
// position targets are the last observed (noisy) joint positions plus that
// velocity times dt, within the joints' bounds. Observations carry uniform
// noise drawn from numpy's generator in gymnasium-robotics' order. The
// goals are nested dicts: keys "achieved_goal/<task>" and
// "desired_goal/<task>", which the front ends show as gymnasium's Dict of
// Dicts. Which tasks the step completed, which remain and which the episode
// completed are bool arrays over the seven tasks, in a fixed order.
#ifndef ENVPOOL_ROBOTICS_KITCHEN_H_
#define ENVPOOL_ROBOTICS_KITCHEN_H_

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"
#include "envpool/mujoco/mujoco_sim.h"
#include "envpool/numpy/linalg.h"
#include "envpool/numpy/random.h"
#include "envpool/robotics/robot_model.h"

namespace envpool::robotics {

// The seven tasks: their names, qpos elements and goal values
// (kitchen_env.py's OBS_ELEMENT_INDICES and OBS_ELEMENT_GOALS).
struct KitchenTask {
  std::string_view name;
  std::vector<int> qpos;
  std::vector<double> goal;
};

inline const std::array<KitchenTask, 7>& KitchenTasks() {
  static const std::array<KitchenTask, 7> tasks{{
      {"bottom burner", {11, 12}, {-0.88, -0.01}},
      {"top burner", {15, 16}, {-0.92, -0.01}},
      {"light switch", {17, 18}, {-0.69, -0.05}},
      {"slide cabinet", {19}, {0.37}},
      {"hinge cabinet", {20, 21}, {0.0, 1.45}},
      {"microwave", {22}, {-0.75}},
      {"kettle",
       {23, 24, 25, 26, 27, 28, 29},
       {-0.23, 0.75, 1.62, 0.99, 0.0, 0.0, -0.06}},
  }};
  return tasks;
}

class FrankaKitchen : public mujoco::MujocoTask {
 public:
  using Action = std::span<const double>;

  static Config DefaultConfig() {
    return mujoco::MujocoConfig(
        "", 40,
        {{"model_file", std::string()},
         {"tasks_to_complete",
          std::string("bottom burner,top burner,light switch,slide cabinet,"
                      "hinge cabinet,microwave,kettle")},
         {"terminate_on_tasks_completed", true},
         {"remove_task_when_completed", true},
         {"object_noise_ratio", 0.0005},
         {"robot_noise_ratio", 0.01},
         {"init_qpos", std::vector<double>{}},
         {"pos_bound", std::vector<double>{}},
         {"vel_bound", std::vector<double>{}},
         {"pos_noise_amp", std::vector<double>{}},
         {"vel_noise_amp", std::vector<double>{}}},
        mujoco::CameraConfig{.distance = 2.2,
                             .elevation = -35.0,
                             .lookat = {-0.2, 0.5, 2.0},
                             .azimuth = 70.0});
  }

  static EnvSpec Spec(const Config& config) {
    const auto model = Model(config);
    std::vector<ArraySpec> keys;
    for (const char* side : {"achieved_goal/", "desired_goal/"}) {
      for (std::size_t t : Goals(config)) {
        const KitchenTask& task = KitchenTasks()[t];
        keys.push_back(MakeArray<double>(
            side + std::string(task.name),
            {static_cast<std::int64_t>(task.goal.size())}, {-kInf}, {kInf}));
      }
    }
    keys.push_back(MakeArray<double>(
        "observation", {static_cast<std::int64_t>(model->nq) + model->nv},
        {-kInf}, {kInf}));
    const auto n = static_cast<std::int64_t>(KitchenTasks().size());
    return {MakeDict("obs", std::move(keys)),
            MakeArray<double>("action", {kArm}, {-1.0}, {1.0}),
            {MakeArray<bool>("tasks_to_complete", {n}),
             MakeArray<bool>("step_task_completions", {n}),
             MakeArray<bool>("episode_task_completions", {n})}};
  }

  explicit FrankaKitchen(const Config& config)
      : MujocoTask(config, Model(config), mujoco_runtime::ModelUse::kShared),
        goals_(Goals(config)),
        terminate_(config.Get<bool>("terminate_on_tasks_completed")),
        remove_(config.Get<bool>("remove_task_when_completed")),
        object_noise_(config.Get<double>("object_noise_ratio")),
        robot_noise_(config.Get<double>("robot_noise_ratio")),
        init_qpos_(Sized(config, "init_qpos", sim_.nq())),
        pos_bound_(Sized(config, "pos_bound", 2 * sim_.nv())),
        vel_bound_(Sized(config, "vel_bound", 2 * sim_.nv())),
        pos_noise_amp_(Sized(config, "pos_noise_amp", sim_.nv())),
        vel_noise_amp_(Sized(config, "vel_noise_amp", sim_.nv())) {
    const mjModel& m = sim_.model();
    for (int j : RobotJoints(m)) {
      robot_qpos_.push_back(m.jnt_qposadr[j]);
      robot_dofs_.push_back(m.jnt_dofadr[j]);
    }
    if (robot_qpos_.size() != kArm || m.nu != kArm || m.nq <= kArm ||
        m.nv <= kArm) {
      throw std::invalid_argument(
          "the Kitchen model must have the arm's 9 robot joints and actuators "
          "first");
    }
  }

  void Seed(std::uint64_t seed) { np_random_.Seed(seed); }

  void Reset(Rng& /*rng*/, Output& out) {
    sim_.ResetData();
    // set_state(init_qpos, init_qvel), init_qvel being data.qvel itself
    mjData& d = sim_.data();
    std::ranges::copy(init_qpos_, d.qpos);
    mj_forward(&sim_.model(), &d);
    remaining_.fill(false);
    for (std::size_t t : goals_) {
      remaining_[t] = true;
    }
    episode_.fill(false);
    step_.fill(false);
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    mjData& d = sim_.data();
    for (std::size_t i = 0; i < kArm; ++i) {
      const double a = 0.0 + std::clamp(action[i], -1.0, 1.0) * 2.0;
      const double velocity =
          std::min(std::max(a, vel_bound_[2 * i]), vel_bound_[2 * i + 1]);
      const double position = last_robot_qpos_[i] + velocity * sim_.dt();
      d.ctrl[i] = std::min(std::max(position, pos_bound_[2 * i]),
                           pos_bound_[2 * i + 1]);
    }
    const mjModel& m = sim_.model();
    for (int i = 0; i < sim_.frame_skip(); ++i) {
      mj_step(&m, &d);
    }
    mj_rnePostConstraint(&m, &d);
    Write(out);
    // compute_reward: the remaining tasks within 0.3 of their goals
    step_.fill(false);
    int completed = 0;
    for (std::size_t t : goals_) {
      if (!remaining_[t]) {
        continue;
      }
      const KitchenTask& task = KitchenTasks()[t];
      std::vector<double> delta(task.qpos.size());
      for (std::size_t k = 0; k < delta.size(); ++k) {
        delta[k] = d.qpos[task.qpos[k]] - task.goal[k];
      }
      if (NpNorm(delta) < 0.3) {
        step_[t] = true;
        ++completed;
      }
    }
    out.reward = static_cast<double>(completed);
    bool all = true;
    for (std::size_t t : goals_) {
      if (step_[t]) {
        episode_[t] = true;
        remaining_[t] = remaining_[t] && !remove_;
      }
      all = all && episode_[t];
    }
    out.terminated = terminate_ && all;
    WriteInfo(out);
  }

 private:
  static constexpr std::size_t kArm = 9;

  static std::shared_ptr<const mjModel> Model(const Config& config) {
    return LoadModelFile(config, "the Kitchen model");
  }

  // The goal's tasks, in the order given (each once).
  static std::vector<std::size_t> Goals(const Config& config) {
    const auto names = config.Get<std::string>("tasks_to_complete");
    std::vector<std::size_t> goals;
    for (std::size_t begin = 0; begin <= names.size() && !names.empty();) {
      std::size_t end = names.find(',', begin);
      end = end == std::string::npos ? names.size() : end;
      const std::string_view name(names.data() + begin, end - begin);
      begin = end + 1;
      const auto& tasks = KitchenTasks();
      const auto* found = std::ranges::find(tasks, name, &KitchenTask::name);
      if (found == tasks.end()) {
        throw std::invalid_argument("tasks_to_complete: no task '" +
                                    std::string(name) + "'");
      }
      const auto index = static_cast<std::size_t>(found - tasks.begin());
      if (std::ranges::find(goals, index) == goals.end()) {
        goals.push_back(index);
      }
    }
    return goals;
  }

  static std::vector<double> Sized(const Config& config, const char* name,
                                   std::size_t size) {
    auto values = config.Get<std::vector<double>>(name);
    if (values.size() != size) {
      throw std::invalid_argument(std::string("option '") + name +
                                  "' must hold " + std::to_string(size) +
                                  " values");
    }
    return values;
  }

  // x + ratio * amp * uniform(-1, 1), element by element, in numpy's order.
  double Noisy(double x, double ratio, double amp) {
    return x + ratio * amp * np_random_.Uniform(-1.0, 1.0);
  }

  // FrankaRobot._get_obs, then KitchenEnv._get_obs: the arm's noisy joints,
  // the objects' noisy joints, the goals.
  void Write(Output& out) {
    const mjData& d = sim_.data();
    const mjModel& m = sim_.model();
    const std::size_t n_goals = goals_.size();
    auto obs = out.Obs<double>(2 * n_goals);
    auto it = obs.begin();
    // the noise of all nine qpos draws before that of the qvel
    std::array<double, kArm> qpos{};
    for (std::size_t i = 0; i < kArm; ++i) {
      qpos[i] = Noisy(d.qpos[robot_qpos_[i]], robot_noise_, pos_noise_amp_[i]);
    }
    last_robot_qpos_ = qpos;
    it = std::ranges::copy(qpos, it).out;
    for (std::size_t i = 0; i < kArm; ++i) {
      *it++ = Noisy(d.qvel[robot_dofs_[i]], robot_noise_, vel_noise_amp_[i]);
    }
    // objects: qpos[9:] with pos_noise_amp[8:] (gymnasium-robotics' offset),
    // qvel[9:] with vel_noise_amp[9:]
    for (std::size_t i = kArm; i < static_cast<std::size_t>(m.nq); ++i) {
      *it++ = Noisy(d.qpos[i], object_noise_, pos_noise_amp_[i - 1]);
    }
    for (std::size_t i = kArm; i < static_cast<std::size_t>(m.nv); ++i) {
      *it++ = Noisy(d.qvel[i], object_noise_, vel_noise_amp_[i]);
    }
    for (std::size_t g = 0; g < n_goals; ++g) {
      const KitchenTask& task = KitchenTasks()[goals_[g]];
      auto achieved = out.Obs<double>(g);
      for (std::size_t k = 0; k < task.qpos.size(); ++k) {
        achieved[k] = d.qpos[task.qpos[k]];
      }
      std::ranges::copy(task.goal, out.Obs<double>(n_goals + g).begin());
    }
    WriteInfo(out);
  }

  void WriteInfo(Output& out) {
    for (std::size_t t = 0; t < KitchenTasks().size(); ++t) {
      out.Info<bool>(0)[t] = remaining_[t];
      out.Info<bool>(1)[t] = step_[t];
      out.Info<bool>(2)[t] = episode_[t];
    }
  }

  std::vector<std::size_t> goals_;
  bool terminate_;
  bool remove_;
  double object_noise_;
  double robot_noise_;
  std::vector<double> init_qpos_;
  std::vector<double> pos_bound_;
  std::vector<double> vel_bound_;
  std::vector<double> pos_noise_amp_;
  std::vector<double> vel_noise_amp_;
  std::vector<int> robot_qpos_;
  std::vector<int> robot_dofs_;
  std::array<double, kArm> last_robot_qpos_{};
  std::array<bool, 7> remaining_{};
  std::array<bool, 7> step_{};
  std::array<bool, 7> episode_{};
  NumpyRandom np_random_;
};

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_KITCHEN_H_
