// dm_control's reward shaping (utils/rewards.py) and the few numpy reductions
// the suite's tasks apply, in numpy's order of operations.
//
// Sums and means follow numpy's pairwise order; dot products, norms, exp,
// log, cosh and friends are numpy's own BLAS and kernels (envpool/numpy/). So
// rewards are equal to dm_control's bit for bit.
#ifndef ENVPOOL_DMC_REWARDS_H_
#define ENVPOOL_DMC_REWARDS_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numbers>
#include <span>
#include <stdexcept>

#include "envpool/numpy/linalg.h"
#include "envpool/numpy/scalar.h"
#include "envpool/numpy/sum.h"
#include "envpool/numpy/ufuncs.h"

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

// How numpy squares (x ** 2) what tolerance computes from its argument. A
// numpy scalar (np.float64, what tolerance of a scalar works on) calls C's
// pow(x, 2.0), which glibc does not always round as x * x; an array squares
// each element as x * x.
enum class Operand : std::uint8_t { kScalar, kArrayElement };

inline double Square(double x, Operand operand) {
  if (operand == Operand::kArrayElement) {
    return x * x;
  }
  return LibmPow(x, 2.0);
}

// rewards._sigmoids for one value: 1 at x == 0, `value_at_1` at |x| == 1.
inline double SigmoidValue(double x, double value_at_1, Sigmoid sigmoid,
                           Operand operand) {
  switch (sigmoid) {
    case Sigmoid::kGaussian: {
      const double scale = std::sqrt(-2 * NpLog(value_at_1));
      return NpExp(-0.5 * Square(x * scale, operand));
    }
    case Sigmoid::kHyperbolic: {
      const double scale = NpArccosh(1 / value_at_1);
      return 1 / NpCosh(x * scale);
    }
    case Sigmoid::kLongTail: {
      const double scale = std::sqrt(1 / value_at_1 - 1);
      return 1 / (Square(x * scale, operand) + 1);
    }
    case Sigmoid::kReciprocal: {
      const double scale = 1 / value_at_1 - 1;
      return 1 / (std::abs(x) * scale + 1);
    }
    case Sigmoid::kCosine: {
      const double scale = NpArccos(2 * value_at_1 - 1) / std::numbers::pi;
      const double scaled = x * scale;
      return std::abs(scaled) < 1 ? (1 + NpCos(std::numbers::pi * scaled)) / 2
                                  : 0.0;
    }
    case Sigmoid::kLinear: {
      const double scaled = x * (1 - value_at_1);
      return std::abs(scaled) < 1 ? 1 - scaled : 0.0;
    }
    case Sigmoid::kQuadratic: {
      const double scaled = x * std::sqrt(1 - value_at_1);
      return std::abs(scaled) < 1 ? 1 - Square(scaled, operand) : 0.0;
    }
    case Sigmoid::kTanhSquared: {
      const double scale = NpArctanh(std::sqrt(1 - value_at_1));
      return 1 - Square(NpTanh(x * scale), operand);
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
// the distance to the nearest bound over `margin`. `operand` says whether
// dm_control passes a scalar or an array holding x.
inline double Tolerance(double x, const ToleranceArgs& args,
                        Operand operand = Operand::kScalar) {
  const bool in_bounds = args.lower <= x && x <= args.upper;
  if (args.margin == 0) {
    return in_bounds ? 1.0 : 0.0;
  }
  if (in_bounds) {
    return 1.0;
  }
  const double d =
      (x < args.lower ? args.lower - x : x - args.upper) / args.margin;
  return SigmoidValue(d, args.value_at_margin, args.sigmoid, operand);
}

struct AtLeastArgs {
  double lower = 0.0;
  double margin = 0.0;
  double value_at_margin = 0.0;
};

// The suite's reward for reaching a level (a speed, a height, uprightness):
// tolerance with bounds (lower, inf) and the linear sigmoid, so 1 from
// `lower` up, down to `value_at_margin` at `lower - margin`.
inline double AtLeast(double x, const AtLeastArgs& args) {
  return Tolerance(x, {.lower = args.lower,
                       .upper = kInfinity,
                       .margin = args.margin,
                       .sigmoid = Sigmoid::kLinear,
                       .value_at_margin = args.value_at_margin});
}

// np.mean of tolerance(x) over a short array.
inline double MeanTolerance(std::span<const double> x,
                            const ToleranceArgs& args) {
  const double sum = NumpySum(x.data(), x.size(), [&](double v) {
    return Tolerance(v, args, Operand::kArrayElement);
  });
  return sum / static_cast<double>(x.size());
}

}  // namespace envpool::dmc

#endif  // ENVPOOL_DMC_REWARDS_H_
