// Sums in numpy's order. np.sum adds float arrays pairwise (blocks of eight
// partial sums below 128 elements, halves above); a plain loop rounds
// differently, so costs built from np.sum would drift in the last bits.
#ifndef ENVPOOL_NUMPY_SUM_H_
#define ENVPOOL_NUMPY_SUM_H_

#include <cstddef>
#include <span>

namespace envpool {

// np.sum(f(x)) for contiguous x of length n, with f applied to each element
// as it is read (np.square, np.clip, ...). T is the accumulator dtype, which
// numpy keeps equal to the array's dtype.
template <typename T, typename F>
T NumpySum(const T* x, std::size_t n, F f) {
  if (n < 8) {
    T sum = T(0);
    for (std::size_t i = 0; i < n; ++i) {
      sum += f(x[i]);
    }
    return sum;
  }
  if (n <= 128) {
    T r[8];
    for (std::size_t j = 0; j < 8; ++j) {
      r[j] = f(x[j]);
    }
    std::size_t i = 8;
    for (; i < n - n % 8; i += 8) {
      for (std::size_t j = 0; j < 8; ++j) {
        r[j] += f(x[i + j]);
      }
    }
    T sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) {
      sum += f(x[i]);
    }
    return sum;
  }
  std::size_t half = n / 2;
  half -= half % 8;
  return NumpySum(x, half, f) + NumpySum(x + half, n - half, f);
}

// np.sum(np.square(x)).
template <typename T>
T NumpySumOfSquares(const T* x, std::size_t n) {
  return NumpySum(x, n, [](T v) { return v * v; });
}

// np.mean of a short float64 array.
inline double NpMean(std::span<const double> x) {
  return NumpySum(x.data(), x.size(), [](double v) { return v; }) /
         static_cast<double>(x.size());
}

// weight * np.sum(np.square(action)) for a float32 action: numpy 2 treats the
// Python float weight as weak, so the whole cost stays in float32.
inline float ControlCost(double weight, std::span<const float> action) {
  return static_cast<float>(weight) *
         NumpySumOfSquares(action.data(), action.size());
}

}  // namespace envpool

#endif  // ENVPOOL_NUMPY_SUM_H_
