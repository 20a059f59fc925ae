// Acrobot-v1: swing the free end of a two-link chain above a line by
// torquing the joint between the links. A port of gymnasium 1.4's
// classic_control/acrobot.py with its defaults: the book dynamics, no torque
// noise, one RK4 step per 0.2 s.
#ifndef ENVPOOL_CLASSIC_CONTROL_ACROBOT_H_
#define ENVPOOL_CLASSIC_CONTROL_ACROBOT_H_

#include <array>
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
#include "envpool/numpy/scalar.h"

namespace envpool::classic_control {

class Acrobot {
 public:
  using Action = std::int64_t;

  static Config DefaultConfig() { return {}; }

  static EnvSpec Spec(const Config& /*config*/) {
    // Bounds are float32 in gymnasium's Box.
    const double vel1 = static_cast<float>(kMaxVel1);
    const double vel2 = static_cast<float>(kMaxVel2);
    return {MakeArray<float>("obs", {6}, {-1.0, -1.0, -1.0, -1.0, -vel1, -vel2},
                             {1.0, 1.0, 1.0, 1.0, vel1, vel2}),
            MakeDiscrete<std::int64_t>("action", 3),
            {MakeArray<double>("state", {4})}};
  }

  explicit Acrobot(const Config& /*config*/) {}

  void Reset(Rng& rng, Output& out) {
    // gymnasium keeps the initial state as a float32 array.
    for (double& s : state_) {
      s = RoundToFloat(rng.Uniform(-0.1, 0.1));
    }
    float32_state_ = true;
    Write(out);
  }

  // The numbers gymnasium's render() reads: the two joint angles, and whether
  // gymnasium holds them as float32 (its state after a reset).
  static std::vector<std::int64_t> RenderShape(const Config& /*config*/) {
    return SceneShape(3);
  }
  void Render(std::span<std::uint8_t> scene) const {
    WriteScene(scene, {state_[0], state_[1], float32_state_ ? 1.0 : 0.0});
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    static constexpr double kTorques[] = {-1.0, 0.0, 1.0};
    State s = Rk4(state_, kTorques[action]);
    s[0] = Wrap(s[0], -kPi, kPi);
    s[1] = Wrap(s[1], -kPi, kPi);
    s[2] = Bound(s[2], -kMaxVel1, kMaxVel1);
    s[3] = Bound(s[3], -kMaxVel2, kMaxVel2);
    state_ = s;
    float32_state_ = false;
    out.terminated = -std::cos(s[0]) - std::cos(s[1] + s[0]) > 1.0;
    out.reward = out.terminated ? 0.0 : -1.0;
    Write(out);
  }

 private:
  using State = std::array<double, 4>;

  static constexpr double kPi = std::numbers::pi;
  static constexpr double kDt = 0.2;
  static constexpr double kL1 = 1.0;
  static constexpr double kM1 = 1.0;
  static constexpr double kM2 = 1.0;
  static constexpr double kLc1 = 0.5;
  static constexpr double kLc2 = 0.5;
  static constexpr double kI1 = 1.0;
  static constexpr double kI2 = 1.0;
  static constexpr double kG = 9.8;
  static constexpr double kMaxVel1 = 4 * kPi;
  static constexpr double kMaxVel2 = 9 * kPi;

  // Time derivative of the state under joint torque `a`.
  static State Dsdt(const State& s, double a) {
    const double theta1 = s[0];
    const double theta2 = s[1];
    const double dtheta1 = s[2];
    const double dtheta2 = s[3];
    const double d1 =
        kM1 * (kLc1 * kLc1) +
        kM2 * (kL1 * kL1 + kLc2 * kLc2 + 2 * kL1 * kLc2 * std::cos(theta2)) +
        kI1 + kI2;
    const double d2 = kM2 * (kLc2 * kLc2 + kL1 * kLc2 * std::cos(theta2)) + kI2;
    const double phi2 = kM2 * kLc2 * kG * std::cos(theta1 + theta2 - kPi / 2.0);
    const double phi1 =
        -kM2 * kL1 * kLc2 * LibmPow(dtheta2, 2.0) * std::sin(theta2) -
        2 * kM2 * kL1 * kLc2 * dtheta2 * dtheta1 * std::sin(theta2) +
        (kM1 * kLc1 + kM2 * kL1) * kG * std::cos(theta1 - kPi / 2) + phi2;
    const double ddtheta2 =
        (a + d2 / d1 * phi1 -
         kM2 * kL1 * kLc2 * LibmPow(dtheta1, 2.0) * std::sin(theta2) - phi2) /
        (kM2 * (kLc2 * kLc2) + kI2 - LibmPow(d2, 2.0) / d1);
    const double ddtheta1 = -(d2 * ddtheta2 + phi1) / d1;
    return {dtheta1, dtheta2, ddtheta1, ddtheta2};
  }

  // One classic RK4 step of length kDt; the torque stays constant.
  static State Rk4(const State& y0, double torque) {
    constexpr double kHalf = kDt / 2.0;
    auto shifted = [&y0](double h, const State& k) {
      State y;
      for (int i = 0; i < 4; ++i) {
        y[i] = y0[i] + h * k[i];
      }
      return y;
    };
    const State k1 = Dsdt(y0, torque);
    const State k2 = Dsdt(shifted(kHalf, k1), torque);
    const State k3 = Dsdt(shifted(kHalf, k2), torque);
    const State k4 = Dsdt(shifted(kDt, k3), torque);
    State y;
    for (int i = 0; i < 4; ++i) {
      y[i] = y0[i] + kDt / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }
    return y;
  }

  // Shifts x by whole periods of (hi - lo) into [lo, hi].
  static double Wrap(double x, double lo, double hi) {
    const double diff = hi - lo;
    while (x > hi) {
      x = x - diff;
    }
    while (x < lo) {
      x = x + diff;
    }
    return x;
  }

  // Python's min(max(x, lo), hi).
  static double Bound(double x, double lo, double hi) {
    if (lo > x) {
      x = lo;
    }
    if (hi < x) {
      x = hi;
    }
    return x;
  }

  void Write(Output& out) const {
    const auto [theta1, theta2, dtheta1, dtheta2] = state_;
    WriteObsAndState(out,
                     {std::cos(theta1), std::sin(theta1), std::cos(theta2),
                      std::sin(theta2), dtheta1, dtheta2},
                     {theta1, theta2, dtheta1, dtheta2});
  }

  State state_{};
  bool float32_state_ = false;  // gymnasium keeps a reset state as float32
};

}  // namespace envpool::classic_control

#endif  // ENVPOOL_CLASSIC_CONTROL_ACROBOT_H_
