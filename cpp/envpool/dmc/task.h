// What a DMC domain's Task class provides to DmcEnv (dmc_env.h), as C++20
// concepts; CheckTask names each missing member in its own message.
//
// Required:
//   static constexpr Timing kTiming{...};  // time limit, control timestep
//   static std::vector<ArraySpec> Observations(const mjModel&, const Config&);
//   Task(const Config&, const Physics&);
//   void Initialize(Physics&, Rng&);        // initialize_episode
//   void Observe(const Physics&, Output&);  // get_observation, key by key
//   double Reward(const Physics&);          // get_reward
// Optional, for a domain whose tasks differ by options (sparse, swing_up,
// ...): their names and defaults, which the config lists after time_limit and
// control_timestep:
//   static Config Options();
// Optional, for a task whose episode start sets model values outside
// qpos/qvel (a target's position, ...): their names (model_values.h), which
// the reset info carries so that dm_control can replay the episode; without
// it the task adds no info:
//   static std::vector<std::string> DrawnModelValues(const mjModel&,
//                                                    const Config&);
#ifndef ENVPOOL_DMC_TASK_H_
#define ENVPOOL_DMC_TASK_H_

#include <mujoco/mujoco.h>

#include <concepts>
#include <string>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"
#include "envpool/dmc/physics.h"

namespace envpool::dmc {

// The defaults of the options time_limit (seconds) and control_timestep: the
// domain's _DEFAULT_TIME_LIMIT and _CONTROL_TIMESTEP in dm_control.
struct Timing {
  double time_limit;
  double control_timestep;
};

template <typename T>
concept HasTiming = requires {
  { T::kTiming } -> std::convertible_to<Timing>;
};

template <typename T>
concept HasObservations = requires(const mjModel& m, const Config& config) {
  { T::Observations(m, config) } -> std::same_as<std::vector<ArraySpec>>;
};

template <typename T>
concept ConstructibleFromPhysics =
    std::constructible_from<T, const Config&, const Physics&>;

template <typename T>
concept HasInitialize = requires(T& task, Physics& physics, Rng& rng) {
  { task.Initialize(physics, rng) } -> std::same_as<void>;
};

template <typename T>
concept HasObserve = requires(T& task, const Physics& physics, Output& out) {
  { task.Observe(physics, out) } -> std::same_as<void>;
};

template <typename T>
concept HasReward = requires(T& task, const Physics& physics) {
  { task.Reward(physics) } -> std::same_as<double>;
};

template <typename T>
concept DmcTask =
    HasTiming<T> && HasObservations<T> && ConstructibleFromPhysics<T> &&
    HasInitialize<T> && HasObserve<T> && HasReward<T>;

// Optional: options of the task's own, with their defaults.
template <typename T>
concept DeclaresOptions = requires { &T::Options; };

template <typename T>
concept HasOptions = requires {
  { T::Options() } -> std::same_as<Config>;
};

// Optional: the model values the task's episode start draws.
template <typename T>
concept DeclaresDrawnModelValues = requires { &T::DrawnModelValues; };

template <typename T>
concept HasDrawnModelValues = requires(const mjModel& m, const Config& config) {
  { T::DrawnModelValues(m, config) } -> std::same_as<std::vector<std::string>>;
};

// Names each missing member in its own short message; call it in a constant
// expression before anything instantiates DmcEnv<T>.
template <typename T>
consteval bool CheckTask() {
  static_assert(HasTiming<T>,
                "envpool DMC: the task needs `static constexpr Timing "
                "kTiming{.time_limit = ..., .control_timestep = ...};`");
  static_assert(HasObservations<T>,
                "envpool DMC: the task needs `static std::vector<ArraySpec> "
                "Observations(const mjModel&, const Config&);`");
  static_assert(ConstructibleFromPhysics<T>,
                "envpool DMC: the task needs a constructor `Task(const "
                "Config&, const Physics&);`");
  static_assert(HasInitialize<T>,
                "envpool DMC: the task needs `void Initialize(Physics&, "
                "Rng&);`");
  static_assert(HasObserve<T>,
                "envpool DMC: the task needs `void Observe(const Physics&, "
                "Output&);`");
  static_assert(HasReward<T>,
                "envpool DMC: the task needs `double Reward(const Physics&);`");
  static_assert(!DeclaresOptions<T> || HasOptions<T>,
                "envpool DMC: the task's options need the form `static Config "
                "Options();`");
  static_assert(!DeclaresDrawnModelValues<T> || HasDrawnModelValues<T>,
                "envpool DMC: the task's drawn model values need the form "
                "`static std::vector<std::string> DrawnModelValues(const "
                "mjModel&, const Config&);`");
  return DmcTask<T>;
}

// The task's own options (none without Options).
template <DmcTask T>
Config OptionsOf() {
  if constexpr (HasOptions<T>) {
    return T::Options();
  } else {
    return {};
  }
}

// The names of the model values the task draws (none without
// DrawnModelValues).
template <DmcTask T>
std::vector<std::string> DrawnModelValuesOf(const mjModel& m,
                                            const Config& config) {
  if constexpr (HasDrawnModelValues<T>) {
    return T::DrawnModelValues(m, config);
  } else {
    return {};
  }
}

}  // namespace envpool::dmc

#endif  // ENVPOOL_DMC_TASK_H_
