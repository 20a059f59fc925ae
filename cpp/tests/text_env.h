// Test envs for text observations (MakeText), built with the fault env's
// module (tests/fault_env.py). TextDictEnv's observation is a dict:
// "steps" (int32, the step in the episode) and "note" (a text of at most
// `max_length` characters: "step <steps>" then one '.' per step). TextEnv's
// observation is the note alone. A note past max_length is the env's error,
// so a short max_length shows what happens then; the episode ends after
// `episode_length` steps.
#ifndef ENVPOOL_TESTS_TEXT_ENV_H_
#define ENVPOOL_TESTS_TEXT_ENV_H_

#include <cstdint>
#include <string>

#include "envpool/core/env.h"

namespace envpool::testing {

template <bool kDictObs>
class TextEnvT {
 public:
  using Action = std::int64_t;

  static Config DefaultConfig() {
    return {{"max_length", std::int64_t{16}},
            {"episode_length", std::int64_t{5}}};
  }

  static EnvSpec Spec(const Config& config) {
    const auto max_length = config.Get<std::int64_t>("max_length");
    if constexpr (kDictObs) {
      return {MakeDict("obs", {MakeArray<std::int32_t>("steps", {}),
                               MakeText("note", max_length)}),
              MakeDiscrete("action", 2),
              {}};
    }
    return {MakeText("obs", max_length), MakeDiscrete("action", 2), {}};
  }

  explicit TextEnvT(const Config& config)
      : episode_length_(config.Get<std::int64_t>("episode_length")) {}

  void Reset(Rng& /*rng*/, Output& out) {
    steps_ = 0;
    Write(out);
  }

  void Step(Action /*action*/, Rng& /*rng*/, Output& out) {
    ++steps_;
    out.terminated = steps_ >= episode_length_;
    Write(out);
  }

 private:
  void Write(Output& out) const {
    const std::string note = "step " + std::to_string(steps_) +
                             std::string(static_cast<std::size_t>(steps_), '.');
    if constexpr (kDictObs) {
      out.Obs<std::int32_t>(0)[0] = static_cast<std::int32_t>(steps_);
      out.Text(1, note);
    } else {
      out.Text(note);
    }
  }

  std::int64_t episode_length_;
  std::int64_t steps_ = 0;
};

using TextEnv = TextEnvT<false>;
using TextDictEnv = TextEnvT<true>;

}  // namespace envpool::testing

#endif  // ENVPOOL_TESTS_TEXT_ENV_H_
