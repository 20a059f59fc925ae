// The single-environment contract, as C++20 concepts.
//
// An environment is one class:
//
//   class MyEnv {
//    public:
//     using Action = std::int64_t;              // or std::span<const float>
//     static Config DefaultConfig();           // every option, with defaults
//     static EnvSpec Spec(const Config& config);  // obs, action, info arrays
//     explicit MyEnv(const Config& config);
//     void Reset(Rng& rng, Output& out);
//     void Step(Action action, Rng& rng, Output& out);
//   };
//
// Reset and Step write the observation (and info arrays) through `out`, and
// set out.reward / out.terminated. Everything else (threads, batching,
// seeding, autoreset, time limits, env ids) is the engine's.
#ifndef ENVPOOL_CORE_ENV_H_
#define ENVPOOL_CORE_ENV_H_

#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"

namespace envpool {

// One index into a finite set of actions.
template <typename A>
concept DiscreteAction =
    std::integral<A> && !std::same_as<A, bool> && ArrayElement<A>;

// A read-only vector of floats.
template <typename A>
concept ContinuousAction =
    requires { typename A::element_type; } &&
    std::same_as<
        A, std::span<const std::remove_const_t<typename A::element_type>>> &&
    std::floating_point<std::remove_const_t<typename A::element_type>>;

template <typename E>
concept HasActionType =
    requires { typename E::Action; } && (DiscreteAction<typename E::Action> ||
                                         ContinuousAction<typename E::Action>);

template <typename E>
concept HasDefaultConfig = requires {
  { E::DefaultConfig() } -> std::same_as<Config>;
};

template <typename E>
concept HasSpec = requires(const Config& config) {
  { E::Spec(config) } -> std::same_as<EnvSpec>;
};

template <typename E>
concept ConstructibleFromConfig = std::constructible_from<E, const Config&>;

template <typename E>
concept HasReset = requires(E& env, Rng& rng, Output& out) {
  { env.Reset(rng, out) } -> std::same_as<void>;
};

template <typename E>
concept HasStep =
    HasActionType<E> &&
    requires(E& env, typename E::Action action, Rng& rng, Output& out) {
      { env.Step(action, rng, out) } -> std::same_as<void>;
    };

template <typename E>
concept Environment = HasActionType<E> && HasDefaultConfig<E> && HasSpec<E> &&
                      ConstructibleFromConfig<E> && HasReset<E> && HasStep<E>;

// Optional: an env that can draw itself declares the shape of one RGB frame
// and writes its current frame into a buffer of that many bytes.
template <typename E>
concept Renderable =
    requires(E& env, std::span<std::uint8_t> frame, const Config& config) {
      { E::RenderShape(config) } -> std::same_as<std::vector<std::int64_t>>;
      { env.Render(frame) } -> std::same_as<void>;
    };

// Optional: an env that describes its state as text (gymnasium's "ansi"
// render mode) returns that text.
template <typename E>
concept AnsiRenderable = requires(const E& env) {
  { env.RenderAnsi() } -> std::same_as<std::string>;
};

// Optional: an env whose state outlives its Rng (an emulator, say), or that
// keeps a generator of its own (NumpyRandom, to replay gymnasium's draws), is
// told its seed: once after construction (the pool's seed + env id), and again
// just before each Reset that reset(seed=...) reseeds, so that a seeded reset
// replays exactly like a fresh env with that seed.
template <typename E>
concept Seedable = requires(E& env, std::uint64_t seed) {
  { env.Seed(seed) } -> std::same_as<void>;
};

// Optional: an env whose whole state can be saved as bytes and restored,
// in the same env or another of the same task and options (procgen's
// get_state / set_state). LoadState checks `state` before anything changes
// (throwing std::invalid_argument for bytes it did not save) and writes the
// restored observation into `obs`, the bytes of one observation.
template <typename E>
concept StateSavable =
    requires(E& env, std::string_view state, std::span<std::byte> obs) {
      { env.SaveState() } -> std::same_as<std::string>;
      { env.LoadState(state, obs) } -> std::same_as<void>;
    };

// Names each missing part of the contract in its own short message; call it
// in a constant expression before anything instantiates E.
template <typename E>
consteval bool CheckEnvironment() {
  static_assert(HasActionType<E>,
                "envpool: the env needs `using Action = <integer type>;` "
                "(discrete) or `using Action = std::span<const float>;` "
                "(continuous)");
  static_assert(HasDefaultConfig<E>,
                "envpool: the env needs `static Config DefaultConfig();`");
  static_assert(HasSpec<E>,
                "envpool: the env needs `static EnvSpec Spec(const Config&);`");
  static_assert(ConstructibleFromConfig<E>,
                "envpool: the env needs a constructor `explicit Env(const "
                "Config&);`");
  static_assert(HasReset<E>,
                "envpool: the env needs `void Reset(Rng&, Output&);`");
  static_assert(HasStep<E>,
                "envpool: the env needs `void Step(Action, Rng&, Output&);` "
                "taking its declared Action type");
  return Environment<E>;
}

// The scalar type the engine stores actions as.
template <typename A>
struct ActionScalarOf {
  using type = A;
};
template <ContinuousAction A>
struct ActionScalarOf<A> {
  using type = std::remove_const_t<typename A::element_type>;
};
template <typename E>
using ActionScalar = typename ActionScalarOf<typename E::Action>::type;

}  // namespace envpool

#endif  // ENVPOOL_CORE_ENV_H_
