// MountainCar-v0: drive an underpowered car up a hill with discrete pushes.
// A port of gymnasium 1.4's classic_control/mountain_car.py.
#ifndef ENVPOOL_CLASSIC_CONTROL_MOUNTAIN_CAR_H_
#define ENVPOOL_CLASSIC_CONTROL_MOUNTAIN_CAR_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "envpool/classic_control/mountain_track.h"
#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/rng.h"

namespace envpool::classic_control {

class MountainCar : private MountainTrack {
 public:
  using Action = std::int64_t;

  static Config DefaultConfig() { return {{"goal_velocity", 0.0}}; }

  static EnvSpec Spec(const Config& /*config*/) {
    return {ObsSpec(), MakeDiscrete<std::int64_t>("action", 3), {StateSpec()}};
  }

  explicit MountainCar(const Config& config)
      : goal_velocity_(config.Get<double>("goal_velocity")) {}

  void Reset(Rng& rng, Output& out) {
    position_ = rng.Uniform(-0.6, -0.4);
    velocity_ = 0.0;
    Write(out);
  }

  static std::vector<std::int64_t> RenderShape(const Config& /*config*/) {
    return SceneShape(kSceneValues);
  }
  void Render(std::span<std::uint8_t> scene) const {
    WriteScene(scene, {position_, 0.0, kGoalPosition});
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    velocity_ += static_cast<double>(action - 1) * kForce +
                 std::cos(3 * position_) * (-kGravity);
    velocity_ = std::clamp(velocity_, -kMaxSpeed, kMaxSpeed);
    position_ += velocity_;
    position_ = std::clamp(position_, kMinPosition, kMaxPosition);
    if (position_ == kMinPosition && velocity_ < 0.0) {
      velocity_ = 0.0;
    }
    out.terminated = position_ >= kGoalPosition && velocity_ >= goal_velocity_;
    out.reward = -1.0;
    Write(out);
  }

 private:
  static constexpr double kGoalPosition = 0.5;
  static constexpr double kForce = 0.001;
  static constexpr double kGravity = 0.0025;

  void Write(Output& out) const {
    MountainTrack::Write(out, position_, velocity_);
  }

  double goal_velocity_;
  double position_ = 0.0;
  double velocity_ = 0.0;
};

}  // namespace envpool::classic_control

#endif  // ENVPOOL_CLASSIC_CONTROL_MOUNTAIN_CAR_H_
