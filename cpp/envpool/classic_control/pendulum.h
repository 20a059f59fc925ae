// Pendulum-v1: swing a frictionless pendulum up and keep it upright.
// A port of gymnasium 1.4's classic_control/pendulum.py.
#ifndef ENVPOOL_CLASSIC_CONTROL_PENDULUM_H_
#define ENVPOOL_CLASSIC_CONTROL_PENDULUM_H_

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
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

class Pendulum {
 public:
  using Action = std::span<const float>;

  static Config DefaultConfig() { return {{"g", 10.0}}; }

  static EnvSpec Spec(const Config& /*config*/) {
    return {MakeArray<float>("obs", {3}, {-1.0, -1.0, -kMaxSpeed},
                             {1.0, 1.0, kMaxSpeed}),
            MakeArray<float>("action", {1}, {-kMaxTorque}, {kMaxTorque}),
            {MakeArray<double>("state", {2})}};
  }

  explicit Pendulum(const Config& config) : g_(config.Get<double>("g")) {}

  void Reset(Rng& rng, Output& out) {
    th_ = rng.Uniform(-std::numbers::pi, std::numbers::pi);
    thdot_ = rng.Uniform(-1.0, 1.0);
    last_u_.reset();
    Write(out);
  }

  // The numbers gymnasium's render() reads: the angle, and the last torque
  // (whether there is one: none after a reset).
  static std::vector<std::int64_t> RenderShape(const Config& /*config*/) {
    return SceneShape(3);
  }
  void Render(std::span<std::uint8_t> scene) const {
    WriteScene(scene, {th_, last_u_ ? 1.0 : 0.0, last_u_.value_or(0.0F)});
  }

  void Step(Action action, Rng& /*rng*/, Output& out) {
    // The action stays a numpy float32, so every term with u is float32.
    const float u = std::clamp(action[0], static_cast<float>(-kMaxTorque),
                               static_cast<float>(kMaxTorque));
    const float u_cost = static_cast<float>(0.001) * LibmPow(u, 2.0f);
    const double costs =
        LibmPow(AngleNormalize(th_), 2.0) + 0.1 * LibmPow(thdot_, 2.0) + u_cost;
    const float u_acc = 3.0f * u;  // 3.0 / (m * l**2) == 3.0
    double newthdot =
        thdot_ + (3 * g_ / (2 * kL) * std::sin(th_) + u_acc) * kDt;
    newthdot = std::clamp(newthdot, -kMaxSpeed, kMaxSpeed);
    th_ = th_ + newthdot * kDt;
    thdot_ = newthdot;
    last_u_ = u;
    out.reward = -costs;
    Write(out);
  }

 private:
  static constexpr double kMaxSpeed = 8.0;
  static constexpr double kMaxTorque = 2.0;
  static constexpr double kDt = 0.05;
  static constexpr double kL = 1.0;

  // ((x + pi) % (2 * pi)) - pi, with numpy's % (the sign follows the
  // divisor).
  static double AngleNormalize(double x) {
    constexpr double kTwoPi = 2 * std::numbers::pi;
    double mod = std::fmod(x + std::numbers::pi, kTwoPi);
    if (mod < 0.0) {
      mod += kTwoPi;
    }
    return mod - std::numbers::pi;
  }

  void Write(Output& out) const {
    WriteObsAndState(out, {std::cos(th_), std::sin(th_), thdot_},
                     {th_, thdot_});
  }

  double g_;
  double th_ = 0.0;
  double thdot_ = 0.0;
  std::optional<float> last_u_;  // the clipped torque, for frames
};

}  // namespace envpool::classic_control

#endif  // ENVPOOL_CLASSIC_CONTROL_PENDULUM_H_
