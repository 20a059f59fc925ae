// Scalar arithmetic that reproduces what numpy (and Python's math) compute,
// where a compiler would otherwise produce a different, if more accurate,
// result.
#ifndef ENVPOOL_NUMPY_SCALAR_H_
#define ENVPOOL_NUMPY_SCALAR_H_

#include <cmath>
#include <concepts>

namespace envpool {

// `x ** 2` on a numpy scalar (and math.pow) calls libm's pow(), which is not
// always the correctly rounded x * x that compilers substitute for
// pow(x, 2); the volatile exponent keeps the libm call. T = float gives powf.
template <std::floating_point T>
T LibmPow(T x, T y) {
  volatile T exponent = y;
  return std::pow(x, static_cast<T>(exponent));
}

// Rounds x to float32. GCC 12's SLP vectorizer folds a pair of
// double -> float -> double round trips into a no-op (wrong code); the
// volatile keeps the rounding.
inline double RoundToFloat(double x) {
  volatile float rounded = static_cast<float>(x);
  return rounded;
}

}  // namespace envpool

#endif  // ENVPOOL_NUMPY_SCALAR_H_
