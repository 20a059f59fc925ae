// MountainCarContinuous-v0: drive an underpowered car up a hill with a
// continuous force. A port of gymnasium 1.4's
// classic_control/continuous_mountain_car.py.
//
// gymnasium stores the state as a float32 array after the first step, so
// from then on position and velocity are numpy float32 scalars; under numpy
// 2 promotion their arithmetic and comparisons with Python floats happen in
// float32. The value a limit clips to is a Python float (float64) instead.
// This class tracks which of the two each quantity is.
#ifndef ENVPOOL_CLASSIC_CONTROL_MOUNTAIN_CAR_CONTINUOUS_H_
#define ENVPOOL_CLASSIC_CONTROL_MOUNTAIN_CAR_CONTINUOUS_H_

#include <cmath>
#include <span>
#include <vector>

#include "envpool/classic_control/mountain_track.h"
#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"
#include "envpool/numpy/scalar.h"

namespace envpool::classic_control {

class MountainCarContinuous : private MountainTrack {
 public:
  using Action = std::span<const float>;

  static Config DefaultConfig() { return {{"goal_velocity", 0.0}}; }

  static EnvSpec Spec(const Config& /*config*/) {
    return {ObsSpec(),
            MakeArray<float>("action", {1}, {kMinAction}, {kMaxAction}),
            {StateSpec()}};
  }

  explicit MountainCarContinuous(const Config& config)
      : goal_velocity_(config.Get<double>("goal_velocity")) {}

  static std::vector<std::int64_t> RenderShape(const Config& /*config*/) {
    return SceneShape(kSceneValues);
  }
  void Render(std::span<std::uint8_t> scene) const {
    WriteScene(scene, {position_, float32_state_ ? 1.0 : 0.0, kGoalPosition});
  }

  void Reset(Rng& rng, Output& out) {
    position_ = rng.Uniform(-0.6, -0.4);
    velocity_ = 0.0;
    float32_state_ = false;
    Write(out);
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    const float a = action[0];
    const bool f32 = float32_state_;
    const double cos_arg =
        f32 ? 3.0f * static_cast<float>(position_) : 3.0 * position_;
    const double slope = 0.0025 * std::cos(cos_arg);

    // velocity += force * power - slope, where force is `a` (float32) unless
    // min/max clipped it to a Python float bound.
    Number velocity{velocity_, f32};
    if (a < static_cast<float>(kMinAction) ||
        a > static_cast<float>(kMaxAction)) {
      const double force = a < 0.0f ? kMinAction : kMaxAction;
      velocity = velocity + Number{force * kPower - slope, false};
    } else {
      const float term =
          a * static_cast<float>(kPower) - static_cast<float>(slope);
      velocity = velocity + Number{term, true};
    }
    if (velocity > kMaxSpeed) {
      velocity = Number{kMaxSpeed, false};
    }
    if (velocity < -kMaxSpeed) {
      velocity = Number{-kMaxSpeed, false};
    }

    Number position = Number{position_, f32} + velocity;
    if (position > kMaxPosition) {
      position = Number{kMaxPosition, false};
    }
    if (position < kMinPosition) {
      position = Number{kMinPosition, false};
    }
    if (position == kMinPosition && velocity.value < 0.0) {
      velocity = Number{0.0, false};
    }

    out.terminated = position >= kGoalPosition && velocity >= goal_velocity_;
    // The reward charges the unclipped action, squared by math.pow.
    out.reward = (out.terminated ? 100.0 : 0.0) -
                 LibmPow(static_cast<double>(a), 2.0) * 0.1;

    position_ = RoundToFloat(position.value);
    velocity_ = RoundToFloat(velocity.value);
    float32_state_ = true;
    Write(out);
  }

 private:
  static constexpr double kMinAction = -1.0;
  static constexpr double kMaxAction = 1.0;
  static constexpr double kGoalPosition = 0.45;
  static constexpr double kPower = 0.0015;

  // A Python-side number: a numpy float32 scalar (f32) or a float64 one.
  // Against a Python float, a float32 compares after rounding that float to
  // float32.
  struct Number {
    double value;
    bool f32;

    // The left operand is always a state component and its type wins:
    // float32 + (float32 or Python float) is float32 arithmetic, and
    // float64 + anything is float64.
    Number operator+(const Number& other) const {
      if (f32) {
        return {static_cast<float>(value) + static_cast<float>(other.value),
                true};
      }
      return {value + other.value, false};
    }
    double Limit(double x) const { return f32 ? static_cast<float>(x) : x; }
    bool operator>(double x) const { return value > Limit(x); }
    bool operator<(double x) const { return value < Limit(x); }
    bool operator>=(double x) const { return value >= Limit(x); }
    bool operator==(double x) const { return value == Limit(x); }
  };

  void Write(Output& out) const {
    MountainTrack::Write(out, position_, velocity_);
  }

  double goal_velocity_;
  double position_ = 0.0;
  double velocity_ = 0.0;
  // Whether the state is gymnasium's float32 array (after any step) rather
  // than the float64 one reset makes.
  bool float32_state_ = false;
};

}  // namespace envpool::classic_control

#endif  // ENVPOOL_CLASSIC_CONTROL_MOUNTAIN_CAR_CONTINUOUS_H_
