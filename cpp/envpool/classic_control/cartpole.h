// CartPole-v0 / CartPole-v1: balance a pole on a cart pushed left or right.
// A port of gymnasium 1.4's classic_control/cartpole.py.
#ifndef ENVPOOL_CLASSIC_CONTROL_CARTPOLE_H_
#define ENVPOOL_CLASSIC_CONTROL_CARTPOLE_H_

#include <cmath>
#include <cstdint>
#include <numbers>
#include <span>
#include <vector>

#include "envpool/classic_control/obs_state.h"
#include "envpool/core/array_spec.h"
#include "envpool/core/config.h"
#include "envpool/core/output.h"
#include "envpool/core/render_scene.h"
#include "envpool/core/rng.h"

namespace envpool::classic_control {

class CartPole {
 public:
  using Action = std::int64_t;

  static Config DefaultConfig() { return {{"sutton_barto_reward", false}}; }

  static EnvSpec Spec(const Config& /*config*/) {
    // Bounds are float32 in gymnasium's Box.
    const double x_high = static_cast<float>(kXThreshold * 2);
    const double theta_high = static_cast<float>(kThetaThreshold * 2);
    return {MakeArray<float>("obs", {4}, {-x_high, -kInf, -theta_high, -kInf},
                             {x_high, kInf, theta_high, kInf}),
            MakeDiscrete<std::int64_t>("action", 2),
            {MakeArray<double>("state", {4})}};
  }

  explicit CartPole(const Config& config)
      : sutton_barto_reward_(config.Get<bool>("sutton_barto_reward")) {}

  void Reset(Rng& rng, Output& out) {
    x_ = rng.Uniform(-0.05, 0.05);
    x_dot_ = rng.Uniform(-0.05, 0.05);
    theta_ = rng.Uniform(-0.05, 0.05);
    theta_dot_ = rng.Uniform(-0.05, 0.05);
    Write(out);
  }

  // The numbers gymnasium's render() reads: the cart's x and the pole's angle.
  static std::vector<std::int64_t> RenderShape(const Config& /*config*/) {
    return SceneShape(2);
  }
  void Render(std::span<std::uint8_t> scene) const {
    WriteScene(scene, {x_, theta_});
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    const double force = action == 1 ? kForceMag : -kForceMag;
    const double costheta = std::cos(theta_);
    const double sintheta = std::sin(theta_);
    const double temp =
        (force + kPoleMassLength * (theta_dot_ * theta_dot_) * sintheta) /
        kTotalMass;
    const double thetaacc =
        (kGravity * sintheta - costheta * temp) /
        (kLength *
         (4.0 / 3.0 - kMassPole * (costheta * costheta) / kTotalMass));
    const double xacc =
        temp - kPoleMassLength * thetaacc * costheta / kTotalMass;
    // Explicit Euler: positions advance with the old velocities.
    x_ = x_ + kTau * x_dot_;
    x_dot_ = x_dot_ + kTau * xacc;
    theta_ = theta_ + kTau * theta_dot_;
    theta_dot_ = theta_dot_ + kTau * thetaacc;

    out.terminated = x_ < -kXThreshold || x_ > kXThreshold ||
                     theta_ < -kThetaThreshold || theta_ > kThetaThreshold;
    if (sutton_barto_reward_) {
      out.reward = out.terminated ? -1.0 : 0.0;
    } else {
      out.reward = 1.0;
    }
    Write(out);
  }

 private:
  static constexpr double kGravity = 9.8;
  static constexpr double kMassCart = 1.0;
  static constexpr double kMassPole = 0.1;
  static constexpr double kTotalMass = kMassPole + kMassCart;
  static constexpr double kLength = 0.5;  // half the pole's length
  static constexpr double kPoleMassLength = kMassPole * kLength;
  static constexpr double kForceMag = 10.0;
  static constexpr double kTau = 0.02;
  static constexpr double kThetaThreshold = 24 * std::numbers::pi / 360;
  static constexpr double kXThreshold = 2.4;

  void Write(Output& out) const {
    WriteObsAndState(out, {x_, x_dot_, theta_, theta_dot_});
  }

  bool sutton_barto_reward_;
  double x_ = 0.0;
  double x_dot_ = 0.0;
  double theta_ = 0.0;
  double theta_dot_ = 0.0;
};

}  // namespace envpool::classic_control

#endif  // ENVPOOL_CLASSIC_CONTROL_CARTPOLE_H_
