// dm_control's reward shaping (utils/rewards.py) and the few numpy reductions
// the suite's tasks apply, in numpy's order of operations.
//
// Sums and means follow numpy's pairwise order; dot products and norms follow
// the FMA chains of the BLAS numpy ships on x86-64 (OpenBLAS), so observations
// built from them are bit-identical. exp, log, cosh and friends come from
// libm, while numpy may use its own SIMD kernels: those results can differ in
// the last bit, so rewards are equal to within a few ulp, not bit for bit.
#ifndef ENVPOOL_DMC_REWARDS_H_
#define ENVPOOL_DMC_REWARDS_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numbers>
#include <span>
#include <stdexcept>

#include "envpool/mujoco/numpy_sum.h"

namespace envpool::dmc {

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

enum class Sigmoid {
  kGaussian,
  kHyperbolic,
  kLongTail,
  kReciprocal,
  kCosine,
  kLinear,
  kQuadratic,
  kTanhSquared,
};

// rewards._sigmoids for one value: 1 at x == 0, `value_at_1` at |x| == 1.
inline double SigmoidValue(double x, double value_at_1, Sigmoid sigmoid) {
  switch (sigmoid) {
    case Sigmoid::kGaussian: {
      const double scale = std::sqrt(-2 * std::log(value_at_1));
      const double scaled = x * scale;
      return std::exp(-0.5 * (scaled * scaled));
    }
    case Sigmoid::kHyperbolic: {
      const double scale = std::acosh(1 / value_at_1);
      return 1 / std::cosh(x * scale);
    }
    case Sigmoid::kLongTail: {
      const double scale = std::sqrt(1 / value_at_1 - 1);
      const double scaled = x * scale;
      return 1 / (scaled * scaled + 1);
    }
    case Sigmoid::kReciprocal: {
      const double scale = 1 / value_at_1 - 1;
      return 1 / (std::abs(x) * scale + 1);
    }
    case Sigmoid::kCosine: {
      const double scale = std::acos(2 * value_at_1 - 1) / std::numbers::pi;
      const double scaled = x * scale;
      return std::abs(scaled) < 1
                 ? (1 + std::cos(std::numbers::pi * scaled)) / 2
                 : 0.0;
    }
    case Sigmoid::kLinear: {
      const double scaled = x * (1 - value_at_1);
      return std::abs(scaled) < 1 ? 1 - scaled : 0.0;
    }
    case Sigmoid::kQuadratic: {
      const double scaled = x * std::sqrt(1 - value_at_1);
      return std::abs(scaled) < 1 ? 1 - scaled * scaled : 0.0;
    }
    case Sigmoid::kTanhSquared: {
      const double scale = std::atanh(std::sqrt(1 - value_at_1));
      const double t = std::tanh(x * scale);
      return 1 - t * t;
    }
  }
  throw std::invalid_argument("unknown sigmoid");
}

struct ToleranceArgs {
  double lower = 0.0;
  double upper = 0.0;
  double margin = 0.0;
  Sigmoid sigmoid = Sigmoid::kGaussian;
  double value_at_margin = 0.1;
};

// rewards.tolerance for one value: 1 inside [lower, upper], falling off with
// the distance to the nearest bound over `margin`.
inline double Tolerance(double x, const ToleranceArgs& args) {
  const bool in_bounds = args.lower <= x && x <= args.upper;
  if (args.margin == 0) {
    return in_bounds ? 1.0 : 0.0;
  }
  if (in_bounds) {
    return 1.0;
  }
  const double d =
      (x < args.lower ? args.lower - x : x - args.upper) / args.margin;
  return SigmoidValue(d, args.value_at_margin, args.sigmoid);
}

// np.mean of tolerance(x) over a short array.
inline double MeanTolerance(std::span<const double> x,
                            const ToleranceArgs& args) {
  const double sum = mujoco::NumpySum(
      x.data(), x.size(), [&](double v) { return Tolerance(v, args); });
  return sum / static_cast<double>(x.size());
}

// np.mean of a short array.
inline double Mean(std::span<const double> x) {
  return mujoco::NumpySum(x.data(), x.size(), [](double v) { return v; }) /
         static_cast<double>(x.size());
}

// x.dot(x) as OpenBLAS's ddot computes it for short vectors: an FMA chain.
inline double Dot(std::span<const double> x, std::span<const double> y) {
  double dot = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    dot = std::fma(x[i], y[i], dot);
  }
  return dot;
}

// np.linalg.norm of a short vector.
inline double Norm(std::span<const double> x) { return std::sqrt(Dot(x, x)); }

// v.dot(m.reshape(3, 3)) for a row-major 3x3 matrix m (dgemv's FMA chain).
inline void VecMat3(const double* v, const double* m, double* out) {
  for (int j = 0; j < 3; ++j) {
    out[j] = std::fma(v[2], m[6 + j], std::fma(v[1], m[3 + j], v[0] * m[j]));
  }
}

}  // namespace envpool::dmc

#endif  // ENVPOOL_DMC_REWARDS_H_
